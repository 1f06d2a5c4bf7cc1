import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { schulze } from './schulze.js';

// Wikipedia, "Schulze method", the worked example: 45 voters, 5 candidates.
//   5 ACBED, 5 ADECB, 8 BEDAC, 3 CABED, 7 CAEBD, 2 CBADE, 7 DCEBA, 8 EBADC
// Groups of identical voters are single ballots with that weight.
const wikipedia: Ballot[] = (
  [
    [5, 'ACBED'],
    [5, 'ADECB'],
    [8, 'BEDAC'],
    [3, 'CABED'],
    [7, 'CAEBD'],
    [2, 'CBADE'],
    [7, 'DCEBA'],
    [8, 'EBADC'],
  ] as const
).map(([weight, order], i) => ({ reviewer: `voters${i}`, ranking: order.split(''), weight }));

describe('schulze', () => {
  it("reproduces Wikipedia's worked example: pairwise support, strongest paths, and E > A > C > B > D", () => {
    const result = schulze(wikipedia);
    expect(result.pairwise.candidates).toEqual(['A', 'B', 'C', 'D', 'E']);
    // d[X, Y] from the article's table (e.g. d[A, B] = 5 + 5 + 3 + 7 = 20: the ACBED, ADECB, CABED, CAEBD voters).
    expect(result.pairwise.support).toEqual([
      [0, 20, 26, 30, 22],
      [25, 0, 16, 33, 18],
      [19, 29, 0, 17, 24],
      [15, 12, 28, 0, 14],
      [23, 27, 21, 31, 0],
    ]);
    // p[X, Y], the article's table of strongest paths.
    expect(result.strongestPaths.support).toEqual([
      [0, 28, 28, 30, 24],
      [25, 0, 28, 33, 24],
      [25, 29, 0, 29, 24],
      [25, 28, 28, 0, 24],
      [25, 28, 28, 31, 0],
    ]);
    expect(result.ranking).toEqual([
      { candidate: 'E', rank: 1, beats: 4 },
      { candidate: 'A', rank: 2, beats: 3 },
      { candidate: 'C', rank: 3, beats: 2 },
      { candidate: 'B', rank: 4, beats: 1 },
      { candidate: 'D', rank: 5, beats: 0 },
    ]);
    expect(result.winners).toEqual(['E']);
    // No Condorcet winner, from the pairwise table: E loses to C (21–24), A to B (20–25), B to C (16–29),
    // C to D (17–28), D to A (15–30).
    expect(result.condorcetWinner).toBeNull();
  });

  it('elects the Condorcet winner when there is one, and reports a tie as two winners', () => {
    // B beats A (2–1) and C (2–1); A beats C (2–1).
    const ballots: Ballot[] = [
      { reviewer: 'x', ranking: ['A', 'B', 'C'] },
      { reviewer: 'y', ranking: ['B', 'C', 'A'] },
      { reviewer: 'z', ranking: ['B', 'A', 'C'] },
    ];
    const result = schulze(ballots);
    expect(result.condorcetWinner).toBe('B');
    expect(result.winners).toEqual(['B']);
    expect(result.ranking.map((e) => [e.candidate, e.rank])).toEqual([
      ['B', 1],
      ['A', 2],
      ['C', 3],
    ]);
    // Two voters with opposite rankings: no direct links, every path 0, two winners sharing rank 1.
    const tie = schulze([
      { reviewer: 'x', ranking: ['A', 'B'] },
      { reviewer: 'y', ranking: ['B', 'A'] },
    ]);
    expect(tie.winners).toEqual(['A', 'B']);
    expect(tie.ranking.map((e) => e.rank)).toEqual([1, 1]);
    expect(tie.condorcetWinner).toBeNull();
  });

  it('excludes self-votes and unknown candidates when candidates are given', () => {
    // Reviewer A's ballot loses A: only B > C remains. Reviewer B's loses B: C > A. Z is not a candidate.
    const result = schulze(
      [
        { reviewer: 'A', ranking: ['A', 'B', 'C'] },
        { reviewer: 'B', ranking: ['B', 'Z', 'C', 'A'] },
      ],
      { candidates: ['A', 'B', 'C'] },
    );
    expect(result.pairwise.support).toEqual([
      [0, 0, 0],
      [0, 0, 1],
      [1, 0, 0],
    ]);
  });
});
