// Invariants every method keeps, checked on random councils with fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { aggregateLeaderboards } from './aggregate-leaderboards.js';
import { bradleyTerry } from './bradley-terry.js';
import { calculateBordaScores } from './calculate-borda-scores.js';
import { copeland } from './copeland.js';
import { kendallW } from './kendall-w.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import { schulze } from './schulze.js';
import { ScoringError } from './scoring-error.js';

const ALL = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
const OUTSIDERS = ['r0', 'r1', 'r2'];

/** A council: 2–6 candidates and 0–8 ballots of every kind (partial, scores-only, weighted, abstaining, self-votes, junk ids). */
const councilArb = fc.integer({ min: 2, max: 6 }).chain((n) => {
  const candidates = ALL.slice(0, n);
  const ballotArb: fc.Arbitrary<Ballot> = fc.record({
    reviewer: fc.constantFrom(...candidates, ...OUTSIDERS),
    ranking: fc.oneof(
      { weight: 4, arbitrary: fc.shuffledSubarray(candidates) },
      { weight: 1, arbitrary: fc.array(fc.constantFrom(...candidates, 'zz'), { maxLength: 8 }) },
      { weight: 1, arbitrary: fc.constant([] as string[]) },
    ),
    scores: fc.option(fc.dictionary(fc.constantFrom(...candidates), fc.integer({ min: 1, max: 4 })), {
      nil: undefined,
    }),
    weight: fc.constantFrom(1, 1, 1, 2, 0.5, 0),
    abstained: fc.constantFrom(false, false, false, true),
  });
  return fc.record({ candidates: fc.constant(candidates), ballots: fc.array(ballotArb, { maxLength: 8 }) });
});

/** A bijection of ids that also reverses their alphabetical order, so id tie-breaks really change. */
const rename = (id: string): string => (id.startsWith('c') ? `z${9 - Number(id.slice(1))}` : id);
const renameBallot = (b: Ballot): Ballot => ({
  ...b,
  reviewer: rename(b.reviewer),
  ranking: b.ranking.map(rename),
  ...(b.scores ? { scores: Object.fromEntries(Object.entries(b.scores).map(([k, v]) => [rename(k), v])) } : {}),
});

/** Runs `fn`; a ScoringError (e.g. INSUFFICIENT_DATA) is a legitimate outcome and is returned by code. */
function outcome<T>(fn: () => T): T | { error: string } {
  try {
    return fn();
  } catch (error) {
    if (ScoringError.isInstance(error)) return { error: error.code };
    throw error;
  }
}

function containsNaN(value: unknown): boolean {
  if (typeof value === 'number') return Number.isNaN(value);
  if (value && typeof value === 'object') return Object.values(value).some(containsNaN);
  return false;
}

const closeMap = (a: Record<string, number>, b: Record<string, number>): void => {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const k of Object.keys(a)) expect(a[k]!).toBeCloseTo(b[k]!, 6);
};

describe('properties', () => {
  it('permuting ballots permutes nothing: every method gives the same result', () => {
    fc.assert(
      fc.property(councilArb, fc.integer(), ({ candidates, ballots }, seed) => {
        const shuffled = fc.sample(
          fc.shuffledSubarray(ballots, { minLength: ballots.length, maxLength: ballots.length }),
          { numRuns: 1, seed },
        )[0]!;
        const borda = (bs: Ballot[]) =>
          calculateBordaScores(bs, { candidates }).map((e) => ({
            ...e,
            bordaScore: Math.round(e.bordaScore * 1e9),
            bordaPoints: Math.round(e.bordaPoints * 1e9),
          }));
        expect(borda(shuffled)).toEqual(borda(ballots));
        expect(copeland(shuffled, { candidates })).toEqual(copeland(ballots, { candidates }));
        expect(schulze(shuffled, { candidates })).toEqual(schulze(ballots, { candidates }));
        const bt = (bs: Ballot[]) =>
          Object.fromEntries(bradleyTerry(bs, { candidates, bootstrap: 0 }).map((e) => [e.candidate, e.rating]));
        closeMap(bt(shuffled), bt(ballots));
        const w = (bs: Ballot[]) => outcome(() => Math.round(kendallW(bs, { candidates }).w * 1e9));
        expect(w(shuffled)).toEqual(w(ballots));
        const alpha = (bs: Ballot[]) => outcome(() => Math.round(krippendorffAlpha(bs, { candidates }).alpha * 1e9));
        expect(alpha(shuffled)).toEqual(alpha(ballots));
      }),
      { numRuns: 80 },
    );
  }, 30_000);

  it('renaming candidates renames the result (even though id tie-breaks now run the other way)', () => {
    fc.assert(
      fc.property(councilArb, ({ candidates, ballots }) => {
        const renamedCandidates = candidates.map(rename);
        const renamedBallots = ballots.map(renameBallot);
        const bordaBy = (entries: ReturnType<typeof calculateBordaScores>, map: (id: string) => string = (id) => id) =>
          Object.fromEntries(entries.map(({ candidate, ...rest }) => [map(candidate), rest]));
        // Borda orders equal scores of a scores-only ballot by candidate id (issue 3's rule), so renaming
        // may legitimately reorder those; the property holds for every other council.
        const idOrderedTie = ballots.some(
          (b) =>
            b.ranking.length === 0 && b.scores && new Set(Object.values(b.scores)).size < Object.keys(b.scores).length,
        );
        if (!idOrderedTie) {
          expect(bordaBy(calculateBordaScores(renamedBallots, { candidates: renamedCandidates }))).toEqual(
            bordaBy(calculateBordaScores(ballots, { candidates }), rename),
          );
        }
        const copelandBy = (r: ReturnType<typeof copeland>, map: (id: string) => string = (id) => id) =>
          Object.fromEntries(r.ranking.map(({ candidate, ...rest }) => [map(candidate), rest]));
        expect(copelandBy(copeland(renamedBallots, { candidates: renamedCandidates }))).toEqual(
          copelandBy(copeland(ballots, { candidates }), rename),
        );
        const schulzeOf = (r: ReturnType<typeof schulze>, map: (id: string) => string = (id) => id) => ({
          entries: Object.fromEntries(r.ranking.map(({ candidate, ...rest }) => [map(candidate), rest])),
          winners: r.winners.map(map).sort(),
          condorcet: r.condorcetWinner === null ? null : map(r.condorcetWinner),
        });
        expect(schulzeOf(schulze(renamedBallots, { candidates: renamedCandidates }))).toEqual(
          schulzeOf(schulze(ballots, { candidates }), rename),
        );
        const btBy = (entries: ReturnType<typeof bradleyTerry>, map: (id: string) => string = (id) => id) =>
          Object.fromEntries(entries.map((e) => [map(e.candidate), e.rating]));
        closeMap(
          btBy(bradleyTerry(renamedBallots, { candidates: renamedCandidates, bootstrap: 0 })),
          btBy(bradleyTerry(ballots, { candidates, bootstrap: 0 }), rename),
        );
      }),
      { numRuns: 80 },
    );
  }, 30_000);

  it('a candidate ranked first by every ballot ranks first under every method', () => {
    const unanimousArb = fc.integer({ min: 2, max: 6 }).chain((n) => {
      const candidates = ALL.slice(0, n);
      return fc.record({
        candidates: fc.constant(candidates),
        winner: fc.constantFrom(...candidates),
        rests: fc.array(
          fc.record({
            reviewer: fc.constantFrom(...OUTSIDERS),
            rest: fc.shuffledSubarray(candidates, { minLength: 1 }),
          }),
          {
            minLength: 1,
            maxLength: 6,
          },
        ),
      });
    });
    fc.assert(
      fc.property(unanimousArb, ({ candidates, winner, rests }) => {
        const ballots: Ballot[] = rests.map(({ reviewer, rest }) => ({
          reviewer,
          ranking: [winner, ...rest.filter((c) => c !== winner)],
        }));
        // A ballot that ranks only the winner compares nothing; keep at least one real comparison.
        fc.pre(ballots.some((b) => b.ranking.length >= 2));
        const borda = calculateBordaScores(ballots, { candidates });
        expect([borda[0]!.candidate, borda[0]!.finalRank, borda[1]!.finalRank]).toEqual([winner, 1, 2]);
        const bt = bradleyTerry(ballots, { candidates, bootstrap: 0 });
        expect([bt[0]!.candidate, bt[0]!.rank]).toEqual([winner, 1]);
        expect(bt[1]!.rank).toBeGreaterThan(1);
        const cope = copeland(ballots, { candidates });
        expect(cope.ranking[0]!.candidate).toBe(winner);
        const sch = schulze(ballots, { candidates });
        expect(sch.ranking[0]!.candidate).toBe(winner);
        // Head to head it beats everyone it met; it is the Condorcet winner when it met everyone.
        const metEveryone = candidates.every((c) => c === winner || ballots.some((b) => b.ranking.includes(c)));
        if (metEveryone) {
          expect(cope.condorcetWinner).toBe(winner);
          expect(sch.winners).toEqual([winner]);
        }
      }),
      { numRuns: 100 },
    );
  }, 30_000);

  it('adding an abstention changes nothing, under every method', () => {
    fc.assert(
      fc.property(councilArb, fc.nat(), fc.shuffledSubarray(ALL), ({ candidates, ballots }, at, ranking) => {
        const position = ballots.length === 0 ? 0 : at % (ballots.length + 1);
        const more = [
          ...ballots.slice(0, position),
          { reviewer: 'r9', ranking, abstained: true },
          ...ballots.slice(position),
        ];
        expect(calculateBordaScores(more, { candidates })).toEqual(calculateBordaScores(ballots, { candidates }));
        expect(bradleyTerry(more, { candidates, bootstrap: 20, seed: 3 })).toEqual(
          bradleyTerry(ballots, { candidates, bootstrap: 20, seed: 3 }),
        );
        expect(copeland(more, { candidates })).toEqual(copeland(ballots, { candidates }));
        expect(schulze(more, { candidates })).toEqual(schulze(ballots, { candidates }));
        expect(outcome(() => kendallW(more, { candidates }))).toEqual(outcome(() => kendallW(ballots, { candidates })));
        expect(outcome(() => krippendorffAlpha(more, { candidates }))).toEqual(
          outcome(() => krippendorffAlpha(ballots, { candidates })),
        );
      }),
      { numRuns: 60 },
    );
  }, 30_000);

  it('scores, ratings, probabilities and agreement stay in range, and nothing is ever NaN', () => {
    fc.assert(
      fc.property(councilArb, ({ candidates, ballots }) => {
        const n = candidates.length;
        const borda = calculateBordaScores(ballots, { candidates });
        expect(borda).toHaveLength(n);
        for (const e of borda) {
          expect(e.bordaScore >= 0 && e.bordaScore <= 1).toBe(true);
          expect(e.bordaPoints >= 0 && e.bordaPoints <= n - 1).toBe(true);
          expect(e.winCount <= e.voteCount && e.finalRank >= 1 && e.finalRank <= n).toBe(true);
        }
        const bt = bradleyTerry(ballots, { candidates, bootstrap: 20 });
        let pBestSum = 0;
        for (const e of bt) {
          expect(Number.isFinite(e.rating) && e.interval.lower <= e.interval.upper).toBe(true);
          expect(e.pBest >= 0 && e.pBest <= 1).toBe(true);
          expect(
            1 <= e.rankInterval.best && e.rankInterval.best <= e.rankInterval.worst && e.rankInterval.worst <= n,
          ).toBe(true);
          pBestSum += e.pBest;
        }
        expect(pBestSum).toBeCloseTo(1, 9);
        const w = outcome(() => kendallW(ballots, { candidates }));
        if (!('error' in w)) expect(w.w >= 0 && w.w <= 1 && w.pValue >= 0 && w.pValue <= 1).toBe(true);
        const alpha = outcome(() => krippendorffAlpha(ballots, { candidates }));
        if (!('error' in alpha)) expect(alpha.alpha <= 1 + 1e-12).toBe(true);
        for (const result of [borda, bt, w, alpha, copeland(ballots, { candidates }), schulze(ballots, { candidates })])
          expect(containsNaN(result)).toBe(false);
      }),
      { numRuns: 100 },
    );
  }, 30_000);

  it('aggregateLeaderboards: permuting sessions changes nothing, intervals included (same seed)', () => {
    const sessionArb = fc.array(councilArb, { minLength: 1, maxLength: 12 }).map((councils) =>
      councils.map(({ candidates, ballots }, i) => ({
        id: `s${i}`,
        category: i % 3 === 0 ? 'code' : 'math',
        leaderboard: calculateBordaScores(ballots, { candidates }),
      })),
    );
    fc.assert(
      fc.property(sessionArb, fc.integer(), (sessions, seed) => {
        const shuffled = fc.sample(
          fc.shuffledSubarray(sessions, { minLength: sessions.length, maxLength: sessions.length }),
          { numRuns: 1, seed },
        )[0]!;
        for (const byCategory of [false, true]) {
          const a = aggregateLeaderboards(sessions, { byCategory, bootstrap: 200, seed: 7 });
          const b = aggregateLeaderboards(shuffled, { byCategory, bootstrap: 200, seed: 7 });
          expect(
            b.map((e) => [e.candidate, e.category, e.rank, e.totalVotes, e.totalWins, e.appearances, e.interval]),
          ).toEqual(
            a.map((e) => [e.candidate, e.category, e.rank, e.totalVotes, e.totalWins, e.appearances, e.interval]),
          );
          b.forEach((e, i) => expect(e.aggregateBorda).toBeCloseTo(a[i]!.aggregateBorda, 12));
          for (const e of a) {
            expect(e.aggregateBorda >= 0 && e.aggregateBorda <= 1).toBe(true);
            if (e.interval)
              expect(e.interval.lower <= e.interval.upper && e.interval.lower >= 0 && e.interval.upper <= 1).toBe(true);
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 30_000);

  it('kendallW is 1 for identical rankings', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((n) => fc.shuffledSubarray(ALL.slice(0, n), { minLength: n, maxLength: n })),
        fc.integer({ min: 2, max: 7 }),
        (ranking, m) => {
          const ballots = Array.from({ length: m }, (_, i) => ({ reviewer: `r${i}`, ranking }));
          expect(kendallW(ballots).w).toBeCloseTo(1, 12);
        },
      ),
    );
  }, 30_000);
});
