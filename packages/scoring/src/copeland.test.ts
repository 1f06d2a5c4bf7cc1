import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { aggregateLeaderboards } from './aggregate-leaderboards.js';
import { copeland } from './copeland.js';
import { kendallW } from './kendall-w.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import { schulze } from './schulze.js';
import { ScoringError } from './scoring-error.js';

describe('copeland', () => {
  it('scores one per head-to-head win and a half per tie, with the Condorcet winner (hand-worked)', () => {
    // x: A B C D   y: B A D C   z: A C B D   (outside reviewers, weight 1 each)
    // A–B: x, z prefer A; y prefers B → A wins 2–1.  A–C: 3–0 A.  A–D: 3–0 A.
    // B–C: x, y → B 2–1.  B–D: 3–0 B.  C–D: x, z → C 2–1.
    // A: 3 wins → 3. B: 2 wins, 1 loss → 2. C: 1 win → 1. D: 0.
    const ballots: Ballot[] = [
      { reviewer: 'x', ranking: ['A', 'B', 'C', 'D'] },
      { reviewer: 'y', ranking: ['B', 'A', 'D', 'C'] },
      { reviewer: 'z', ranking: ['A', 'C', 'B', 'D'] },
    ];
    const result = copeland(ballots);
    expect(result.ranking).toEqual([
      { candidate: 'A', score: 3, wins: 3, losses: 0, ties: 0, rank: 1 },
      { candidate: 'B', score: 2, wins: 2, losses: 1, ties: 0, rank: 2 },
      { candidate: 'C', score: 1, wins: 1, losses: 2, ties: 0, rank: 3 },
      { candidate: 'D', score: 0, wins: 0, losses: 3, ties: 0, rank: 4 },
    ]);
    expect(result.condorcetWinner).toBe('A');
    expect(result.pairwise.support[0]).toEqual([0, 2, 3, 3]);
  });

  it('has no Condorcet winner in a cycle: every candidate 1 win 1 loss, all sharing rank 1', () => {
    // The classic Condorcet paradox: A > B > C, B > C > A, C > A > B — each pair is won 2–1 round the cycle.
    const result = copeland([
      { reviewer: 'x', ranking: ['A', 'B', 'C'] },
      { reviewer: 'y', ranking: ['B', 'C', 'A'] },
      { reviewer: 'z', ranking: ['C', 'A', 'B'] },
    ]);
    expect(result.condorcetWinner).toBeNull();
    expect(result.ranking.map((e) => [e.candidate, e.score, e.rank])).toEqual([
      ['A', 1, 1],
      ['B', 1, 1],
      ['C', 1, 1],
    ]);
  });

  it('counts pairs never compared, and pairs with equal support, as ties; weights count', () => {
    // x ranks A over B; y (weight 0, advisory) ranks B over A and C. C is never compared by a scoring ballot.
    const result = copeland(
      [
        { reviewer: 'x', ranking: ['A', 'B'] },
        { reviewer: 'y', ranking: ['B', 'A', 'C'], weight: 0 },
      ],
      { candidates: ['A', 'B', 'C'] },
    );
    // A: beats B, ties C → 1.5. B: loses to A, ties C → 0.5. C: ties both → 1.
    expect(result.ranking.map((e) => [e.candidate, e.score, e.wins, e.losses, e.ties])).toEqual([
      ['A', 1.5, 1, 0, 1],
      ['C', 1, 0, 0, 2],
      ['B', 0.5, 0, 1, 1],
    ]);
    expect(result.condorcetWinner).toBeNull();
  });

  it('infers candidates from the ballots, and needs at least one', () => {
    expect(copeland([{ reviewer: 'x', ranking: ['b', 'a'] }]).pairwise.candidates).toEqual(['a', 'b']);
    expect(() => copeland([{ reviewer: 'x', ranking: [], abstained: true }])).toThrow(ScoringError);
    expect(() => copeland([{ reviewer: 'x', ranking: [] }])).toThrow(/name no candidates/);
  });
});

describe('option checks shared by the optional-options functions', () => {
  it('rejects options that are not an object with INVALID_OPTION, never a TypeError', () => {
    const ballots: Ballot[] = [{ reviewer: 'x', ranking: ['a', 'b'] }];
    for (const call of [
      () => copeland(ballots, null as never),
      () => schulze(ballots, null as never),
      () => kendallW(ballots, null as never),
      () => krippendorffAlpha(ballots, null as never),
      () => aggregateLeaderboards([], null as never),
    ]) {
      try {
        call();
        throw new Error('expected a ScoringError');
      } catch (error) {
        expect(ScoringError.isInstance(error) && error.code).toBe('INVALID_OPTION');
      }
    }
  });
});
