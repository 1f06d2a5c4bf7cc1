import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { detectScoreRankMismatch } from './detect-score-rank-mismatch.js';
import { ScoringError } from './scoring-error.js';

describe('detectScoreRankMismatch', () => {
  it("reports ADR-007's Issue #13 example: A ranked above B although B scored 9 to A's 7", () => {
    // Ranking [A, B, C], scores {A: 7, B: 9, C: 5}: pairs (A,B) 7 < 9 conflict; (A,C) 7 > 5 fine; (B,C) 9 > 5 fine.
    expect(detectScoreRankMismatch({ reviewer: 'X', ranking: ['A', 'B', 'C'], scores: { A: 7, B: 9, C: 5 } })).toEqual([
      { rankedHigher: 'A', rankedLower: 'B', rankedHigherScore: 7, rankedLowerScore: 9 },
    ]);
  });

  it('lists every conflicting pair in ranking order; equal scores are no conflict', () => {
    // [A, B, C] scored 1, 2, 3: (A,B), (A,C), (B,C) all conflict. D equals C: no conflict with C.
    expect(
      detectScoreRankMismatch({ reviewer: 'X', ranking: ['A', 'B', 'C', 'D'], scores: { A: 1, B: 2, C: 3, D: 3 } }),
    ).toEqual([
      { rankedHigher: 'A', rankedLower: 'B', rankedHigherScore: 1, rankedLowerScore: 2 },
      { rankedHigher: 'A', rankedLower: 'C', rankedHigherScore: 1, rankedLowerScore: 3 },
      { rankedHigher: 'A', rankedLower: 'D', rankedHigherScore: 1, rankedLowerScore: 3 },
      { rankedHigher: 'B', rankedLower: 'C', rankedHigherScore: 2, rankedLowerScore: 3 },
      { rankedHigher: 'B', rankedLower: 'D', rankedHigherScore: 2, rankedLowerScore: 3 },
    ]);
  });

  it('ignores scores that are not finite numbers, repeats, and ballots without scores or ranking', () => {
    const scores = { A: 5, B: Number.NaN, C: 9 } as Record<string, number>;
    Object.assign(scores, { D: true });
    // Only A (5) and C (9) are scored; A is ranked above C → one conflict. The repeated A adds nothing.
    expect(detectScoreRankMismatch({ reviewer: 'X', ranking: ['A', 'B', 'D', 'A', 'C'], scores })).toEqual([
      { rankedHigher: 'A', rankedLower: 'C', rankedHigherScore: 5, rankedLowerScore: 9 },
    ]);
    expect(detectScoreRankMismatch({ reviewer: 'X', ranking: ['A', 'B'] })).toEqual([]);
    expect(detectScoreRankMismatch({ reviewer: 'X', ranking: [], scores: { A: 1, B: 2 } })).toEqual([]);
  });

  it('rejects a malformed ballot with a ScoringError', () => {
    expect(() => detectScoreRankMismatch({ reviewer: 'X' } as unknown as Ballot)).toThrow(ScoringError);
  });
});
