import { describe, expect, it } from 'vitest';
import type { BiasObservation } from './bias-observation.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';
import { effectiveJudges } from './effective-judges.js';
import { simulateIssue31Councils } from './study/simulate-issue-31-councils.js';

/** One answer of `A` a session, scored by X, Y and Z at position 0. */
function sessions(scores: [number, number, number][]): BiasObservation[] {
  return scores.flatMap((given, s) =>
    (['X', 'Y', 'Z'] as const).map((reviewer, r) => ({
      sessionId: `s${s}`,
      timestamp: new Date(Date.UTC(2026, 10, 1) + s * 3_600_000).toISOString(),
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
    // X and Y give the same score every time; Z differs. Twelve times over: (5, 5, 7), (7, 7, 5), (6, 6, 6), (6, 6, 4).
    // d(X,Y) = 0 always: Var 0. d(X,Z) = d(Y,Z) = −2, 2, 0, 2 (×12): mean 0.5, Σ(d − 0.5)² = 12·11 = 132, Var = 132/47.
    // The typical pairs' variance: the core of 2 of 3 is the two equal ones (132/47); X,Y's distance from it in its own
    // standard error, (0 − c)/(4.685·c·√(2/47)) = −1.035, is beyond the biweight's reach: weight 0. So 2σ̂² = 132/47,
    // ρ(X,Y) = 1 − 0 = 1, ρ(X,Z) = ρ(Y,Z) = 0; ρ̄ = 1/3; n_eff = 3/(1 + 2/3) = 1.8; the pair X, Y is worth 2/(1 + 1)
    // = 1 judge, X, Z 2.
    const pattern: [number, number, number][] = [
      [5, 5, 7],
      [7, 7, 5],
      [6, 6, 6],
      [6, 6, 4],
    ];
    const judges = effectiveJudges(sessions(Array.from({ length: 12 }, () => pattern).flat()), { resamples: 0 });
    expect(judges.reviewers).toBe(3);
    expect(judges.errorVariance).toBeCloseTo(66 / 47, 12);
    expect(judges.meanCorrelation.estimate).toBeCloseTo(1 / 3, 12);
    expect(judges.effective.estimate).toBeCloseTo(1.8, 12);
    expect(judges.standardErrorFactor).toBeCloseTo(Math.sqrt(3 / 1.8), 12);
    const xy = judges.pairs.find((p) => p.reviewer === 'X' && p.other === 'Y')!;
    expect(xy.answers).toBe(48);
    expect(xy.correlation.estimate).toBeCloseTo(1, 12);
    expect(xy.effective.estimate).toBeCloseTo(1, 12);
    const xz = judges.pairs.find((p) => p.reviewer === 'X' && p.other === 'Z')!;
    expect(xz.effective.estimate).toBeCloseTo(2, 12);
    expect(judges.statement).toMatch(/^3 judges, 1\.8 effective/);
    expect(judges.statement).not.toMatch(/less sure/); // no interval, nothing to qualify
  });

  it('gives the estimate itself as the interval where every resample gives the same figures (hand-worked)', () => {
    // The council above: X and Y agree on every answer, so every session, jackknife sample and bootstrap replicate has
    // Var(d) = 0 for X, Y and the same Var(d) for X, Z as for Y, Z: ρ = 1, 0, 0, ρ̄ = 1/3 and n_eff = 1.8 in each (a
    // replicate keeps 48 answers, so X, Y stays beyond the biweight's reach). Nothing varies: the intervals are points.
    const pattern: [number, number, number][] = [
      [5, 5, 7],
      [7, 7, 5],
      [6, 6, 6],
      [6, 6, 4],
    ];
    const judges = effectiveJudges(sessions(Array.from({ length: 12 }, () => pattern).flat()), { resamples: 200 });
    expect(judges.effective.lower!).toBeCloseTo(1.8, 12);
    expect(judges.effective.upper!).toBeCloseTo(1.8, 12);
    expect(judges.meanCorrelation.lower!).toBeCloseTo(1 / 3, 12);
    expect(judges.meanCorrelation.upper!).toBeCloseTo(1 / 3, 12);
    const xy = judges.pairs.find((p) => p.reviewer === 'X' && p.other === 'Y')!;
    expect([xy.correlation.lower, xy.correlation.upper]).toEqual([1, 1]);
    expect([xy.effective.lower, xy.effective.upper]).toEqual([1, 1]);
    const yz = judges.pairs.find((p) => p.reviewer === 'Y' && p.other === 'Z')!;
    expect(yz.correlation.lower!).toBeCloseTo(0, 12);
    expect(yz.correlation.upper!).toBeCloseTo(0, 12);
  });

  it('counts only pairs with minAnswers answers in common, and says when none has', () => {
    const judges = effectiveJudges(sessions([[5, 5, 7]]), { resamples: 0 });
    expect(judges.pairs).toEqual([]);
    expect(judges.statement).toMatch(/Not computable/);
  });

  it('gives a bootstrap-t interval around the estimate, and says below 50 sessions that it is less sure', () => {
    const rows: [number, number, number][] = [];
    for (let s = 0; s < 30; s++) rows.push([5 + (s % 3), 5 + (s % 3) + (s % 2), 6 + ((s * 7) % 5) - 2]);
    const judges = effectiveJudges(sessions(rows), { resamples: 300, seed: 2 });
    expect(judges.effective.lower!).toBeLessThanOrEqual(judges.effective.estimate);
    expect(judges.effective.upper!).toBeGreaterThanOrEqual(judges.effective.estimate);
    expect(judges.effective.upper!).toBeLessThanOrEqual(3);
    // Under 50 sessions the statement says the interval is less sure than its 95% (issue 31's study: 89.5% at 20 with
    // two blocks).
    expect(judges.statement).toMatch(/With 30 sessions \(under 50\) the interval is less sure than it says/);
  });

  it('gives the jackknife t interval where ρ̄ is smooth: one pair far beyond the biweight, two typical ones (by definition)', () => {
    // 120 sessions: X and Y share most of their error (their own parts SD 0.3), Z errs alone; scores to quarters.
    // Var(d_XY) ≈ 0.18 against 2σ̂² ≈ 2.2: X, Y sits about 7 of its standard errors (2σ̂²·√(2/119)) below the typical
    // variance, beyond the biweight's reach 4.685 by more than 2, and the two typical pairs sit symmetrically about
    // their centre, well inside it, so ρ̄ is a smooth function of the pairs' variances and its interval is the
    // jackknife's: ρ̄ ± t₀.₉₇₅,₁₁₉·SE, SE = √((S − 1)/S · Σ(ρ̄₍s₎ − ρ̄₍·₎)²) over the 120 delete-one-session values,
    // here each computed from scratch by the whole estimator (no resamples) on the data without session s.
    const random = createSeededSfc32(7);
    const rows: [number, number, number][] = [];
    for (let s = 0; s < 120; s++) {
      const shared = random.normal();
      const own = [0.3 * random.normal(), 0.3 * random.normal(), 1.04 * random.normal()];
      rows.push([6 + shared + own[0]!, 6 + shared + own[1]!, 6 + own[2]!].map((x) => Math.round(4 * x) / 4) as never);
    }
    const judges = effectiveJudges(sessions(rows), { resamples: 200, seed: 3 });
    const values = rows.map(
      (_, s) => effectiveJudges(sessions(rows.filter((_, k) => k !== s)), { resamples: 0 }).meanCorrelation.estimate,
    );
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const se = Math.sqrt((119 / 120) * values.reduce((a, b) => a + (b - mean) ** 2, 0));
    const t = 1.980099; // Student's t, 0.975 quantile, 119 degrees of freedom (tables)
    const { estimate, lower, upper } = judges.meanCorrelation;
    expect(lower!).toBeCloseTo(estimate - t * se, 6);
    expect(upper!).toBeCloseTo(estimate + t * se, 6);
    // n_eff's interval is the map of ρ̄'s: R/(1 + (R − 1)·ρ̄) at each end, the upper from ρ̄'s lower bound.
    expect(judges.effective.lower!).toBeCloseTo(3 / (1 + 2 * upper!), 10);
    expect(judges.effective.upper!).toBeCloseTo(3 / (1 + 2 * lower!), 10);
  });

  it('keeps n_eff and its interval within [1, R] around the estimate, even where ρ̄ reads far below 0 (four sessions)', () => {
    // With four sessions a replicate's ρ̄ can fall below −1/(R − 1), where R/(1 + (R − 1)·ρ̄) turns negative: that is
    // "at least R judges", not 1.
    for (let seed = 1; seed <= 5; seed++) {
      const judges = effectiveJudges(simulateIssue31Councils({ sessions: 4, seed, quality: [0, 0, 0, 0, 0] }), {
        resamples: 200,
        seed,
      });
      const { estimate, lower, upper } = judges.effective;
      expect(lower!).toBeGreaterThanOrEqual(1);
      expect(lower!).toBeLessThanOrEqual(estimate);
      expect(upper!).toBeGreaterThanOrEqual(estimate);
      expect(upper!).toBeLessThanOrEqual(judges.reviewers);
    }
  });
});
