import { describe, expect, it } from 'vitest';
import type { BiasObservation } from '../bias-observation.js';
import type { ScenarioPlants } from './scenario-plants.js';
import { tallyScenario } from './scenario-tally.js';
import type { StudyEstimator, StudyReport } from './study-estimator.js';
import type { StudyScenario } from './study-scenario.js';
import { summarizeTally } from './summarize-tally.js';

// A scenario with its own plants (one harsh reviewer, model-0 at −1) read by an estimator that returns a
// scripted report per run: its own generator is used, its flags and truths judge the reports, and false
// flags are also counted per kind of subject. The counts follow from the script by hand.
const simulated: number[] = [];
const plants: ScenarioPlants = {
  simulate: ({ seed }) => {
    simulated.push(seed);
    return [] as BiasObservation[];
  },
  flags: [{ code: 'HARSH_REVIEWER', subject: 'model-0' }],
  truth: (estimand, subject) => (estimand === 'reviewer_offset' ? (subject === 'model-0' ? -1 : 0) : null),
  kindOf: (subject) => (subject === 'model-0' ? 'harsh reviewer' : subject === null ? 'the council' : 'fair reviewer'),
};
const scenario: StudyScenario = {
  name: 'scripted-plants',
  description: 'scripted reports, own plants',
  sessions: 7,
  runs: 3,
  seed: 500,
  // Plants nothing by itself: every flag and truth below comes from `plants`.
  simulation: {},
  plants,
  targets: { anyOtherFlag: { max: 0.05 } },
};

const harsh = { code: 'HARSH_REVIEWER', subject: 'model-0' };
const offset = (subject: string, lower: number, upper: number) => ({
  estimand: 'reviewer_offset' as const,
  subject,
  interval: 't',
  estimate: (lower + upper) / 2,
  lower,
  upper,
});
const script: StudyReport[] = [
  // Exactly the planted flag; model-0's interval covers −1.
  { flags: [harsh], estimates: [offset('model-0', -1.2, -0.8)] },
  // Two fair reviewers flagged GENEROUS (one run for that kind) and a council-wide ANCHORING; model-1 misses 0.
  {
    flags: [
      harsh,
      { code: 'GENEROUS_REVIEWER', subject: 'model-1' },
      { code: 'GENEROUS_REVIEWER', subject: 'model-2' },
      { code: 'ANCHORING', subject: null },
    ],
    estimates: [
      offset('model-0', -1.2, -0.8),
      offset('model-1', 0.1, 0.5),
      { ...offset('x', 0, 1), estimand: 'anchoring' },
    ],
  },
  // The harsh reviewer flagged GENEROUS instead; its interval misses −1.
  { flags: [{ code: 'GENEROUS_REVIEWER', subject: 'model-0' }], estimates: [offset('model-0', 0.1, 0.3)] },
];
const estimator: StudyEstimator = { name: 'scripted', run: (_, { seed }) => script[seed - scenario.seed]! };

describe('tallyScenario and summarizeTally with a scenario’s own plants', () => {
  const tally = tallyScenario({ scenario, estimator });

  it('simulates with the scenario’s generator, run i at seed + i', () => {
    expect(simulated).toEqual([500, 501, 502]);
  });

  it('judges flags by the plants and counts false flags per kind of subject', () => {
    expect(tally.exactlyPlanted).toBe(1);
    expect(tally.anyOtherFlag).toBe(2);
    expect(tally.detected).toEqual({ 'HARSH_REVIEWER(model-0)': 2 });
    expect(tally.falseFlags).toEqual({ GENEROUS_REVIEWER: 2, ANCHORING: 1 });
    expect(tally.falseFlagsByKind).toEqual({
      'GENEROUS_REVIEWER on fair reviewer': 1,
      'ANCHORING on the council': 1,
      'GENEROUS_REVIEWER on harsh reviewer': 1,
    });
  });

  it('scores intervals by the plants’ truths only (anchoring has none here)', () => {
    expect(Object.keys(tally.coverage)).toEqual(['reviewer_offset t']);
    expect(tally.coverage['reviewer_offset t']!.subjects).toEqual({
      'model-0': { covered: 2, intervals: 3, errorSum: 0 + 0 + 1.2 },
      'model-1': { covered: 0, intervals: 1, errorSum: 0.3 },
    });
  });

  it('reports the planted flags of the plants and a row per kind, held to the false-flag target', () => {
    const rows = summarizeTally(scenario, tally);
    expect(rows[0]).toMatchObject({ metric: 'exactly the planted flags', detail: 'HARSH_REVIEWER(model-0)' });
    const row = rows.find((r) => r.metric === 'GENEROUS_REVIEWER on fair reviewer (not planted)');
    // Wilson 95% for 1 of 3: lower (1/3 + z²/6 − z·√(2/27 + z²/36)) / (1 + z²/3) ≈ 0.140 / 2.281 ≈ 0.062 > 5%: a plain FAIL.
    expect(row).toMatchObject({ rate: 1 / 3, target: '≤ 5%', verdict: 'FAIL' });
    expect(row!.lower).toBeCloseTo(0.0615, 3);
  });
});
