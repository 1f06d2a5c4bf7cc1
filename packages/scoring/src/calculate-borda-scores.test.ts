import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { calculateBordaScores } from './calculate-borda-scores.js';
import type { LeaderboardEntry } from './calculate-borda-scores.js';
import { ScoringError } from './scoring-error.js';

/** Entries as [candidate, bordaScore, bordaPoints, voteCount, winCount, finalRank, confidence], for compact expectations. */
type Row = [string, number, number, number, number, number, LeaderboardEntry['confidence']];
function expectRows(actual: readonly LeaderboardEntry[], expected: readonly Row[]): void {
  expect(actual.map((e) => e.candidate)).toEqual(expected.map((r) => r[0]));
  expected.forEach(([candidate, score, points, votes, wins, rank, confidence], i) => {
    const entry = actual[i]!;
    expect(entry.bordaScore, `${candidate} bordaScore`).toBeCloseTo(score, 12);
    expect(entry.bordaPoints, `${candidate} bordaPoints`).toBeCloseTo(points, 12);
    expect(
      {
        voteCount: entry.voteCount,
        winCount: entry.winCount,
        finalRank: entry.finalRank,
        confidence: entry.confidence,
      },
      candidate,
    ).toEqual({
      voteCount: votes,
      winCount: wins,
      finalRank: rank,
      confidence,
    });
  });
}

function thrown(fn: () => unknown): ScoringError {
  try {
    fn();
  } catch (error) {
    if (ScoringError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ScoringError, nothing was thrown');
}

// Four members who each wrote one answer and each review all four (ADR-007's council).
const council: Ballot[] = [
  { reviewer: 'A', ranking: ['A', 'B', 'C', 'D'] },
  { reviewer: 'B', ranking: ['C', 'A', 'D', 'B'] },
  { reviewer: 'C', ranking: ['A', 'B', 'D', 'C'] },
  { reviewer: 'D', ranking: ['D', 'A', 'B', 'C'] },
];

describe('calculateBordaScores: ADR-007 edge-case table', () => {
  it('Self-vote: excluded before positions are counted, so ranking oneself first pushes no one down', () => {
    // Each ballot loses its own entry, leaving m = 3 eligible: points 2, 1, 0; scores 1, 0.5, 0.
    //   A: [B, C, D]  B: [C, A, D]  C: [A, B, D]  D: [A, B, C]
    // A: from B 0.5, C 1, D 1 → 2.5/3 = 0.8333; points (1 + 2 + 2)/3 = 5/3; wins 2 (C, D).
    // B: from A 1, C 0.5, D 0.5 → 2/3; points (2 + 1 + 1)/3 = 4/3; wins 1.
    // C: from A 0.5, B 1, D 0 → 1.5/3 = 0.5; points (1 + 2 + 0)/3 = 1; wins 1.
    // D: from A 0, B 0, C 0 → 0; 3 votes. Everyone could be ranked by 3 ballots and was: high.
    // Note D's ballot gives A a full 1 (top of [A, B, C]); counting D's own first place would have given A 2/3.
    expectRows(calculateBordaScores(council, { candidates: ['A', 'B', 'C', 'D'] }), [
      ['A', 2.5 / 3, 5 / 3, 3, 2, 1, 'high'],
      ['B', 2 / 3, 4 / 3, 3, 1, 2, 'high'],
      ['C', 0.5, 1, 3, 1, 3, 'high'],
      ['D', 0, 0, 3, 0, 4, 'high'],
    ]);
  });

  it('Self-votes kept when asked; equal scores share a rank (1, 2, 2, 4) and are ordered by win count', () => {
    // m = 4 for every ballot: points 3, 2, 1, 0; scores 1, 2/3, 1/3, 0.
    // A: 1 + 2/3 + 1 + 2/3 = 10/3 → 10/12; points (3 + 2 + 3 + 2)/4 = 2.5; wins 2.
    // B: 2/3 + 0 + 2/3 + 1/3 = 5/3 → 5/12; points (2 + 0 + 2 + 1)/4 = 1.25; wins 0.
    // C: 1/3 + 1 + 0 + 0 = 4/3 → 4/12; points (1 + 3 + 0 + 0)/4 = 1; wins 1.
    // D: 0 + 1/3 + 1/3 + 1 = 5/3 → 5/12; points (0 + 1 + 1 + 3)/4 = 1.25; wins 1 (its own first place).
    // B and D tie at 5/12: D (1 win) before B (0 wins), both rank 2; C is 4th (competition ranking).
    expectRows(calculateBordaScores(council, { candidates: ['A', 'B', 'C', 'D'], excludeSelfVotes: false }), [
      ['A', 10 / 12, 2.5, 4, 2, 1, 'high'],
      ['D', 5 / 12, 1.25, 4, 1, 2, 'high'],
      ['B', 5 / 12, 1.25, 4, 0, 2, 'high'],
      ['C', 4 / 12, 1, 4, 1, 4, 'high'],
    ]);
  });

  it('Abstention: skipped entirely, whatever it ranks', () => {
    const withAbstention = [
      ...council.slice(0, 2),
      { reviewer: 'E', ranking: ['D', 'C', 'B', 'A'], abstained: true },
      ...council.slice(2),
    ];
    expect(calculateBordaScores(withAbstention, { candidates: ['A', 'B', 'C', 'D'] })).toEqual(
      calculateBordaScores(council, { candidates: ['A', 'B', 'C', 'D'] }),
    );
    // Every reviewer abstaining: no votes for anyone, nobody penalised relative to anyone else.
    const allAbstain = calculateBordaScores([{ reviewer: 'X', ranking: ['A', 'B'], abstained: true }], {
      candidates: ['A', 'B'],
    });
    expectRows(allAbstain, [
      ['A', 0, 0, 0, 0, 1, 'low'],
      ['B', 0, 0, 0, 0, 1, 'low'],
    ]);
  });

  it('Partial ranking: uses available positions only; unranked candidates get no vote from that ballot', () => {
    // Five candidates, outside reviewers X and Y (m = 5): points 4, 3, 2, 1, 0; scores 1, .75, .5, .25, 0.
    // X ranks only [A, B]: A 1 (4 pts), B .75 (3 pts). Y ranks [B, C, D, E, A]: B 1, C .75, D .5, E .25, A 0.
    // A: (1 + 0)/2 = .5, points 2, wins 1.  B: (.75 + 1)/2 = .875, points 3.5, wins 1.
    // C .75 (3 pts), D .5 (2 pts), E .25 (1 pt): one vote each out of two possible → coverage .5 → medium.
    // A and D tie at .5: A (1 win) first; both rank 3.
    const result = calculateBordaScores(
      [
        { reviewer: 'X', ranking: ['A', 'B'] },
        { reviewer: 'Y', ranking: ['B', 'C', 'D', 'E', 'A'] },
      ],
      { candidates: ['A', 'B', 'C', 'D', 'E'] },
    );
    expectRows(result, [
      ['B', 0.875, 3.5, 2, 1, 1, 'high'],
      ['C', 0.75, 3, 1, 0, 2, 'medium'],
      ['A', 0.5, 2, 2, 1, 3, 'high'],
      ['D', 0.5, 2, 1, 0, 3, 'medium'],
      ['E', 0.25, 1, 1, 0, 5, 'medium'],
    ]);
  });

  it('Tie in scores and in wins: alphabetical by candidate id, sharing the rank', () => {
    // m = 2: first 1, second 0. alpha: (0 + 1)/2 = .5, 1 win; beta: (1 + 0)/2 = .5, 1 win.
    const result = calculateBordaScores(
      [
        { reviewer: 'X', ranking: ['beta', 'alpha'] },
        { reviewer: 'Y', ranking: ['alpha', 'beta'] },
      ],
      { candidates: ['beta', 'alpha'] },
    );
    expectRows(result, [
      ['alpha', 0.5, 0.5, 2, 1, 1, 'high'],
      ['beta', 0.5, 0.5, 2, 1, 1, 'high'],
    ]);
  });

  it('No votes received: score 0, ranked after every candidate that received a vote, even one scoring 0', () => {
    // Candidates A, B, C, E; the only ballot is E's, so E's own entry goes and m = 3: A 1, B .5, C 0.
    // E received no vote: score 0 like C, but ranked after C. Single reviewer: every entry low.
    const result = calculateBordaScores([{ reviewer: 'E', ranking: ['E', 'A', 'B', 'C'] }], {
      candidates: ['A', 'B', 'C', 'E'],
    });
    expectRows(result, [
      ['A', 1, 2, 1, 1, 1, 'low'],
      ['B', 0.5, 1, 1, 0, 2, 'low'],
      ['C', 0, 0, 1, 0, 3, 'low'],
      ['E', 0, 0, 0, 0, 4, 'low'],
    ]);
  });

  it('Single reviewer: the ranking as given, every entry marked low confidence', () => {
    const result = calculateBordaScores([{ reviewer: 'X', ranking: ['C', 'A', 'B'] }], { candidates: ['A', 'B', 'C'] });
    // m = 3: C 1 (2 pts), A .5 (1 pt), B 0.
    expectRows(result, [
      ['C', 1, 2, 1, 1, 1, 'low'],
      ['A', 0.5, 1, 1, 0, 2, 'low'],
      ['B', 0, 0, 1, 0, 3, 'low'],
    ]);
  });

  it('Score/rank mismatch: the explicit ranking wins (ADR-007 Issue #13 example)', () => {
    // Ranking [A, B, C], scores {A: 7, B: 9, C: 5}: the ranking gives A 1, B .5, C 0 — scores ignored.
    const ballot: Ballot = { reviewer: 'X', ranking: ['A', 'B', 'C'], scores: { A: 7, B: 9, C: 5 } };
    expectRows(calculateBordaScores([ballot], { candidates: ['A', 'B', 'C'] }), [
      ['A', 1, 2, 1, 1, 1, 'low'],
      ['B', 0.5, 1, 1, 0, 2, 'low'],
      ['C', 0, 0, 1, 0, 3, 'low'],
    ]);
  });
});

describe('calculateBordaScores: cleaning', () => {
  it('keeps the first occurrence of a repeated candidate and drops unknown ids before counting positions', () => {
    // ['B', 'Z', 'B', 'A', 'C'] → [B, A, C] with m = 3: B 1, A .5, C 0.
    const result = calculateBordaScores([{ reviewer: 'X', ranking: ['B', 'Z', 'B', 'A', 'C'] }], {
      candidates: ['A', 'B', 'C'],
    });
    expectRows(result, [
      ['B', 1, 2, 1, 1, 1, 'low'],
      ['A', 0.5, 1, 1, 0, 2, 'low'],
      ['C', 0, 0, 1, 0, 3, 'low'],
    ]);
  });

  it('derives a ranking from scores when there is none: descending, equal scores in id order, only finite numbers', () => {
    const scores = { C: 6, A: 6, B: 8, D: Number.NaN, E: Number.POSITIVE_INFINITY } as Record<string, number>;
    // Values that are not numbers are ignored, not coerced (true would be 1, '9' would be 9).
    Object.assign(scores, { F: true, G: '9' });
    // Ranking from scores: B (8), A (6), C (6) — A before C by id. D–G unranked. m = 7: points 6, 5, 4.
    const result = calculateBordaScores([{ reviewer: 'X', ranking: [], scores }], {
      candidates: ['A', 'B', 'C', 'D', 'E', 'F', 'G'],
    });
    expect(result.slice(0, 3).map((e) => [e.candidate, e.bordaScore, e.bordaPoints])).toEqual([
      ['B', 1, 6],
      ['A', 5 / 6, 5],
      ['C', 4 / 6, 4],
    ]);
    expect(result.slice(3).map((e) => [e.candidate, e.voteCount, e.finalRank])).toEqual([
      ['D', 0, 4],
      ['E', 0, 4],
      ['F', 0, 4],
      ['G', 0, 4],
    ]);
  });

  it('uses authorOf to find self-votes when candidates are anonymous labels', () => {
    const authorOf = { 'Response A': 'gpt', 'Response B': 'claude', 'Response C': 'gemini' };
    // gpt: [A, C, B] → [C, B]; claude: [B, A, C] → [A, C]; gemini: [A, B, C] → [A, B]. m = 2: first 1, second 0.
    // A: 1, 1 → 1 (2 wins). B: 0, 0 → 0. C: 1, 0 → .5 (1 win). Each could be ranked by 2 ballots and was.
    const result = calculateBordaScores(
      [
        { reviewer: 'gpt', ranking: ['Response A', 'Response C', 'Response B'] },
        { reviewer: 'claude', ranking: ['Response B', 'Response A', 'Response C'] },
        { reviewer: 'gemini', ranking: ['Response A', 'Response B', 'Response C'] },
      ],
      { candidates: ['Response A', 'Response B', 'Response C'], authorOf },
    );
    expectRows(result, [
      ['Response A', 1, 1, 2, 2, 1, 'high'],
      ['Response C', 0.5, 0.5, 2, 1, 2, 'high'],
      ['Response B', 0, 0, 2, 0, 3, 'high'],
    ]);
  });

  it('casts no vote from a ballot that has fewer than two eligible candidates (nothing to prefer)', () => {
    // Two members, self-votes excluded: each may rank only the other (m = 1), which says nothing.
    const result = calculateBordaScores(
      [
        { reviewer: 'A', ranking: ['B', 'A'] },
        { reviewer: 'B', ranking: ['A'] },
      ],
      { candidates: ['A', 'B'] },
    );
    expectRows(result, [
      ['A', 0, 0, 0, 0, 1, 'low'],
      ['B', 0, 0, 0, 0, 1, 'low'],
    ]);
  });
});

describe('calculateBordaScores: weights and confidence', () => {
  it('weights the means; weight 0 is advisory and counts in no score, vote or win', () => {
    // m = 3. X (w 3): A 1, B .5, C 0.  Y (w 1): C 1, B .5, A 0.  Z (w 0): ignored.
    // A: (3·1 + 1·0)/4 = .75, points (3·2 + 0)/4 = 1.5.  B: .5, points 1.  C: (0 + 1)/4 = .25, points .5.
    const result = calculateBordaScores(
      [
        { reviewer: 'X', ranking: ['A', 'B', 'C'], weight: 3 },
        { reviewer: 'Y', ranking: ['C', 'B', 'A'] },
        { reviewer: 'Z', ranking: ['B', 'A', 'C'], weight: 0 },
      ],
      { candidates: ['A', 'B', 'C'] },
    );
    expectRows(result, [
      ['A', 0.75, 1.5, 2, 1, 1, 'high'],
      ['B', 0.5, 1, 2, 0, 2, 'high'],
      ['C', 0.25, 0.5, 2, 1, 3, 'high'],
    ]);
    // With only one scoring reviewer left (Z advisory), every entry is low.
    const single = calculateBordaScores(
      [
        { reviewer: 'X', ranking: ['A', 'B', 'C'] },
        { reviewer: 'Z', ranking: ['B', 'A', 'C'], weight: 0 },
      ],
      { candidates: ['A', 'B', 'C'] },
    );
    expect(single.map((e) => e.confidence)).toEqual(['low', 'low', 'low']);
  });

  it('grades coverage = votes / ballots that could have ranked it: ≥ 0.8 high, ≥ 0.5 medium, else low', () => {
    const candidates = ['A', 'B', 'C'];
    const ballots: Ballot[] = [
      { reviewer: 'X1', ranking: ['A', 'B', 'C'] },
      { reviewer: 'X2', ranking: ['A', 'B', 'C'] },
      { reviewer: 'X3', ranking: ['A', 'B'] },
      { reviewer: 'X4', ranking: ['A', 'B'] },
      { reviewer: 'X5', ranking: ['A'] },
    ];
    // A 5/5 = 1 → high; B 4/5 = 0.8 → high (boundary); C 2/5 = 0.4 → low.
    const byCandidate = (ballotsHere: Ballot[]): Record<string, string> =>
      Object.fromEntries(calculateBordaScores(ballotsHere, { candidates }).map((e) => [e.candidate, e.confidence]));
    expect(byCandidate(ballots)).toEqual({ A: 'high', B: 'high', C: 'low' });
    // X5 also ranks C: C 3/5 = 0.6 → medium.
    expect(byCandidate([...ballots.slice(0, 4), { reviewer: 'X5', ranking: ['A', 'C'] }])).toEqual({
      A: 'high',
      B: 'high',
      C: 'medium',
    });
    // Exactly 0.5: B ranked by 1 of 2 → medium.
    expect(
      Object.fromEntries(
        calculateBordaScores(
          [
            { reviewer: 'X1', ranking: ['A', 'B'] },
            { reviewer: 'X2', ranking: ['A'] },
          ],
          { candidates: ['A', 'B'] },
        ).map((e) => [e.candidate, e.confidence]),
      ),
    ).toEqual({
      A: 'high',
      B: 'medium',
    });
    // A reviewer's own candidate is not possible for its own ballot: in the four-member council each
    // candidate is rankable by the three other members' ballots and ranked by all three → 3/3, high.
    expect(
      calculateBordaScores(council, { candidates: ['A', 'B', 'C', 'D'] }).every((e) => e.confidence === 'high'),
    ).toBe(true);
  });
});

describe('calculateBordaScores: bad input', () => {
  it('rejects empty or repeated candidate lists', () => {
    expect(thrown(() => calculateBordaScores([], { candidates: [] })).code).toBe('EMPTY_CANDIDATES');
    const dup = thrown(() => calculateBordaScores([], { candidates: ['a', 'b', 'a'] }));
    expect(dup.code).toBe('DUPLICATE_CANDIDATE');
    expect(dup.message).toMatch(/"a" appears more than once.*indices 0 and 2.*list each candidate once/);
    expect(thrown(() => calculateBordaScores([], { candidates: ['a', ''] })).code).toBe('INVALID_CANDIDATE');
  });

  it('re-validates a candidate array that was changed after an earlier call', () => {
    const candidates = ['a', 'b'];
    expect(calculateBordaScores([], { candidates })).toHaveLength(2);
    candidates.push('a');
    expect(thrown(() => calculateBordaScores([], { candidates })).code).toBe('DUPLICATE_CANDIDATE');
    candidates[2] = 'c';
    expect(calculateBordaScores([{ reviewer: 'x', ranking: ['c'] }], { candidates })[0]!.candidate).toBe('c');
  });

  it('rejects a bad weight, naming the ballot and saying what a weight must be', () => {
    for (const weight of [-1, Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number]) {
      const error = thrown(() =>
        calculateBordaScores(
          [
            { reviewer: 'X', ranking: ['a'] },
            { reviewer: 'Y', ranking: ['a'], weight },
          ],
          { candidates: ['a', 'b'] },
        ),
      );
      expect(error.code).toBe('INVALID_WEIGHT');
      expect(error.message).toContain('ballots[1] (reviewer "Y")');
      expect(error.message).toContain('finite number ≥ 0');
    }
  });

  it('keeps weighted means exact at the ends of the number range, and rejects weights whose sum overflows', () => {
    // Only relative weights matter: one ballot of weight 5e-324 (the smallest double) scores like weight 1,
    // so with m = 3 the points are 2, 1, 0 and the scores 1, ½, 0 (a product w · ½ would underflow to 0).
    expectRows(
      calculateBordaScores([{ reviewer: 'X', ranking: ['a', 'b', 'c'], weight: 5e-324 }], {
        candidates: ['a', 'b', 'c'],
      }),
      [
        ['a', 1, 2, 1, 1, 1, 'low'],
        ['b', 0.5, 1, 1, 0, 2, 'low'],
        ['c', 0, 0, 1, 0, 3, 'low'],
      ],
    );
    // Weights 1e300 and 3e300 for opposite orders of two candidates: a's score is 1e300 / 4e300 = ¼.
    expectRows(
      calculateBordaScores(
        [
          { reviewer: 'X', ranking: ['a', 'b'], weight: 1e300 },
          { reviewer: 'Y', ranking: ['b', 'a'], weight: 3e300 },
        ],
        { candidates: ['a', 'b'] },
      ),
      [
        ['b', 0.75, 0.75, 2, 1, 1, 'high'],
        ['a', 0.25, 0.25, 2, 1, 2, 'high'],
      ],
    );
    const error = thrown(() =>
      calculateBordaScores(
        [
          { reviewer: 'X', ranking: ['a', 'b'], weight: 1e308 },
          { reviewer: 'Y', ranking: ['a', 'b'], weight: 1e308 },
        ],
        { candidates: ['a', 'b'] },
      ),
    );
    expect(error.code).toBe('INVALID_WEIGHT');
    expect(error.message).toContain('ballots[1] (reviewer "Y")');
  });

  it('rejects malformed ballots and options with INVALID_BALLOT / INVALID_OPTION', () => {
    const bad = (ballot: unknown, code = 'INVALID_BALLOT'): string => {
      const error = thrown(() => calculateBordaScores([ballot as Ballot], { candidates: ['a', 'b'] }));
      expect(error.code).toBe(code);
      return error.message;
    };
    expect(bad({ reviewer: 'X' })).toMatch(/ballots\[0\] \(reviewer "X"\) has no ranking array; pass ranking: \[\]/);
    expect(bad({ ranking: ['a'] })).toMatch(/ballots\[0\] has no reviewer id/);
    expect(bad({ reviewer: 'X', ranking: ['a', 3] })).toMatch(/non-string ranking\[1\] \(3\)/);
    expect(bad({ reviewer: 'X', ranking: [], scores: [1, 2] })).toMatch(/scores that are not an object/);
    expect(bad({ reviewer: 'X', ranking: [], abstained: 'yes' })).toMatch(/non-boolean abstained/);
    expect(bad(null)).toMatch(/ballots\[0\] is not an object/);
    expect(thrown(() => calculateBordaScores('x' as unknown as Ballot[], { candidates: ['a'] })).code).toBe(
      'INVALID_BALLOT',
    );
    expect(
      thrown(() => calculateBordaScores([], { candidates: ['a'], excludeSelfVotes: 'no' as unknown as boolean })).code,
    ).toBe('INVALID_OPTION');
    const author = thrown(() => calculateBordaScores([], { candidates: ['a', 'b'], authorOf: { a: 'x' } }));
    expect(author.code).toBe('INVALID_OPTION');
    expect(author.message).toMatch(/no author for candidate "b"/);
  });
});
