import { aggregateContributions } from '../aggregate-contributions.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import type { ContributionInput } from '../contributions-report.js';
import type { ContributionPlant } from './contribution-plants.js';
import type { ComparisonMethod } from './comparison-intervals.js';
import { comparisonIntervals } from './comparison-intervals.js';
import { simulateSession } from './contribution-plants.js';
import { wilsonInterval } from '../wilson-interval.js';

/** Simulated sessions of a plant: `count` sessions from `seed`. */
export function simulateSessions(
  plant: ContributionPlant,
  options: { count: number; seed: number },
): ContributionInput[] {
  const random = createSeededSfc32(options.seed);
  const rows: ContributionInput[] = [];
  for (let index = 0; index < options.count; index++) rows.push(...simulateSession(plant, { random, index }));
  return rows;
}

/** Each member's true influence share: its mean weight over the sessions it sits in with a block, from `count` sessions. */
export function trueMeanWeights(
  plant: ContributionPlant,
  options: { count: number; seed: number },
): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  const random = createSeededSfc32(options.seed);
  for (let index = 0; index < options.count; index++) {
    for (const row of simulateSession(plant, { random, index })) {
      if (row.weight === null) continue;
      const s = sums.get(row.member) ?? { sum: 0, n: 0 };
      s.sum += row.weight;
      s.n++;
      sums.set(row.member, s);
    }
  }
  return new Map([...sums].map(([member, s]) => [member, s.sum / s.n]));
}

/** Coverage of one method over the runs of one plant and window size. */
export interface MethodTally {
  /** Member intervals computed (members with at least one session with a block). */
  intervals: number;
  covered: number;
  widthSum: number;
  /** Per member: intervals and covered, for the worst member's coverage. */
  byMember: Map<string, { intervals: number; covered: number }>;
}

export interface ContributionStudyRow {
  plant: string;
  sessions: number;
  runs: number;
  method: 'bounded-wilson' | ComparisonMethod;
  /** Pooled over members. */
  coverage: number;
  lower: number;
  upper: number;
  /** The member with the lowest coverage, and it with its interval. */
  worstMember: string;
  worstCoverage: number;
  worstLower: number;
  worstUpper: number;
  meanWidth: number;
}

function emptyTally(): MethodTally {
  return { intervals: 0, covered: 0, widthSum: 0, byMember: new Map() };
}

function count(tally: MethodTally, options: { member: string; truth: number; lower: number; upper: number }): void {
  const hit = options.lower <= options.truth && options.truth <= options.upper;
  tally.intervals++;
  tally.widthSum += options.upper - options.lower;
  if (hit) tally.covered++;
  const m = tally.byMember.get(options.member) ?? { intervals: 0, covered: 0 };
  m.intervals++;
  if (hit) m.covered++;
  tally.byMember.set(options.member, m);
}

function row(options: {
  plant: string;
  sessions: number;
  runs: number;
  method: ContributionStudyRow['method'];
  tally: MethodTally;
}): ContributionStudyRow {
  const { tally } = options;
  const pooled = wilsonInterval(tally.covered, tally.intervals);
  let worst = { member: '', rate: 2, lower: 0, upper: 0 };
  for (const [member, m] of [...tally.byMember].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const rate = m.covered / m.intervals;
    if (rate < worst.rate) worst = { member, rate, ...wilsonInterval(m.covered, m.intervals) };
  }
  return {
    plant: options.plant,
    sessions: options.sessions,
    runs: options.runs,
    method: options.method,
    coverage: tally.covered / tally.intervals,
    lower: pooled.lower,
    upper: pooled.upper,
    worstMember: worst.member,
    worstCoverage: worst.rate,
    worstLower: worst.lower,
    worstUpper: worst.upper,
    meanWidth: tally.widthSum / tally.intervals,
  };
}

/**
 * The coverage study of the influence-share interval: `runs` seeded windows of `sessions` sessions of a plant,
 * each aggregated by `aggregateContributions`; every member interval is checked against the member's true mean
 * weight (from `truth`). The intervals of `comparisonIntervals` on the same weights are tallied beside it.
 */
export function studyContributionCoverage(options: {
  plant: ContributionPlant;
  sessions: number;
  runs: number;
  truth: Map<string, number>;
  seed?: number;
}): ContributionStudyRow[] {
  const { plant, sessions, runs, truth } = options;
  const wilson = emptyTally();
  const methods = Object.keys(comparisonIntervals) as ComparisonMethod[];
  const compared = new Map(methods.map((method) => [method, emptyTally()]));
  for (let run = 0; run < runs; run++) {
    const rows = simulateSessions(plant, {
      count: sessions,
      seed: (options.seed ?? 1) * 1_000_003 + sessions * 10_007 + run,
    });
    const report = aggregateContributions(rows);
    for (const member of report.members) {
      const mw = member.meanWeight;
      if (mw.n === 0) continue;
      const value = truth.get(member.member)!;
      count(wilson, { member: member.member, truth: value, lower: mw.lower!, upper: mw.upper! });
      const weights = rows.filter((r) => r.member === member.member && r.weight !== null).map((r) => r.weight!);
      for (const method of methods)
        count(compared.get(method)!, { member: member.member, truth: value, ...comparisonIntervals[method](weights) });
    }
  }
  return [
    row({ plant: plant.name, sessions, runs, method: 'bounded-wilson', tally: wilson }),
    ...methods.map((method) => row({ plant: plant.name, sessions, runs, method, tally: compared.get(method)! })),
  ];
}
