import { describe, expect, it } from 'vitest';
import { flagKey } from './flag-key.js';
import { impliedLengthCorrelation } from './implied-length-correlation.js';
import { plantedFlags } from './planted-flags.js';
import { plantedTruth, positionTruths } from './planted-truth.js';
import type { StudySimulation } from './study-simulation.js';
import { ISSUE_13_SCENARIOS } from './study-scenarios.js';

const council: StudySimulation = {
  models: 5,
  reviewers: 5,
  reviewerNoise: 0.8,
  selfReview: false,
  lengthChars: { mean: 3000, sd: 1000 },
};

describe('plantedTruth', () => {
  it('centres position effects over the positions a reviewer is shown', () => {
    // Without self-review a reviewer sees 4 answers: 0, −0.25, −0.5, −0.75 around their mean −0.375.
    const primacy = plantedTruth({ ...council, primacyPerPosition: 0.25 });
    expect([0, 1, 2, 3].map((p) => primacy('position_effect', String(p)))).toEqual([0.375, 0.125, -0.125, -0.375]);
    expect(primacy('position_effect', '4')).toBeNull();
    expect(primacy('primacy', null)).toBe(0.375);
    expect(primacy('recency', null)).toBe(-0.375);
    // With self-review, 5 positions: 0.4, 0, −0.2, 0, 0.3 around their mean 0.1.
    const shape = positionTruths({ ...council, selfReview: true, positionEffects: [0.4, 0, -0.2, 0, 0.3] });
    [0.3, -0.1, -0.3, -0.1, 0.2].forEach((t, p) => expect(shape[p]).toBeCloseTo(t, 12));
    // Non-member reviewers see all 4 answers of a 4-member council, members 3: position 3 is only theirs.
    const mixed = positionTruths({ models: 4, reviewers: 6, selfReview: false, positionEffects: [0.8, 0, 0, 0] });
    expect(mixed[3]).toBeCloseTo(-0.2, 12);
    expect(mixed[0]).toBeCloseTo((4 * (0.8 - 0.8 / 3) + 2 * (0.8 - 0.2)) / 6, 12);
  });

  it("measures reviewer offsets from the median reviewer's", () => {
    const truth = plantedTruth({ ...council, reviewerOffsets: [-1, 1, 2, 0.5, 0.5] });
    expect(['model-0', 'model-1', 'model-2', 'model-3', 'model-4'].map((r) => truth('reviewer_offset', r))).toEqual([
      -1.5, 0.5, 1.5, 0, 0,
    ]);
    expect(truth('reviewer_offset', 'model-5')).toBeNull();
    const harsh = plantedTruth({ ...council, reviewerOffsets: [-1.2] });
    expect(harsh('reviewer_offset', 'model-0')).toBe(-1.2);
    expect(harsh('reviewer_offset', 'model-3')).toBe(0);
    expect(harsh('affinity', 'model-3→model-0')).toBe(0);
    expect(harsh('affinity', 'model-3→model-3')).toBeNull();
    expect(harsh('self_preference', 'model-3')).toBeNull();
    expect(plantedTruth({ ...council, selfReview: true, selfPreference: [0, 0.7] })('self_preference', 'model-1')).toBe(
      0.7,
    );
  });

  it('gives the length slope within and between sessions in points per 1,000 characters', () => {
    const truth = plantedTruth({ ...council, lengthSlopePer1000Chars: 0.4, lengthCorrelation: 0.3 });
    // 0.4 planted directly, and ρ = 0.3 per SD of length (1,000 characters).
    expect(truth('length_slope', null)).toBeCloseTo(0.7, 12);
    const confound = plantedTruth({
      ...council,
      lengthCorrelation: 0.3,
      lengthChars: { mean: 4000, sd: 1000, betweenSessionSd: 1000 },
      betweenSessionSlopePer1000Chars: 1,
    });
    // 1 + 0.3 · (1000²/5) / (1000² + 1000²/5) = 1 + 0.3/6.
    expect(confound('length_between_sessions', null)).toBeCloseTo(1.05, 12);
    expect(plantedTruth(council)('length_between_sessions', null)).toBe(0);
  });

  it('knows the length correlation exactly where the knobs give it, and simulates it otherwise', () => {
    expect(plantedTruth({ ...council, lengthCorrelationJitter: 0.5 })('length_correlation', null)).toBe(0);
    expect(plantedTruth({ ...council, selfReview: true, lengthCorrelation: 0.3 })('length_correlation', null)).toBe(
      0.3,
    );
    // By hand: with self-review each answer's mean over 5 reviewers is quality (variance 1 − 0.64/5)
    // + 0.4 · length/1000 (variance 0.16) + noise (variance 0.64/5): r = 0.4/√1.16 = 0.3714.
    const slope = { ...council, selfReview: true, lengthSlopePer1000Chars: 0.4 };
    expect(Math.abs(impliedLengthCorrelation(slope, { sessions: 12_000 }) - 0.4 / Math.sqrt(1.16))).toBeLessThan(0.018);
    // And the simulated truth of a pure correlation knob is that correlation. 12,000 sessions of 5 answers:
    // SE ≈ (1 − r²)/√48,000 ≈ 0.004.
    expect(
      Math.abs(
        impliedLengthCorrelation({ ...council, selfReview: true, lengthCorrelation: 0.3 }, { sessions: 12_000 }) - 0.3,
      ),
    ).toBeLessThan(0.018);
    // Two simulations of 12,000 sessions: about 1.5 s alone, 7 s on a busy 2-core machine.
  }, 60_000);

  it('leaves rank effects and anchoring unjudged when positions carry an effect', () => {
    const truth = plantedTruth({ ...council, primacyPerPosition: 0.25 });
    expect(truth('rank_position_effect', '0')).toBeNull();
    expect(truth('anchoring', null)).toBeNull();
    expect(plantedTruth(council)('anchoring', null)).toBe(0);
    expect(plantedTruth(council)('trend_slope', 'position_spread')).toBe(0);
  });
});

describe('plantedFlags', () => {
  const flagsOf = (name: string): string[] =>
    plantedFlags(ISSUE_13_SCENARIOS.find((s) => s.name === name)!.simulation).map(flagKey);

  it("are the issue's three effects in the planted scenarios, the harsh reviewer alone, and nothing in the others", () => {
    expect(flagsOf('planted-300')).toEqual([
      'LENGTH_BIAS_DETECTED',
      'POSITION_BIAS_DETECTED',
      'HARSH_REVIEWER(model-0)',
    ]);
    expect(flagsOf('harsh-only-50')).toEqual(['HARSH_REVIEWER(model-0)']);
    expect(flagsOf('length-power-50')).toEqual(['LENGTH_BIAS_DETECTED']);
    for (const name of ['null-20', 'null-50-self-rounded', 'heterogeneous-length-50', 'between-session-confound-50'])
      expect(flagsOf(name)).toEqual([]);
  });

  it('name self-preference and affinity subjects as the report does', () => {
    const flags = plantedFlags({
      ...council,
      selfReview: true,
      selfPreference: [0.5, 0, -0.3],
      affinity: [{ reviewer: 2, candidate: 4, points: 0.6 }],
    });
    expect(flags.map(flagKey)).toEqual(['SELF_PREFERENCE(model-0)', 'REVIEWER_AFFINITY(model-2→model-4)']);
  });
});
