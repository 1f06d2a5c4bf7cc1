import { describe, expect, it } from 'vitest';
import type { Ballot } from './ballot.js';
import { bradleyTerry, fitBradleyTerry } from './bradley-terry.js';
import { createRng } from './create-rng.js';
import { ScoringError } from './scoring-error.js';

const battle = (winner: string, loser: string, reviewer = 'judge'): Ballot => ({ reviewer, ranking: [winner, loser] });
const repeat = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);
const byCandidate = <T extends { candidate: string }>(entries: readonly T[]): Record<string, T> =>
  Object.fromEntries(entries.map((e) => [e.candidate, e]));

describe('bradleyTerry', () => {
  it('two candidates: strengths are in the ratio of (regularised) wins, on the Elo scale around the base', () => {
    // For two players the MLE is π_A/π_B = W_A/W_B. A wins 3, B wins 1, plus the prior's virtual tie
    // (½ each): 3.5/1.5 = 7/3. Ratings: 1000 ± 200·log10(7/3) = 1000 ± 73.596…
    const result = byCandidate(
      bradleyTerry([...repeat(3, battle('A', 'B')), battle('B', 'A')], { candidates: ['A', 'B'], bootstrap: 0 }),
    );
    expect(result.A!.rating).toBeCloseTo(1000 + 200 * Math.log10(7 / 3), 6);
    expect(result.B!.rating).toBeCloseTo(1000 - 200 * Math.log10(7 / 3), 6);
    expect(result.A!.comparisons).toBe(4);
    // scale and base move the scale: 10·log10(7/3)/2 around 0.
    const custom = byCandidate(
      bradleyTerry([...repeat(3, battle('A', 'B')), battle('B', 'A')], {
        candidates: ['A', 'B'],
        bootstrap: 0,
        scale: 10,
        base: 0,
      }),
    );
    expect(custom.A!.rating).toBeCloseTo(5 * Math.log10(7 / 3), 9);
  });

  it('a tie counts half to each side (equal scores in a ranking derived from scores)', () => {
    // A beats B once, and one ballot scores them equal: W_A = 1 + ½ + ½ (prior) = 2, W_B = 0 + ½ + ½ = 1.
    // Ratio 2 → ratings 1000 ± 200·log10 2.
    const result = byCandidate(
      bradleyTerry([battle('A', 'B'), { reviewer: 'judge', ranking: [], scores: { A: 5, B: 5 } }], {
        candidates: ['A', 'B'],
        bootstrap: 0,
      }),
    );
    expect(result.A!.rating).toBeCloseTo(1000 + 200 * Math.log10(2), 6);
    expect(result.B!.rating).toBeCloseTo(1000 - 200 * Math.log10(2), 6);
  });

  it('recovers the Elo rating gap from win rates, as Chatbot Arena reads it: P(A beats B) = 1/(1 + 10^(−d/400))', () => {
    // 20,000 battles with P(A wins) = 0.75 → d = 400·log10(0.75/0.25) = 190.85. The sampling sd of d is
    // 400/(ln 10 · 0.75 · 0.25) · sqrt(0.75 · 0.25 / 20000) ≈ 2.8 Elo; allow 12.
    const rng = createRng(2024);
    const ballots = Array.from({ length: 20000 }, () => (rng.next() < 0.75 ? battle('A', 'B') : battle('B', 'A')));
    const result = byCandidate(bradleyTerry(ballots, { candidates: ['A', 'B'], bootstrap: 200, seed: 1 }));
    const gap = result.A!.rating - result.B!.rating;
    expect(Math.abs(gap - 400 * Math.log10(3))).toBeLessThan(12);
    // Each rating is base ± gap/2, so its sd is ≈ 1.4 and its 95% interval ≈ 2 · 1.96 · 1.4 ≈ 5.5 wide.
    const width = result.A!.interval.upper - result.A!.interval.lower;
    expect(width).toBeGreaterThan(3.5);
    expect(width).toBeLessThan(8);
    expect(result.A!.pBest).toBe(1);
    expect(result.B!.pBest).toBe(0);
  });

  it('satisfies the likelihood equations W_i = Σ_j n_ij π_i/(π_i + π_j) at the fitted strengths', () => {
    // Wins matrix (row beats column), prior already added: any positive off-diagonal matrix has a unique fit.
    const n = 4;
    const wins = Float64Array.from([0, 3.5, 1.5, 6.5, 0.5, 0, 4.5, 2.5, 2.5, 1.5, 0, 0.5, 0.5, 3.5, 5.5, 0]);
    const p = fitBradleyTerry(wins, n);
    for (let i = 0; i < n; i++) {
      let observed = 0;
      let expected = 0;
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        observed += wins[i * n + j]!;
        expected += ((wins[i * n + j]! + wins[j * n + i]!) * p[i]!) / (p[i]! + p[j]!);
      }
      expect(expected).toBeCloseTo(observed, 8);
    }
    expect(p.reduce((a, b) => a * b, 1)).toBeCloseTo(1, 10); // geometric mean 1
  });

  it('keeps ratings finite for a candidate that never loses and one that never wins; a cycle is a three-way tie', () => {
    const ballots = [...repeat(5, { reviewer: 'j', ranking: ['A', 'B', 'C'] }), battle('A', 'C')];
    const result = bradleyTerry(ballots, { candidates: ['A', 'B', 'C'], bootstrap: 50 });
    expect(result.map((e) => e.candidate)).toEqual(['A', 'B', 'C']);
    for (const e of result) {
      expect(Number.isFinite(e.rating) && Number.isFinite(e.interval.lower) && Number.isFinite(e.interval.upper)).toBe(
        true,
      );
    }
    // A > B > C once each way round the cycle: by symmetry all strengths are equal.
    const cycle = bradleyTerry([battle('A', 'B'), battle('B', 'C'), battle('C', 'A')], {
      candidates: ['A', 'B', 'C'],
      bootstrap: 0,
    });
    for (const e of cycle) {
      expect(e.rating).toBeCloseTo(1000, 9);
      expect(e.rank).toBe(1);
      expect(e.pBest).toBeCloseTo(1 / 3, 12);
    }
    // No data at all: everyone at the base.
    expect(bradleyTerry([], { candidates: ['A', 'B'], bootstrap: 10 }).map((e) => e.rating)).toEqual([1000, 1000]);
  });

  it('reports rank intervals from the bootstrap intervals: 1 + #{j: lower_j > upper_i} … n − #{j: upper_j < lower_i}', () => {
    // A clearly best, B and C indistinguishable (equal records), D clearly worst.
    const ballots: Ballot[] = [];
    for (let k = 0; k < 200; k++)
      ballots.push({ reviewer: `r${k}`, ranking: k % 2 === 0 ? ['A', 'B', 'C', 'D'] : ['A', 'C', 'B', 'D'] });
    const result = byCandidate(bradleyTerry(ballots, { candidates: ['A', 'B', 'C', 'D'], bootstrap: 200, seed: 4 }));
    const { A, B, C, D } = result as Record<'A' | 'B' | 'C' | 'D', (typeof result)[string]>;
    // The formula, evaluated on the returned intervals…
    const entries = [A, B, C, D];
    for (const e of entries) {
      const above = entries.filter((o) => o !== e && o.interval.lower > e.interval.upper).length;
      const below = entries.filter((o) => o !== e && o.interval.upper < e.interval.lower).length;
      expect(e.rankInterval).toEqual({ best: 1 + above, worst: 4 - below });
    }
    // …and what it should say here: A is 1st, D 4th, B and C each somewhere in 2…3.
    expect(A.rankInterval).toEqual({ best: 1, worst: 1 });
    expect(D.rankInterval).toEqual({ best: 4, worst: 4 });
    expect(B.rankInterval).toEqual({ best: 2, worst: 3 });
    expect(C.rankInterval).toEqual({ best: 2, worst: 3 });
    expect(A.pBest).toBe(1);
    expect(B.rating).toBeCloseTo(C.rating, 6);
    expect([B.rank, C.rank]).toEqual([2, 2]);
  });

  it('removes self-votes, weights ballots, and is the same for the same seed', () => {
    // Reviewer A's [A, B, C] becomes [B, C]: the only outcome is B over C; A has no comparisons.
    const self = byCandidate(
      bradleyTerry([{ reviewer: 'A', ranking: ['A', 'B', 'C'] }], { candidates: ['A', 'B', 'C'], bootstrap: 0 }),
    );
    expect([self.A!.comparisons, self.B!.comparisons, self.C!.comparisons]).toEqual([0, 1, 1]);
    // A weight-2 ballot counts as two ballots.
    const weighted = bradleyTerry([{ ...battle('A', 'B'), weight: 2 }, battle('B', 'A')], {
      candidates: ['A', 'B'],
      bootstrap: 0,
    });
    const doubled = bradleyTerry([battle('A', 'B'), battle('A', 'B'), battle('B', 'A')], {
      candidates: ['A', 'B'],
      bootstrap: 0,
    });
    expect(weighted.map((e) => e.rating)).toEqual(doubled.map((e) => e.rating));
    const ballots = [battle('A', 'B'), battle('B', 'C'), battle('A', 'C'), battle('C', 'A')];
    expect(bradleyTerry(ballots, { candidates: ['A', 'B', 'C'], seed: 'x', bootstrap: 30 })).toEqual(
      bradleyTerry(ballots, { candidates: ['A', 'B', 'C'], seed: 'x', bootstrap: 30 }),
    );
  });

  it('rejects weights whose comparisons overflow, instead of returning NaN ratings', () => {
    let error: unknown;
    try {
      bradleyTerry([{ reviewer: 'x', ranking: ['a', 'b', 'c'], weight: 1e308 }], {
        candidates: ['a', 'b', 'c'],
        bootstrap: 0,
      });
    } catch (e) {
      error = e;
    }
    expect(ScoringError.isInstance(error) && error.code).toBe('INVALID_WEIGHT');
  });

  it('rejects bad options with INVALID_OPTION', () => {
    const bad = (options: object): string => {
      try {
        bradleyTerry([], { candidates: ['A', 'B'], ...options });
      } catch (error) {
        expect(ScoringError.isInstance(error) && error.code).toBe('INVALID_OPTION');
        return (error as Error).message;
      }
      throw new Error('expected a ScoringError');
    };
    expect(bad({ prior: 0 })).toMatch(/options.prior must be a finite number > 0/);
    expect(bad({ scale: -400 })).toMatch(/options.scale/);
    expect(bad({ base: Number.NaN })).toMatch(/options.base must be a finite number/);
    expect(bad({ bootstrap: 1.5 })).toMatch(/options.bootstrap/);
    expect(bad({ seed: 0.5 })).toMatch(/options.seed/);
  });
});
