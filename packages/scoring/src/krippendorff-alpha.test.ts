import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import { ScoringError } from './scoring-error.js';

describe('krippendorffAlpha', () => {
  it('treats the self-votes that exclusion removes as missing cells (hand-worked)', () => {
    // Members A, B, C each review all three; self-votes excluded, so each ballot ranks the other two:
    //   A: [B, C] → B 1, C 2      B: [A, C] → A 1, C 2      C: [A, B] → A 1, B 2
    // Units: A {1, 1}, B {1, 2}, C {2, 2}. Coincidences: o_11 = 2 (unit A), o_22 = 2 (unit C),
    // o_12 = o_21 = 1 (unit B). n_1 = n_2 = 3, n = 6. δ²_12 = (3 + 3 − 3)² = 9.
    // Σ o δ² = 2 · 9 = 18; Σ n_c n_k δ² = 2 · 3 · 3 · 9 = 162. α = 1 − 5 · 18/162 = 4/9.
    const ballots: Ballot[] = [
      { reviewer: 'A', ranking: ['A', 'B', 'C'] },
      { reviewer: 'B', ranking: ['A', 'B', 'C'] },
      { reviewer: 'C', ranking: ['A', 'C', 'B'] },
    ];
    const result = krippendorffAlpha(ballots);
    expect(result.alpha).toBeCloseTo(4 / 9, 12);
    expect([result.pairableUnits, result.pairableValues]).toEqual([3, 6]);
  });

  it('is 1 when every ballot agrees on the order of what it ranks, and skips abstentions', () => {
    const ballots: Ballot[] = [
      { reviewer: 'x', ranking: ['A', 'B', 'C'] },
      { reviewer: 'y', ranking: ['A', 'B', 'C'] },
      { reviewer: 'z', ranking: ['C', 'B', 'A'], abstained: true },
    ];
    expect(krippendorffAlpha(ballots).alpha).toBe(1);
  });

  it('throws INSUFFICIENT_DATA when alpha is undefined', () => {
    try {
      krippendorffAlpha([{ reviewer: 'x', ranking: ['A', 'B'] }]);
      throw new Error('expected a ScoringError');
    } catch (error) {
      expect(ScoringError.isInstance(error) && error.code).toBe('INSUFFICIENT_DATA');
    }
  });
});
