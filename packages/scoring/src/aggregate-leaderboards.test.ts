import { describe, expect, it } from 'vitest';
import { aggregateLeaderboards } from './aggregate-leaderboards.js';
import type { LeaderboardSession } from './aggregate-leaderboards.js';
import { createRng } from './create-rng.js';
import { ScoringError } from './scoring-error.js';

// entry(['A', score, votes, wins]) — a tuple, to keep the tables below compact.
const entry = ([candidate, bordaScore, voteCount, winCount]: [string, number, number, number]) => ({
  candidate,
  bordaScore,
  voteCount,
  winCount,
});

const sessions: LeaderboardSession[] = [
  {
    id: 's1',
    timestamp: '2024-01-01T00:00:00Z',
    category: 'code',
    leaderboard: [entry(['A', 1, 2, 2]), entry(['B', 0.5, 2, 0]), entry(['C', 0, 2, 0])],
  },
  {
    id: 's2',
    timestamp: '2024-01-10T00:00:00Z',
    category: 'code',
    leaderboard: [entry(['A', 0.5, 2, 1]), entry(['B', 1, 2, 1]), entry(['C', 0, 0, 0])],
  },
  {
    id: 's3',
    timestamp: '2024-02-01T00:00:00Z',
    category: 'math',
    leaderboard: [entry(['A', 0, 1, 0]), entry(['B', 1, 1, 1]), entry(['C', 0.5, 1, 0])],
  },
];

type Row = [string, string | null, number, number, number, number, number];
const rows = (result: ReturnType<typeof aggregateLeaderboards>): Row[] =>
  result.map((e) => [e.candidate, e.category, e.aggregateBorda, e.totalVotes, e.totalWins, e.appearances, e.rank]);

function thrown(fn: () => unknown): ScoringError {
  try {
    fn();
  } catch (error) {
    if (ScoringError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ScoringError');
}

describe('aggregateLeaderboards', () => {
  it("is ADR-007's SQL: mean of per-session scores (each session once), total votes and wins, appearances", () => {
    // A: mean(1, .5, 0) = .5, votes 2+2+1 = 5, wins 3, 3 sessions.
    // B: mean(.5, 1, 1) = 2.5/3, votes 5, wins 2.
    // C: s2 gave C no vote (score 0 there means "no data"), so mean(0, .5) = .25 over 2 appearances; votes 3.
    const result = aggregateLeaderboards(sessions, { bootstrap: 0 });
    const r = rows(result);
    expect(r.map((row) => row[0])).toEqual(['B', 'A', 'C']);
    expect(r[0]![2]).toBeCloseTo(2.5 / 3, 12);
    expect(r.map((row) => [row[1], row[3], row[4], row[5], row[6]])).toEqual([
      [null, 5, 2, 3, 1],
      [null, 5, 3, 3, 2],
      [null, 3, 0, 2, 3],
    ]);
    expect(r[1]![2]).toBeCloseTo(0.5, 12);
    expect(r[2]![2]).toBeCloseTo(0.25, 12);
    expect(result.every((e) => e.interval === null)).toBe(true); // bootstrap: 0
  });

  it('groups by category when asked; ties in the mean share a rank, ordered by wins', () => {
    // code: A mean(1, .5) = .75, 4 votes, 3 wins; B mean(.5, 1) = .75, 4 votes, 1 win; C mean(0) = 0 (s2 no votes).
    // math: B 1, C .5, A 0.
    expect(rows(aggregateLeaderboards(sessions, { byCategory: true, bootstrap: 0 }))).toEqual([
      ['A', 'code', 0.75, 4, 3, 2, 1],
      ['B', 'code', 0.75, 4, 1, 2, 1],
      ['C', 'code', 0, 2, 0, 1, 3],
      ['B', 'math', 1, 1, 1, 1, 1],
      ['C', 'math', 0.5, 1, 0, 1, 2],
      ['A', 'math', 0, 1, 0, 1, 3],
    ]);
  });

  it('keeps sessions strictly after `since` and at or before `until`; no appearance ranks last with no interval', () => {
    // since = s1's own moment excludes s1 (ADR-007: timestamp > NOW() - INTERVAL); until excludes s3. Only s2 remains.
    const result = aggregateLeaderboards(sessions, {
      since: new Date('2024-01-01T00:00:00Z'),
      until: '2024-01-31T00:00:00Z',
    });
    expect(rows(result)).toEqual([
      ['B', null, 1, 2, 1, 1, 1],
      ['A', null, 0.5, 2, 1, 1, 2],
      ['C', null, 0, 0, 0, 0, 3],
    ]);
    // One session: every resample is that session, so the interval is the value itself.
    expect(result[0]!.interval).toEqual({ lower: 1, upper: 1 });
    expect(result[2]!.interval).toBeNull();
    expect(
      rows(aggregateLeaderboards(sessions, { since: Date.parse('2024-01-31T00:00:00Z'), bootstrap: 0 })).map(
        (r) => r[0],
      ),
    ).toEqual(['B', 'C', 'A']);
  });

  it('gives a seeded percentile bootstrap interval of the mean, resampling sessions', () => {
    // code/A has values {1, .5}: a resampled mean is 1 (p = 1/4), .75 (1/2) or .5 (1/4). With 1000
    // replicates about 250 are .5 and 250 are 1, so the 2.5% and 97.5% points are .5 and 1.
    const byCat = aggregateLeaderboards(sessions, { byCategory: true, seed: 3 });
    expect(byCat[0]!.interval).toEqual({ lower: 0.5, upper: 1 });
    // Same seed, same interval; the interval always contains the mean.
    expect(aggregateLeaderboards(sessions, { seed: 9 })).toEqual(aggregateLeaderboards(sessions, { seed: 9 }));
    for (const e of aggregateLeaderboards(sessions))
      expect(e.interval!.lower <= e.aggregateBorda && e.aggregateBorda <= e.interval!.upper).toBe(true);
  });

  it('matches normal theory (mean ± 1.96 sd/√n) on large samples, both for few distinct values and many', () => {
    const rng = createRng(11);
    const check = (values: number[]): void => {
      const n = values.length;
      const mean = values.reduce((a, b) => a + b, 0) / n;
      const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
      const half = (1.96 * sd) / Math.sqrt(n);
      const [result] = aggregateLeaderboards(
        values.map((v, i) => ({ id: String(i), leaderboard: [entry(['A', v, 1, 0])] })),
        { seed: 5 },
      );
      expect(result!.aggregateBorda).toBeCloseTo(mean, 12);
      // The percentile interval's half-width from 1000 replicates is within ~5% of the truth; allow 12%.
      expect(Math.abs(result!.interval!.upper - mean - half)).toBeLessThan(0.12 * half);
      expect(Math.abs(mean - result!.interval!.lower - half)).toBeLessThan(0.12 * half);
    };
    // 20,000 sessions scoring 0, .25, .5, .75 or 1: resampled through multinomial counts.
    check(Array.from({ length: 20000 }, () => rng.nextInt(5) / 4));
    // 400 sessions with distinct scores: resampled session by session.
    check(Array.from({ length: 400 }, () => rng.next()));
  });

  it('rejects malformed sessions, naming the session, and bad options', () => {
    const dup = thrown(() => aggregateLeaderboards([sessions[0]!, { ...sessions[1]!, id: 's1' }]));
    expect(dup.code).toBe('DUPLICATE_SESSION');
    expect(dup.message).toMatch(/sessions\[1\] \(id "s1"\) repeats the id of sessions\[0\]/);
    const score = thrown(() => aggregateLeaderboards([{ id: 'x', leaderboard: [entry(['A', 1.5, 1, 0])] }]));
    expect(score.code).toBe('INVALID_SESSION');
    expect(score.message).toMatch(
      /sessions\[0\] \(id "x"\) leaderboard\[0\] \("A"\) has bordaScore 1.5; it must lie in \[0, 1\]/,
    );
    expect(thrown(() => aggregateLeaderboards([{ id: 'x', leaderboard: [entry(['A', Number.NaN, 1, 0])] }])).code).toBe(
      'INVALID_SESSION',
    );
    expect(thrown(() => aggregateLeaderboards([{ id: 'x', leaderboard: [entry(['A', 1, 1, 2])] }])).message).toMatch(
      /winCount 2/,
    );
    expect(
      thrown(() => aggregateLeaderboards([{ id: 'x', leaderboard: [entry(['A', 1, 1, 0]), entry(['A', 1, 1, 0])] }]))
        .code,
    ).toBe('DUPLICATE_CANDIDATE');
    const noTime = thrown(() => aggregateLeaderboards([{ id: 'x', leaderboard: [] }], { since: 0 }));
    expect(noTime.message).toMatch(/sessions\[0\] \(id "x"\) has no timestamp/);
    expect(
      thrown(() => aggregateLeaderboards([{ id: 'x', timestamp: 'soon', leaderboard: [] }], { until: 0 })).code,
    ).toBe('INVALID_SESSION');
    expect(thrown(() => aggregateLeaderboards([], { since: 'yesterday' })).code).toBe('INVALID_OPTION');
    expect(thrown(() => aggregateLeaderboards([], { bootstrap: -1 })).code).toBe('INVALID_OPTION');
    expect(thrown(() => aggregateLeaderboards([{ id: '', leaderboard: [] }])).code).toBe('INVALID_SESSION');
  });
});
