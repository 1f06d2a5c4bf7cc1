import { fnv1a } from '@council/scoring';
import { describe, expect, it } from 'vitest';
import type { BiasObservation } from '../bias-observation.js';
import { simulateCouncils } from './simulate-councils.js';
import type { CouncilSimulation } from './simulate-councils.js';

// The simulation plants what its doc comment says. Each effect is measured here from the observations
// alone, by the plainest estimator of it, over enough sessions that the tolerance is ≥ 4 standard errors.

const council: Omit<CouncilSimulation, 'seed' | 'sessions'> = {
  models: 5,
  reviewers: 5,
  reviewerNoise: 0.8,
  selfReview: false,
  lengthChars: { mean: 3000, sd: 1000 },
};

const bySession = (observations: readonly BiasObservation[]): BiasObservation[][] => {
  const sessions = new Map<string, BiasObservation[]>();
  for (const o of observations) sessions.set(o.sessionId, [...(sessions.get(o.sessionId) ?? []), o]);
  return [...sessions.values()];
};

const average = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

/** Mean over answers of (reviewer's score − mean of the other reviewers' scores on the same answer), optionally for one candidate. */
function withinAnswerDifference(
  observations: readonly BiasObservation[],
  spec: { reviewer: string; candidate?: string },
): number {
  const differences: number[] = [];
  for (const session of bySession(observations)) {
    for (const mine of session.filter(
      (o) => o.reviewer === spec.reviewer && (spec.candidate === undefined || o.candidate === spec.candidate),
    )) {
      const others = session
        .filter((o) => o.candidate === mine.candidate && o.reviewer !== spec.reviewer)
        .map((o) => o.score!);
      differences.push(mine.score! - average(others));
    }
  }
  return average(differences);
}

/** Per session, each answer's length (in 1,000s of characters) and mean score. */
function answers(observations: readonly BiasObservation[]): { x: number[]; y: number[] }[] {
  return bySession(observations).map((session) => {
    const candidates = [...new Set(session.map((o) => o.candidate))];
    return {
      x: candidates.map((c) => session.find((o) => o.candidate === c)!.responseLengthChars / 1000),
      y: candidates.map((c) => average(session.filter((o) => o.candidate === c).map((o) => o.score!))),
    };
  });
}

/** Least-squares slope of y on x with each session centred on its own means. */
function withinSessionSlope(observations: readonly BiasObservation[]): number {
  let sxy = 0;
  let sxx = 0;
  for (const { x, y } of answers(observations)) {
    const mx = average(x);
    const my = average(y);
    x.forEach((xi, i) => {
      sxy += (xi - mx) * (y[i]! - my);
      sxx += (xi - mx) ** 2;
    });
  }
  return sxy / sxx;
}

/** The digest of a council: FNV-1a of its JSON (ASCII, so its UTF-8 bytes are its characters), in hex. */
const digest = (text: string): string => fnv1a(text).toString(16).padStart(8, '0');

describe('simulateCouncils', () => {
  it("gives the first version's callers the very same councils (digests taken from that version before the knobs were added)", () => {
    expect(digest(JSON.stringify(simulateCouncils({ sessions: 30, seed: 7 })))).toBe('18d0da74');
    const shared = {
      sessions: 30,
      seed: 8,
      lengthCorrelation: 0.3,
      positionEffects: [0.4, 0, -0.2, 0, 0.3],
      reviewerNoise: 0.7,
      sharedOrder: true,
    };
    expect(digest(JSON.stringify(simulateCouncils(shared)))).toBe('493ab1e2');
    expect(
      digest(
        JSON.stringify(simulateCouncils({ sessions: 20, seed: 9, models: 4, reviewers: 6, lengthCorrelation: -0.2 })),
      ),
    ).toBe('c4ecb1d1');
  });

  it('plants a reviewer offset: the harsh reviewer scores an answer 1.2 points below the others (400 sessions)', () => {
    const observations = simulateCouncils({ ...council, sessions: 400, seed: 11, reviewerOffsets: [-1.2] });
    // Per answer the difference has variance 0.64·(1 + 1/3); over 1,600 answers the SE is 0.023.
    expect(withinAnswerDifference(observations, { reviewer: 'model-0' })).toBeCloseTo(-1.2, 1);
    // Another reviewer differs from the rest by its share of the harsh one: 0 − (−1.2)/3 on the three answers where model-0 is among the others.
    expect(withinAnswerDifference(observations, { reviewer: 'model-1' })).toBeCloseTo((3 / 4) * (1.2 / 3), 1);
  });

  it('plants self-preference (with self-review) and an affinity', () => {
    const self = simulateCouncils({ ...council, selfReview: true, sessions: 400, seed: 12, selfPreference: 0.5 });
    const own = (r: number): number =>
      withinAnswerDifference(self, { reviewer: `model-${r}`, candidate: `model-${r}` });
    // Others' mean on a reviewer's own answer carries no self-preference; SE ≈ 0.02 over 5 × 400 answers.
    expect(average([0, 1, 2, 3, 4].map(own))).toBeCloseTo(0.5, 1);
    const affine = simulateCouncils({
      ...council,
      sessions: 400,
      seed: 13,
      affinity: [{ reviewer: 0, candidate: 1, points: 0.8 }],
    });
    // 400 answers, SE ≈ 0.046.
    expect(Math.abs(withinAnswerDifference(affine, { reviewer: 'model-0', candidate: 'model-1' }) - 0.8)).toBeLessThan(
      0.2,
    );
    expect(Math.abs(withinAnswerDifference(affine, { reviewer: 'model-0', candidate: 'model-2' }))).toBeLessThan(0.2);
  });

  it('without self-review shows each reviewer the four other answers at positions 0–3', () => {
    const observations = simulateCouncils({ ...council, sessions: 20, seed: 14 });
    expect(observations.some((o) => o.reviewer === o.candidate)).toBe(false);
    for (const session of bySession(observations)) {
      for (let r = 0; r < 5; r++) {
        const block = session.filter((o) => o.reviewer === `model-${r}`);
        expect(block.map((o) => o.position).sort()).toEqual([0, 1, 2, 3]);
        expect(block.map((o) => o.rankPosition).sort()).toEqual([0, 1, 2, 3]);
      }
    }
  });

  it('with a shared order and no self-review, every reviewer sees the answers in the same relative order', () => {
    const observations = simulateCouncils({ ...council, sessions: 20, seed: 15, sharedOrder: true });
    for (const session of bySession(observations)) {
      const orders = [0, 1, 2, 3, 4].map((r) =>
        session
          .filter((o) => o.reviewer === `model-${r}`)
          .sort((a, b) => a.position - b.position)
          .map((o) => o.candidate),
      );
      // Whenever two reviewers both saw answers a and b, they saw them in the same order.
      const before = new Map<string, boolean>();
      for (const order of orders) {
        order.forEach((a, i) =>
          order.forEach((b, j) => {
            if (a === b) return;
            const key = `${a} ${b}`;
            if (before.has(key)) expect(before.get(key)).toBe(i < j);
            else before.set(key, i < j);
          }),
        );
      }
      expect(before.size).toBe(20);
    }
  });

  it('plants primacy: the centred score falls by 0.25 per display position', () => {
    const observations = simulateCouncils({ ...council, sessions: 400, seed: 16, primacyPerPosition: 0.25 });
    const centred: number[][] = [[], [], [], []];
    for (const session of bySession(observations)) {
      for (let r = 0; r < 5; r++) {
        const block = session.filter((o) => o.reviewer === `model-${r}`);
        const m = average(block.map((o) => o.score!));
        for (const o of block) centred[o.position]!.push(o.score! - m);
      }
    }
    // Truth: −0.25·(p − 1.5); each mean is over 2,000 centred scores with SD ≈ 1.2, SE ≈ 0.03.
    centred.forEach((values, p) => expect(Math.abs(average(values) - -0.25 * (p - 1.5))).toBeLessThan(0.12));
  });

  it('plants a within-session length slope in points per 1,000 characters', () => {
    const observations = simulateCouncils({ ...council, sessions: 400, seed: 17, lengthSlopePer1000Chars: 0.4 });
    // SE ≈ 1/√(4 · 400) = 0.025.
    expect(Math.abs(withinSessionSlope(observations) - 0.4)).toBeLessThan(0.1);
  });

  it('plants a between-session confound with no within-session slope', () => {
    const observations = simulateCouncils({
      ...council,
      sessions: 400,
      seed: 18,
      lengthChars: { mean: 4000, sd: 1000, betweenSessionSd: 1000 },
      betweenSessionSlopePer1000Chars: 1,
    });
    expect(Math.abs(withinSessionSlope(observations))).toBeLessThan(0.1);
    const sessions = answers(observations).map(({ x, y }) => ({ x: average(x), y: average(y) }));
    const mx = average(sessions.map((s) => s.x));
    const my = average(sessions.map((s) => s.y));
    const between =
      sessions.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sessions.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    // Session means have residual SD ≈ 0.45 and mean-length variance ≈ 1.2 (1,000s of characters): SE ≈ 0.02.
    expect(Math.abs(between - 1)).toBeLessThan(0.1);
  });

  it('plants heterogeneous per-session correlations of ±0.5 with mean 0', () => {
    // 40 answers a session so each session's correlation is measured to ±0.12; over 400 sessions the
    // mean of r (SD ≈ 0.51 across sessions) has SE 0.026 and the mean of |r| (SD ≈ 0.12) SE 0.006.
    const observations = simulateCouncils({
      models: 40,
      reviewers: 2,
      reviewerNoise: 0.8,
      sessions: 400,
      seed: 19,
      lengthCorrelationJitter: 0.5,
    });
    const rs = answers(observations).map(({ x, y }) => {
      const mx = average(x);
      const my = average(y);
      const sxy = x.reduce((s, xi, i) => s + (xi - mx) * (y[i]! - my), 0);
      return sxy / Math.sqrt(x.reduce((s, xi) => s + (xi - mx) ** 2, 0) * y.reduce((s, yi) => s + (yi - my) ** 2, 0));
    });
    expect(Math.abs(average(rs))).toBeLessThan(0.1);
    expect(Math.abs(average(rs.map(Math.abs)) - 0.49)).toBeLessThan(0.03);
  });

  it('rounds to the scale and clamps to it', () => {
    const integers = simulateCouncils({
      ...council,
      sessions: 50,
      seed: 20,
      scale: { min: 1, max: 10, step: 1 },
      reviewerOffsets: [4],
    });
    expect(integers.every((o) => Number.isInteger(o.score) && o.score! >= 1 && o.score! <= 10)).toBe(true);
    expect(integers.some((o) => o.score === 10)).toBe(true);
    const halves = simulateCouncils({ ...council, sessions: 50, seed: 21, scale: { min: 1, max: 10, step: 0.5 } });
    expect(halves.every((o) => Number.isInteger(o.score! * 2))).toBe(true);
    expect(halves.some((o) => !Number.isInteger(o.score))).toBe(true);
  });

  it('refuses a correlation that leaves no room for quality variance', () => {
    expect(() =>
      simulateCouncils({ ...council, sessions: 1, seed: 1, lengthCorrelation: 0.6, lengthCorrelationJitter: 0.5 }),
    ).toThrow(/length correlation/);
    expect(() => simulateCouncils({ sessions: 1, seed: 1, lengthCorrelation: 0.95 })).toThrow(/no room/);
  });
});
