import { simulateCouncils } from '../internal/simulate-councils.js';
import { flagKey } from './flag-key.js';
import { plantedFlags } from './planted-flags.js';
import { plantedTruth } from './planted-truth.js';
import type { PlantedTruth } from './planted-truth.js';
import type { Estimand, StudyEstimator } from './study-estimator.js';
import type { StudyScenario } from './study-scenario.js';

/** Coverage counts of one subject's interval. */
export interface CoverageCount {
  /** Runs whose interval contained the truth. */
  covered: number;
  /** Runs that reported the interval. */
  intervals: number;
  /** Σ (estimate − truth) over those runs. */
  errorSum: number;
}

/**
 * Counts over a range of runs of one scenario: plain sums, so tallies of disjoint ranges (from several
 * processes) add up with `mergeTallies` to the tally of all runs.
 */
export interface ScenarioTally {
  runs: number;
  /** Runs whose flags were exactly the planted ones (flag codes and subjects, as a set). */
  exactlyPlanted: number;
  /** Runs with at least one flag that was not planted. */
  anyOtherFlag: number;
  /** Runs with any flag. */
  anyFlag: number;
  /** Per planted flag key (`CODE` or `CODE(subject)`): runs that raised it. */
  detected: Record<string, number>;
  /** Per flag code: runs that raised it for something not planted. */
  falseFlags: Record<string, number>;
  /**
   * Per `CODE on KIND` (e.g. `GENEROUS_REVIEWER on fair reviewer`): runs that raised that code, not
   * planted, for a subject of that kind. Only for scenarios with their own plants (`ScenarioPlants.kindOf`).
   */
  falseFlagsByKind?: Record<string, number>;
  /** Per `estimand interval` (e.g. `length_correlation fisher_z_sandwich`): runs with any scored interval, and counts per subject. */
  coverage: Record<string, { runs: number; subjects: Record<string, CoverageCount> }>;
  /** The between-session length figure: runs that reported it, and runs whose interval excluded 0. */
  betweenSession: { reported: number; excludesZero: number };
  /** Runs that raised a flag while an interval of the flagged figure contained 0, in all and per flag code. */
  flagIntervalConflicts: { runs: number; byCode: Record<string, number> };
}

/**
 * The figures whose intervals a flag must agree with (position flags test a family of effects and have none;
 * REVIEWER_DRIFT's change between periods is no study estimand, so it has none either).
 */
const FLAGGED_ESTIMANDS: Partial<Record<string, readonly Estimand[]>> = {
  LENGTH_BIAS_DETECTED: ['length_correlation', 'length_slope'],
  HARSH_REVIEWER: ['reviewer_offset'],
  GENEROUS_REVIEWER: ['reviewer_offset'],
  SELF_PREFERENCE: ['self_preference'],
  REVIEWER_AFFINITY: ['affinity'],
  ANCHORING: ['anchoring'],
};

/** A tally of no runs. */
export function emptyTally(): ScenarioTally {
  return {
    runs: 0,
    exactlyPlanted: 0,
    anyOtherFlag: 0,
    anyFlag: 0,
    detected: {},
    falseFlags: {},
    coverage: {},
    betweenSession: { reported: 0, excludesZero: 0 },
    flagIntervalConflicts: { runs: 0, byCode: {} },
  };
}

const addCounts = (into: Record<string, number>, from: Record<string, number>): void => {
  for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + value;
};

/** The tally of two disjoint ranges of runs of the same scenario. */
export function mergeTallies(a: ScenarioTally, b: ScenarioTally): ScenarioTally {
  const out = JSON.parse(JSON.stringify(a)) as ScenarioTally;
  out.runs += b.runs;
  out.exactlyPlanted += b.exactlyPlanted;
  out.anyOtherFlag += b.anyOtherFlag;
  out.anyFlag += b.anyFlag;
  addCounts(out.detected, b.detected);
  addCounts(out.falseFlags, b.falseFlags);
  if (b.falseFlagsByKind !== undefined) addCounts((out.falseFlagsByKind ??= {}), b.falseFlagsByKind);
  for (const [key, family] of Object.entries(b.coverage)) {
    const into = (out.coverage[key] ??= { runs: 0, subjects: {} });
    into.runs += family.runs;
    for (const [subject, c] of Object.entries(family.subjects)) {
      const cell = (into.subjects[subject] ??= { covered: 0, intervals: 0, errorSum: 0 });
      cell.covered += c.covered;
      cell.intervals += c.intervals;
      cell.errorSum += c.errorSum;
    }
  }
  out.betweenSession.reported += b.betweenSession.reported;
  out.betweenSession.excludesZero += b.betweenSession.excludesZero;
  out.flagIntervalConflicts.runs += b.flagIntervalConflicts.runs;
  addCounts(out.flagIntervalConflicts.byCode, b.flagIntervalConflicts.byCode);
  return out;
}

/**
 * Runs `runs` stores of a scenario (run i from `firstRun`, seed `scenario.seed + i`, deterministic)
 * through an estimator and counts flags and coverage against the planted truth (the scenario's own
 * `plants` where it has them, and then false flags per kind of subject too). Intervals without a
 * planted truth (see `plantedTruth`) are not scored. A flag conflicts with its interval when any
 * interval the report gives for the flagged figure (e.g. either length interval) contains 0.
 */
export function tallyScenario(spec: {
  scenario: StudyScenario;
  estimator: StudyEstimator;
  /** Default 0. */
  firstRun?: number;
  /** Default `scenario.runs`. */
  runs?: number;
  /** Resample counts passed to the estimator; left out, its defaults. */
  resamples?: number;
  /** Default `plantedTruth(scenario.simulation)`. */
  truth?: PlantedTruth;
}): ScenarioTally {
  const { scenario, estimator } = spec;
  const firstRun = spec.firstRun ?? 0;
  const runs = spec.runs ?? scenario.runs;
  const plants = scenario.plants;
  const truth = spec.truth ?? plants?.truth ?? plantedTruth(scenario.simulation);
  const planted = new Set((plants?.flags ?? plantedFlags(scenario.simulation)).map(flagKey));
  const tally = emptyTally();
  if (plants !== undefined) tally.falseFlagsByKind = {};
  for (let run = firstRun; run < firstRun + runs; run++) {
    const seed = scenario.seed + run;
    const observations =
      plants === undefined
        ? simulateCouncils({ ...scenario.simulation, sessions: scenario.sessions, seed })
        : plants.simulate({ sessions: scenario.sessions, seed });
    const report = estimator.run(
      observations,
      spec.resamples === undefined ? { seed } : { seed, resamples: spec.resamples },
    );
    tally.runs++;
    const raised = new Set(report.flags.map(flagKey));
    if (raised.size > 0) tally.anyFlag++;
    if (raised.size === planted.size && [...planted].every((k) => raised.has(k))) tally.exactlyPlanted++;
    for (const key of planted) if (raised.has(key)) tally.detected[key] = (tally.detected[key] ?? 0) + 1;
    const falseCodes = new Set(report.flags.filter((f) => !planted.has(flagKey(f))).map((f) => f.code));
    if (falseCodes.size > 0) tally.anyOtherFlag++;
    for (const code of falseCodes) tally.falseFlags[code] = (tally.falseFlags[code] ?? 0) + 1;
    if (plants !== undefined) {
      const byKind = tally.falseFlagsByKind!;
      const keys = new Set(
        report.flags.filter((f) => !planted.has(flagKey(f))).map((f) => `${f.code} on ${plants.kindOf(f.subject)}`),
      );
      for (const key of keys) byKind[key] = (byKind[key] ?? 0) + 1;
    }
    const familiesSeen = new Set<string>();
    let between = false;
    let betweenExcludesZero = false;
    for (const e of report.estimates) {
      if (e.estimand === 'length_between_sessions') {
        between = true;
        betweenExcludesZero ||= e.lower > 0 || e.upper < 0;
      }
      const value = truth(e.estimand, e.subject);
      if (value === null) continue;
      const key = `${e.estimand} ${e.interval}`;
      const family = (tally.coverage[key] ??= { runs: 0, subjects: {} });
      if (!familiesSeen.has(key)) {
        familiesSeen.add(key);
        family.runs++;
      }
      const cell = (family.subjects[e.subject ?? '—'] ??= { covered: 0, intervals: 0, errorSum: 0 });
      cell.intervals++;
      if (e.lower <= value && value <= e.upper) cell.covered++;
      cell.errorSum += e.estimate - value;
    }
    if (between) tally.betweenSession.reported++;
    if (betweenExcludesZero) tally.betweenSession.excludesZero++;
    const conflicting = new Set(
      report.flags
        .filter((f) =>
          report.estimates.some(
            (e) =>
              FLAGGED_ESTIMANDS[f.code]?.includes(e.estimand) === true &&
              e.subject === f.subject &&
              e.lower <= 0 &&
              0 <= e.upper,
          ),
        )
        .map((f) => f.code),
    );
    if (conflicting.size > 0) tally.flagIntervalConflicts.runs++;
    for (const code of conflicting)
      tally.flagIntervalConflicts.byCode[code] = (tally.flagIntervalConflicts.byCode[code] ?? 0) + 1;
  }
  return tally;
}
