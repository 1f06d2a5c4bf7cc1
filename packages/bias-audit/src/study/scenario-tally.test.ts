import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import { simulateCouncils } from '../internal/simulate-councils.js';
import { aggregateEstimator } from './aggregate-estimator.js';
import { mergeTallies, tallyScenario } from './scenario-tally.js';
import type { StudyEstimator, StudyReport } from './study-estimator.js';
import type { StudyScenario } from './study-scenario.js';
import { summarizeTally } from './summarize-tally.js';
import { wilsonInterval } from '../wilson-interval.js';

// A scenario planting a length slope of 0.4 and model-0 1 point harsh (median offset 0), read by an
// estimator that returns a scripted report per run: the counts below follow from the script by hand.
const scenario: StudyScenario = {
  name: 'scripted',
  description: 'scripted reports',
  sessions: 3,
  runs: 4,
  seed: 100,
  simulation: { models: 5, reviewers: 5, selfReview: false, lengthSlopePer1000Chars: 0.4, reviewerOffsets: [-1] },
  targets: { exactlyPlanted: { min: 0.95 }, anyOtherFlag: { max: 0.5 } },
};

const length = { code: 'LENGTH_BIAS_DETECTED', subject: null };
const harsh = { code: 'HARSH_REVIEWER', subject: 'model-0' };
const slope = (lower: number, upper: number) => ({
  estimand: 'length_slope' as const,
  subject: null,
  interval: 't',
  estimate: (lower + upper) / 2,
  lower,
  upper,
});
const script: StudyReport[] = [
  // Exactly the planted flags; the slope interval covers 0.4; the between-session figure excludes 0.
  {
    flags: [length, harsh],
    estimates: [
      slope(0.3, 0.5),
      { estimand: 'length_between_sessions', subject: null, interval: 't', estimate: 0.3, lower: 0.1, upper: 0.5 },
    ],
  },
  // The planted flags, two false GENEROUS flags (one run, one code) and a false ANCHORING flag whose
  // interval contains 0; model-1's offset interval misses its truth 0.
  {
    flags: [
      length,
      harsh,
      { code: 'GENEROUS_REVIEWER', subject: 'model-1' },
      { code: 'GENEROUS_REVIEWER', subject: 'model-2' },
      { ...length },
      { code: 'ANCHORING', subject: null },
    ],
    estimates: [
      { estimand: 'anchoring', subject: null, interval: 't', estimate: 0.05, lower: -0.1, upper: 0.2 },
      slope(0.3, 0.5),
      { estimand: 'reviewer_offset', subject: 'model-1', interval: 't', estimate: 0.3, lower: 0.1, upper: 0.5 },
      { estimand: 'reviewer_offset', subject: 'model-0', interval: 't', estimate: -1, lower: -1.2, upper: -0.8 },
      { estimand: 'length_between_sessions', subject: null, interval: 't', estimate: 0.05, lower: -0.1, upper: 0.2 },
    ],
  },
  // Length only: not exact, nothing false; the slope interval misses (estimate 0.55).
  {
    flags: [length],
    estimates: [
      slope(0.5, 0.6),
      { estimand: 'self_preference', subject: 'model-0', interval: 't', estimate: 0, lower: -1, upper: 1 },
    ],
  },
  // Nothing at all.
  { flags: [], estimates: [] },
];
const scripted: StudyEstimator = {
  name: 'scripted',
  run: (_observations, options) => script[options.seed - scenario.seed]!,
};

describe('tallyScenario', () => {
  const tally = tallyScenario({ scenario, estimator: scripted });

  it('counts exactly-planted, other, any and per-flag runs', () => {
    expect(tally.runs).toBe(4);
    expect(tally.exactlyPlanted).toBe(1);
    expect(tally.anyOtherFlag).toBe(1);
    expect(tally.anyFlag).toBe(3);
    expect(tally.detected).toEqual({ LENGTH_BIAS_DETECTED: 3, 'HARSH_REVIEWER(model-0)': 2 });
    expect(tally.falseFlags).toEqual({ GENEROUS_REVIEWER: 1, ANCHORING: 1 });
    expect(tally.betweenSession).toEqual({ reported: 2, excludesZero: 1 });
    // Only ANCHORING fired with its own interval around 0 (HARSH's excludes 0, LENGTH had no interval of its own).
    expect(tally.flagIntervalConflicts).toEqual({ runs: 1, byCode: { ANCHORING: 1 } });
  });

  it('scores intervals against the planted truth and skips those without one', () => {
    expect(tally.coverage['length_slope t']).toEqual({
      runs: 3,
      subjects: { '—': { covered: 2, intervals: 3, errorSum: expect.closeTo(0.15, 12) as number } },
    });
    expect(tally.coverage['reviewer_offset t']!.subjects).toEqual({
      'model-1': { covered: 0, intervals: 1, errorSum: expect.closeTo(0.3, 12) as number },
      'model-0': { covered: 1, intervals: 1, errorSum: 0 },
    });
    // No self-review, so self-preference has no truth; the between-session figure's truth (0) is covered once.
    expect(tally.coverage['self_preference t']).toBeUndefined();
    expect(tally.coverage['length_between_sessions t']!.subjects['—']).toEqual({
      covered: 1,
      intervals: 2,
      errorSum: expect.closeTo(0.35, 12) as number,
    });
  });

  it('adds up over disjoint ranges of runs to the same tally', () => {
    const merged = mergeTallies(
      tallyScenario({ scenario, estimator: scripted, runs: 2 }),
      tallyScenario({ scenario, estimator: scripted, firstRun: 2, runs: 2 }),
    );
    expect(merged).toEqual(tally);
  });

  it('turns the tally into rows with Wilson intervals, targets and verdicts', () => {
    const rows = summarizeTally(scenario, tally);
    const row = (metric: string) => rows.find((r) => r.metric === metric)!;
    const exact = row('exactly the planted flags');
    expect(exact).toMatchObject({
      rate: 0.25,
      ...wilsonInterval(1, 4),
      target: '≥ 95%',
      verdict: 'FAIL',
      detail: 'LENGTH_BIAS_DETECTED, HARSH_REVIEWER(model-0)',
    });
    // 1/4 meets "≤ 50%", but its interval (0.046–0.70) reaches past 50%: pass, undecided.
    expect(row('any other flag')).toMatchObject({ rate: 0.25, target: '≤ 50%', verdict: 'pass?' });
    expect(row('detected LENGTH_BIAS_DETECTED').rate).toBe(0.75);
    expect(row('GENEROUS_REVIEWER where none planted').rate).toBe(0.25);
    // Against "0%" one such run is a certain failure: the interval's lower end (0.046) is above 0.
    expect(row('a flag whose own 95% interval contains 0')).toMatchObject({
      rate: 0.25,
      target: '0%',
      verdict: 'FAIL',
      detail: 'ANCHORING 1',
    });
    expect(row('coverage length_slope t')).toMatchObject({ rate: 2 / 3, target: '93.5–96.5%', verdict: 'FAIL?' });
    expect(row('coverage reviewer_offset t')).toMatchObject({
      rate: 0.5,
      detail: expect.stringContaining('worst model-1: 0.0%') as string,
    });
  });
});

describe('tallyScenario with today’s estimator', () => {
  it('counts what a direct reading of the same reports finds (3 runs of one harsh reviewer, 30 sessions)', () => {
    const harshOnly: StudyScenario = {
      name: 'harsh-small',
      description: 'one harsh reviewer',
      sessions: 30,
      runs: 3,
      seed: 7_000,
      simulation: { models: 5, reviewers: 5, reviewerNoise: 0.8, selfReview: false, reviewerOffsets: [-1.2] },
    };
    const resamples = 100;
    const tally = tallyScenario({ scenario: harshOnly, estimator: aggregateEstimator, resamples });
    let generous = 0;
    let harshFlagged = 0;
    let othersCovered = 0;
    for (let run = 0; run < 3; run++) {
      const seed = harshOnly.seed + run;
      const report = aggregateBiasAudit(simulateCouncils({ ...harshOnly.simulation, sessions: 30, seed }), {
        window: { now: '2100-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY },
        minSessions: 10,
        seed,
        resamples,
      });
      if (report.flags.some((f) => f.code === 'GENEROUS_REVIEWER')) generous++;
      if (report.flags.some((f) => f.code === 'HARSH_REVIEWER' && f.subject === 'model-0')) harshFlagged++;
      for (const r of report.reviewers)
        if (r.reviewer !== 'model-0' && r.offset.ciLower! <= 0 && 0 <= r.offset.ciUpper!) othersCovered++;
    }
    expect(tally.falseFlags['GENEROUS_REVIEWER'] ?? 0).toBe(generous);
    expect(tally.detected['HARSH_REVIEWER(model-0)'] ?? 0).toBe(harshFlagged);
    const offsets = tally.coverage['reviewer_offset cluster_cr1_t']!.subjects;
    expect(['model-1', 'model-2', 'model-3', 'model-4'].reduce((s, r) => s + offsets[r]!.covered, 0)).toBe(
      othersCovered,
    );
  });
});
