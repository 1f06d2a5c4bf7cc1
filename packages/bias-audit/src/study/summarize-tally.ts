import { flagKey } from './flag-key.js';
import { plantedFlags } from './planted-flags.js';
import type { ScenarioTally } from './scenario-tally.js';
import type { StudyScenario, StudyTarget } from './study-scenario.js';
import { wilsonInterval } from '../wilson-interval.js';

/**
 * `pass`/`FAIL`: whether the rate meets the target; with `?` when the 95% interval reaches across
 * the target's edge, so these runs cannot tell.
 */
export type StudyVerdict = 'pass' | 'pass?' | 'FAIL' | 'FAIL?';

/** One line of the study's table. */
export interface StudyRow {
  scenario: string;
  runs: number;
  sessions: number;
  metric: string;
  /** Null when the estimator reported nothing to measure. */
  rate: number | null;
  lower: number | null;
  upper: number | null;
  /** e.g. `≤ 5%`; empty when the issue sets none. */
  target: string;
  verdict: StudyVerdict | null;
  detail: string;
}

/** The issue's coverage window for every 95% interval. */
export const DEFAULT_COVERAGE_TARGET: StudyTarget = { min: 0.935, max: 0.965 };

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;

function targetLabel(target: StudyTarget | undefined): string {
  if (target === undefined) return '';
  if (target.max === 0) return '0%';
  const pct = (x: number): string => `${Number((100 * x).toFixed(1))}%`;
  if (target.min !== undefined && target.max !== undefined) return `${pct(target.min).slice(0, -1)}–${pct(target.max)}`;
  if (target.min !== undefined) return `≥ ${pct(target.min)}`;
  if (target.max !== undefined) return `≤ ${pct(target.max)}`;
  return '';
}

/** A rate against its target: `pass`/`FAIL`, with `?` where its interval reaches across the target's edge. */
export function verdictOf(spec: {
  rate: number;
  lower: number;
  upper: number;
  target: StudyTarget | undefined;
}): StudyVerdict | null {
  const { rate, lower, upper, target } = spec;
  if (target === undefined) return null;
  const min = target.min ?? Number.NEGATIVE_INFINITY;
  const max = target.max ?? Number.POSITIVE_INFINITY;
  const pass = rate >= min && rate <= max;
  const certain = pass ? lower >= min && upper <= max : upper < min || lower > max;
  return `${pass ? 'pass' : 'FAIL'}${certain ? '' : '?'}`;
}

const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/**
 * The table rows of a scenario's tally: flag rates (exactly the planted flags, any other flag, each
 * planted flag's detection, each code raised where nothing was planted), the between-session figure
 * where the scenario asks for it, and one coverage row per estimand and interval method. Rates carry
 * Wilson 95% intervals. Every scenario also counts runs where a flag fired while an interval of its own
 * figure contained 0 (the issue: a flag never fires while its interval reaches inside its margin). A coverage row pools the family's subjects (the share of all its intervals that
 * covered) and gives a conservative interval (Wilson on the number of runs: a mean of per-run shares
 * varies no more than a binomial share over that many runs); its detail names the range over subjects
 * and the worst one's mean error (estimate − truth).
 */
export function summarizeTally(scenario: StudyScenario, tally: ScenarioTally): StudyRow[] {
  const rows: StudyRow[] = [];
  const base = { scenario: scenario.name, runs: tally.runs, sessions: scenario.sessions };
  const targets = scenario.targets ?? {};
  const rateRow = (spec: {
    metric: string;
    successes: number;
    trials: number;
    target?: StudyTarget;
    detail?: string;
  }): void => {
    const rate = spec.trials > 0 ? spec.successes / spec.trials : 0;
    const { lower, upper } = wilsonInterval(spec.successes, spec.trials);
    rows.push({
      ...base,
      metric: spec.metric,
      rate,
      lower,
      upper,
      target: targetLabel(spec.target),
      verdict: verdictOf({ rate, lower, upper, target: spec.target }),
      detail: spec.detail ?? '',
    });
  };
  const planted = (scenario.plants?.flags ?? plantedFlags(scenario.simulation)).map(flagKey);
  if (planted.length === 0) {
    rateRow({
      metric: 'any flag',
      successes: tally.anyFlag,
      trials: tally.runs,
      ...(targets.anyFlag ? { target: targets.anyFlag } : {}),
    });
  } else {
    rateRow({
      metric: 'exactly the planted flags',
      successes: tally.exactlyPlanted,
      trials: tally.runs,
      detail: planted.join(', '),
      ...(targets.exactlyPlanted ? { target: targets.exactlyPlanted } : {}),
    });
    rateRow({
      metric: 'any other flag',
      successes: tally.anyOtherFlag,
      trials: tally.runs,
      ...(targets.anyOtherFlag ? { target: targets.anyOtherFlag } : {}),
    });
    for (const key of planted) {
      const target = targets.detected?.[key];
      rateRow({
        metric: `detected ${key}`,
        successes: tally.detected[key] ?? 0,
        trials: tally.runs,
        ...(target ? { target } : {}),
      });
    }
  }
  const falseCodes = [...new Set([...Object.keys(tally.falseFlags), ...Object.keys(targets.falseFlags ?? {})])].sort();
  for (const code of falseCodes) {
    const target = targets.falseFlags?.[code];
    rateRow({
      metric: `${code} where none planted`,
      successes: tally.falseFlags[code] ?? 0,
      trials: tally.runs,
      ...(target ? { target } : {}),
    });
  }
  for (const key of Object.keys(tally.falseFlagsByKind ?? {}).sort()) {
    rateRow({
      metric: `${key} (not planted)`,
      successes: tally.falseFlagsByKind![key]!,
      trials: tally.runs,
      ...((targets.anyOtherFlag ?? targets.anyFlag) ? { target: (targets.anyOtherFlag ?? targets.anyFlag)! } : {}),
    });
  }
  const conflicts = Object.entries(tally.flagIntervalConflicts.byCode)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, runs]) => `${code} ${runs}`)
    .join(', ');
  rateRow({
    metric: 'a flag whose own 95% interval contains 0',
    successes: tally.flagIntervalConflicts.runs,
    trials: tally.runs,
    target: { max: 0 },
    detail: conflicts,
  });
  if (targets.betweenSession !== undefined) {
    const detail =
      tally.betweenSession.reported === 0
        ? 'not reported by this estimator'
        : `reported in ${tally.betweenSession.reported} runs`;
    rateRow({
      metric: 'between-session length figure excludes 0',
      successes: tally.betweenSession.excludesZero,
      trials: tally.runs,
      target: targets.betweenSession,
      detail,
    });
  }
  const coverageTarget = targets.coverage === null ? undefined : (targets.coverage ?? DEFAULT_COVERAGE_TARGET);
  for (const key of Object.keys(tally.coverage).sort()) {
    const family = tally.coverage[key]!;
    const subjects = Object.entries(family.subjects).map(([subject, c]) => ({
      subject,
      rate: c.covered / c.intervals,
      error: c.errorSum / c.intervals,
      ...c,
    }));
    const covered = subjects.reduce((s, c) => s + c.covered, 0);
    const intervals = subjects.reduce((s, c) => s + c.intervals, 0);
    const rate = covered / intervals;
    const { lower, upper } = wilsonInterval(rate * family.runs, family.runs);
    const worst = subjects.reduce((w, c) => (Math.abs(c.rate - 0.95) > Math.abs(w.rate - 0.95) ? c : w));
    const missing = subjects.filter((c) => c.intervals < tally.runs).length;
    const detail =
      subjects.length === 1
        ? `mean error ${signed(worst.error)}${worst.intervals < tally.runs ? `; in ${worst.intervals} runs` : ''}`
        : `${subjects.length} subjects ${percent(Math.min(...subjects.map((c) => c.rate)))}–${percent(Math.max(...subjects.map((c) => c.rate)))}; worst ${worst.subject}: ${percent(worst.rate)}, mean error ${signed(worst.error)}${missing > 0 ? `; ${missing} subject(s) not in every run` : ''}`;
    rows.push({
      ...base,
      metric: `coverage ${key}`,
      rate,
      lower,
      upper,
      target: targetLabel(coverageTarget),
      verdict: verdictOf({ rate, lower, upper, target: coverageTarget }),
      detail,
    });
  }
  return rows;
}
