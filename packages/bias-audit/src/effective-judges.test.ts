import { describe, expect, it } from 'vitest';
import type { BiasObservation } from './bias-observation.js';
import { effectiveJudges } from './effective-judges.js';

/** One answer of `A` a session, scored by X, Y and Z at position 0. */
function sessions(scores: [number, number, number][]): BiasObservation[] {
  return scores.flatMap((given, s) =>
    (['X', 'Y', 'Z'] as const).map((reviewer, r) => ({
      sessionId: `s${s}`,
      timestamp: `2026-11-0${s + 1}T10:00:00Z`,
      reviewer,
      candidate: 'A',
      position: 0,
      responseLengthChars: 1000,
      score: given[r]!,
      rankPosition: null,
      configVersion: null,
      queryCategory: null,
    })),
  );
}

describe('effectiveJudges', () => {
  it('reads two reviewers that always agree as one judge (hand-worked)', () => {
    // X and Y give the same score every time; Z differs. d(X,Y) = 0, 0, 0, 0: Var 0. d(X,Z) = d(Y,Z) = −2, 2, 0, 2:
    // mean 0.5, Var = (6.25 + 2.25 + 0.25 + 2.25)/3 = 11/3. Median pair variance 11/3, so σ̂² = 11/6 and
    // ρ(X,Y) = 1 − 0 = 1, ρ(X,Z) = ρ(Y,Z) = 1 − (11/3)/(11/3) = 0. ρ̄ = 1/3; n_eff = 3/(1 + 2/3) = 1.8; the pair X, Y
    // is worth 2/(1 + 1) = 1 judge, X, Z 2.
    const judges = effectiveJudges(
      sessions([
        [5, 5, 7],
        [7, 7, 5],
        [6, 6, 6],
        [6, 6, 4],
      ]),
      { minAnswers: 2, resamples: 0 },
    );
    expect(judges.reviewers).toBe(3);
    expect(judges.errorVariance).toBeCloseTo(11 / 6, 12);
    expect(judges.meanCorrelation.estimate).toBeCloseTo(1 / 3, 12);
    expect(judges.effective.estimate).toBeCloseTo(1.8, 12);
    expect(judges.standardErrorFactor).toBeCloseTo(Math.sqrt(3 / 1.8), 12);
    const xy = judges.pairs.find((p) => p.reviewer === 'X' && p.other === 'Y')!;
    expect(xy.answers).toBe(4);
    expect(xy.correlation.estimate).toBeCloseTo(1, 12);
    expect(xy.effective.estimate).toBeCloseTo(1, 12);
    const xz = judges.pairs.find((p) => p.reviewer === 'X' && p.other === 'Z')!;
    expect(xz.effective.estimate).toBeCloseTo(2, 12);
    expect(judges.statement).toMatch(/^3 judges, 1\.8 effective/);
  });

  it('counts only pairs with minAnswers answers in common, and says when none has', () => {
    const judges = effectiveJudges(sessions([[5, 5, 7]]), { resamples: 0 });
    expect(judges.pairs).toEqual([]);
    expect(judges.statement).toMatch(/Not computable/);
  });

  it('gives an interval around the estimate from a bootstrap over sessions', () => {
    const rows: [number, number, number][] = [];
    for (let s = 0; s < 30; s++) rows.push([5 + (s % 3), 5 + (s % 3) + (s % 2), 6 + ((s * 7) % 5) - 2]);
    const judges = effectiveJudges(sessions(rows), { resamples: 300, seed: 2 });
    expect(judges.effective.lower!).toBeLessThanOrEqual(judges.effective.estimate);
    expect(judges.effective.upper!).toBeGreaterThanOrEqual(judges.effective.estimate);
    expect(judges.effective.upper!).toBeLessThanOrEqual(3);
  });
});
