import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { kendallW } from './kendall-w.js';
import { ScoringError } from './scoring-error.js';

describe('kendallW', () => {
  it('computes W, χ² and p for a hand-worked example without ties', () => {
    // m = 3 raters, n = 3 candidates. Ranks: A 1, 1, 2 → R = 4; B 2, 3, 1 → 6; C 3, 2, 3 → 8.
    // Mean R = m(n + 1)/2 = 6; S = 4 + 0 + 4 = 8; W = 12 S / (m²(n³ − n)) = 96 / (9 · 24) = 4/9.
    // χ² = m(n − 1)W = 3 · 2 · 4/9 = 8/3, df 2, p = exp(−χ²/2) = exp(−4/3) = 0.263597…
    const result = kendallW([
      { reviewer: 'x', ranking: ['A', 'B', 'C'] },
      { reviewer: 'y', ranking: ['A', 'C', 'B'] },
      { reviewer: 'z', ranking: ['B', 'A', 'C'] },
    ]);
    expect(result.w).toBeCloseTo(4 / 9, 12);
    expect(result.chiSquare).toBeCloseTo(8 / 3, 12);
    expect(result.degreesOfFreedom).toBe(2);
    expect(result.pValue).toBeCloseTo(Math.exp(-4 / 3), 12);
    expect([result.raters, result.candidates]).toEqual([3, 3]);
  });

  it('applies the tie correction to unranked candidates and equal scores (hand-worked)', () => {
    // n = 4 (A–D), m = 3.
    //   x: [A, B, C, D]                 → ranks A 1, B 2, C 3, D 4                 T = 0
    //   y: [B, A] (C, D unranked)       → B 1, A 2, C 3.5, D 3.5 (mean of 3, 4)     T = 2³ − 2 = 6
    //   z: scores A 9, B 9, C 5, D 1    → A 1.5, B 1.5, C 3, D 4                    T = 6
    // R: A 4.5, B 4.5, C 9.5, D 11.5; mean R = m(n + 1)/2 = 7.5.
    // S = 9 + 9 + 4 + 16 = 38. W = 12 · 38 / (9 · 60 − 3 · 12) = 456 / 504 = 19/21.
    // χ² = 3 · 3 · 19/21 = 57/7 = 8.142857, df 3. For df 3, P(χ² > x) = erfc(√(x/2)) + √(2x/π)·e^(−x/2):
    //   √(x/2) = 2.017778; erfc(2) = 0.0046777 (A&S table 7.1), Taylor step −0.017778 · (2/√π)e^(−4) = −0.0003674,
    //   curvature +0.0000131 → erfc ≈ 0.0043234;  √(2x/π) = √5.18391 = 2.27682, e^(−4.0714286) = 0.0170530 → 0.038826.
    //   p ≈ 0.043150.
    const result = kendallW([
      { reviewer: 'x', ranking: ['A', 'B', 'C', 'D'] },
      { reviewer: 'y', ranking: ['B', 'A'] },
      { reviewer: 'z', ranking: [], scores: { A: 9, B: 9, C: 5, D: 1 } },
    ]);
    expect(result.w).toBeCloseTo(19 / 21, 12);
    expect(result.chiSquare).toBeCloseTo(57 / 7, 12);
    expect(result.pValue).toBeCloseTo(0.04315, 4);
  });

  it('is 1 for identical rankings and 0 for perfectly balanced disagreement', () => {
    const same: Ballot[] = ['x', 'y', 'z'].map((r) => ({ reviewer: r, ranking: ['C', 'A', 'B', 'D'] }));
    expect(kendallW(same).w).toBe(1);
    // Two raters in exactly opposite order: every R = n + 1, S = 0, W = 0, p = 1.
    const opposite = kendallW([
      { reviewer: 'x', ranking: ['A', 'B', 'C'] },
      { reviewer: 'y', ranking: ['C', 'B', 'A'] },
    ]);
    expect(opposite.w).toBe(0);
    expect(opposite.pValue).toBe(1);
  });

  it('keeps self-votes (W needs every cell), skips abstentions and ballots that rank nothing, ignores weights', () => {
    const base: Ballot[] = [
      { reviewer: 'A', ranking: ['A', 'B', 'C'] },
      { reviewer: 'B', ranking: ['A', 'C', 'B'] },
      { reviewer: 'C', ranking: ['B', 'A', 'C'] },
    ];
    const w = kendallW(base).w;
    expect(w).toBeCloseTo(4 / 9, 12); // the same ranks as the first example: self-votes are not removed
    const noisy = [
      ...base,
      { reviewer: 'D', ranking: ['C', 'B', 'A'], abstained: true },
      { reviewer: 'E', ranking: [] },
    ];
    expect(kendallW(noisy).w).toBeCloseTo(w, 12);
    expect(kendallW(base.map((b) => ({ ...b, weight: 0 }))).w).toBeCloseTo(w, 12);
  });

  it('throws INSUFFICIENT_DATA instead of returning NaN', () => {
    const code = (ballots: Ballot[], candidates?: string[]): string => {
      try {
        kendallW(ballots, candidates ? { candidates } : {});
      } catch (error) {
        if (ScoringError.isInstance(error)) return error.code;
        throw error;
      }
      return 'none';
    };
    expect(code([{ reviewer: 'x', ranking: ['A', 'B'] }])).toBe('INSUFFICIENT_DATA'); // one rater
    expect(
      code(
        [
          { reviewer: 'x', ranking: ['A'] },
          { reviewer: 'y', ranking: ['A'] },
        ],
        ['A'],
      ),
    ).toBe('INSUFFICIENT_DATA'); // one candidate
    // Every ballot ties everything: two raters each scoring A and B equally.
    expect(
      code([
        { reviewer: 'x', ranking: [], scores: { A: 1, B: 1 } },
        { reviewer: 'y', ranking: [], scores: { A: 2, B: 2 } },
      ]),
    ).toBe('INSUFFICIENT_DATA');
  });
});
