import { describe, expect, it } from 'vitest';
import { normalCdf } from './normal-distribution.js';
import { partialPool } from './partial-pooling.js';
import { fitScoreModel } from './fit-score-model.js';
import { observationsToColumns } from './observations-to-columns.js';
import { poolReviewerEffects } from './pool-reviewer-effects.js';
import { simulateCouncils } from './internal/simulate-councils.js';

describe('partialPool', () => {
  // With equal standard errors (se = 1) τ²'s posterior under the flat prior is easiest read through u = 1/(τ² + 1), the
  // share pulled away: p(τ²) ∝ (τ² + 1)^(−k/2)·exp(−Σy²/(2(τ² + 1))) and dτ² = du/u² give p(u) ∝ u^(k/2 − 2)·e^(−λu)
  // on (0, 1], λ = Σy²/2. The pooled estimate keeps 1 − E[u] of y.
  it('pools four estimates by the share τ²/(τ² + se²) averaged over τ²’s posterior (hand-worked)', () => {
    // y = 2, −2, 0, 0, se = 1: the likelihood equation with equal se² gives τ̂² = mean(y²) − 1 = 1 (the stated τ).
    // k = 4, λ = 4: p(u) ∝ e^(−4u), E[u] = 1/4 − e^(−4)/(1 − e^(−4)) = 0.25 − 0.0186573 = 0.2313427, so each keeps
    // 0.7686573: 2 → 1.5373146. (Plugging in τ̂² = 1 would keep 0.5: that is what undercovered.)
    const pooled = partialPool([2, -2, 0, 0].map((estimate, i) => ({ subject: `r${i}`, estimate, standardError: 1 })));
    expect(pooled.prior.tauSquared).toBeCloseTo(1, 12);
    expect(pooled.prior.mean).toBe(0);
    expect(pooled.prior.integration).toBe('flat_prior_on_tau_squared');
    expect(pooled.prior.statement).toContain('τ = 1.000');
    const [a, b, c] = pooled.effects;
    expect(a!.shrinkage).toBeCloseTo(0.7686573, 5);
    expect(a!.estimate).toBeCloseTo(1.5373146, 5);
    expect(b!.estimate).toBeCloseTo(-1.5373146, 5);
    expect(c!.estimate).toBe(0);
    // For y = 0 every component is centred on 0 with variance 1 − u: the 97.5% point x solves
    // ∫₀¹ 4e^(−4u)/(1 − e^(−4))·Φ(x/√(1 − u)) du = 0.975, here by Simpson's rule over u (another route than the
    // function's grid over log τ²) and bisection on x.
    const mass = (x: number): number => {
      const n = 4000;
      let total = 0;
      for (let j = 0; j <= n; j++) {
        const u = Math.min(j / n, 1 - 1e-12);
        const f = (4 * Math.exp(-4 * u) * normalCdf(x / Math.sqrt(1 - u))) / (1 - Math.exp(-4));
        total += (j === 0 || j === n ? 1 : j % 2 === 1 ? 4 : 2) * f;
      }
      return total / (3 * n);
    };
    let lo = 0;
    let hi = 3;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (mass(mid) < 0.975) lo = mid;
      else hi = mid;
    }
    expect(c!.upper).toBeCloseTo(lo, 3);
    expect(c!.lower).toBeCloseTo(-lo, 3);
    // Narrower than the raw ±1.96 (the prior helps), wider than the plug-in √0.5·1.96 = 1.386.
    expect(c!.upper).toBeLessThan(1.959964);
    expect(c!.upper).toBeGreaterThan(1.385903);
  });

  it('does not pull everything to 0 when the most likely spread is 0: τ² = 0 is only the posterior’s mode', () => {
    // y = 1, −1, 0 with se 1: mean(y²) − se² < 0, so τ̂ = 0. k = 3, λ = 1: p(u) ∝ u^(−1/2)·e^(−u), E[u] =
    // γ(3/2, 1)/γ(1/2, 1); γ(1/2, 1) = √π·erf(1) = 1.4936483, γ(3/2, 1) = γ(1/2, 1)/2 − e^(−1) = 0.3789447, E[u] =
    // 0.2537044: each keeps 0.7462956 of its raw value.
    const pooled = partialPool([1, -1, 0].map((estimate, i) => ({ subject: `r${i}`, estimate, standardError: 1 })));
    expect(pooled.prior.tau).toBe(0);
    expect(pooled.effects[0]!.shrinkage).toBeCloseTo(0.7462956, 4);
    expect(pooled.effects[0]!.estimate).toBeCloseTo(0.7462956, 4);
    expect(pooled.effects[1]!.estimate).toBeCloseTo(-0.7462956, 4);
    expect(pooled.effects[0]!.lower).toBeLessThan(0);
    expect(pooled.effects[0]!.upper).toBeGreaterThan(1);
  });

  it('solves the likelihood equation with unequal errors (root bracketed by hand in (4.3, 4.5)); two estimates are not pooled', () => {
    // y = 3 (se 1) and 0 (se 2): f(t) = (9 − t − 1)/(t + 1)² − (t + 4)/(t + 4)² is +0.011 at 4.3 and −0.002 at 4.5.
    const pooled = partialPool([
      { subject: 'a', estimate: 3, standardError: 1 },
      { subject: 'b', estimate: 0, standardError: 2 },
    ]);
    const t = pooled.prior.tauSquared;
    expect(t).toBeGreaterThan(4.3);
    expect(t).toBeLessThan(4.5);
    expect((8 - t) / (t + 1) ** 2 - 1 / (t + 4)).toBeCloseTo(0, 10);
    // Two values cannot show a spread (τ²'s posterior under a flat prior is improper below 3): each is kept as
    // measured, with its raw interval 3 ± 1.959964.
    expect(pooled.prior.integration).toBe('none_too_few_subjects');
    expect(pooled.effects.map((e) => e.shrinkage)).toEqual([1, 1]);
    expect(pooled.effects[0]!.estimate).toBe(3);
    expect(pooled.effects[0]!.upper).toBeCloseTo(3 + 1.959964, 5);
  });

  it('pulls the less precise of three estimates harder', () => {
    const pooled = partialPool([
      { subject: 'a', estimate: 1, standardError: 0.5 },
      { subject: 'b', estimate: 1, standardError: 1 },
      { subject: 'c', estimate: -1, standardError: 0.5 },
    ]);
    expect(pooled.effects[1]!.shrinkage).toBeLessThan(pooled.effects[0]!.shrinkage);
    expect(pooled.effects[0]!.shrinkage).toBeCloseTo(pooled.effects[2]!.shrinkage, 12);
  });

  it('keeps an estimate measured far more precisely than the spread, with its raw t interval', () => {
    // Offsets 0, 5, −5 with se 0.01 on 9 df: τ² ≈ 16.7 ≫ se², so each keeps all but ~1e−5 of its value and its
    // interval is the raw one, y ± t(0.975, 9)·se = ± 2.262157·0.01.
    const pooled = partialPool(
      [0, 5, -5].map((estimate, i) => ({ subject: `r${i}`, estimate, standardError: 0.01, df: 9 })),
    );
    const e = pooled.effects[1]!;
    expect(e.shrinkage).toBeGreaterThan(0.9999);
    expect(e.upper - e.lower).toBeCloseTo(2 * 2.262157 * 0.01, 5);
  });

  it('widens with the t quantile on an estimate’s df', () => {
    const z = partialPool([{ subject: 'a', estimate: 3, standardError: 1 }]).effects[0]!;
    const t = partialPool([{ subject: 'a', estimate: 3, standardError: 1, df: 5 }]).effects[0]!;
    expect(t.upper - t.lower).toBeGreaterThan(z.upper - z.lower);
  });

  it('refuses an estimate without a positive standard error', () => {
    expect(() => partialPool([{ subject: 'a', estimate: 1, standardError: 0 }])).toThrow(/positive standard error/);
  });
});

describe('partialPool with an error every estimate shares (sharedVariance)', () => {
  const inputs = [2, -2, 0, 0].map((estimate, i) => ({ subject: `r${i}`, estimate, standardError: 1 }));

  it('widens each interval to ±z·√(se² + excess) where the estimate keeps all of its value', () => {
    // Offsets 0, 100, −100 with se 0.1: every share B = τ²/(τ² + 0.01) is 1 to within 1e−6, so the posterior is
    // N(y, se² + 1²·excess): 100 ± 1.959964·√(0.01 + 0.04) = 100 ± 0.438261.
    const pooled = partialPool(
      [0, 100, -100].map((estimate, i) => ({ subject: `r${i}`, estimate, standardError: 0.1 })),
      { sharedVariance: 0.04 },
    );
    const e = pooled.effects[1]!;
    expect(e.estimate).toBeCloseTo(100, 3);
    expect(e.upper - e.estimate).toBeCloseTo(1.959964 * Math.sqrt(0.05), 4);
    expect(e.estimate - e.lower).toBeCloseTo(1.959964 * Math.sqrt(0.05), 4);
  });

  it('moves no estimate, shrinkage or τ: a shared error shifts every estimate alike and does not widen their spread', () => {
    const plain = partialPool(inputs);
    const shared = partialPool(inputs, { sharedVariance: 0.3 });
    expect({ ...shared.prior, statement: '', sharedVariance: 0 }).toEqual({ ...plain.prior, statement: '' });
    expect(shared.prior.sharedVariance).toBe(0.3);
    expect(plain.prior.sharedVariance).toBe(0);
    expect(shared.prior.statement).toContain('error all the estimates share (SD 0.548 points');
    // An SD that would print as 0.000 (4e−4 points) is not stated, though the interval still carries it.
    expect(partialPool(inputs, { sharedVariance: 0.0004 ** 2 }).prior.statement).not.toContain('also carries');
    shared.effects.forEach((e, i) => {
      const p = plain.effects[i]!;
      expect(e.estimate).toBe(p.estimate);
      expect(e.shrinkage).toBe(p.shrinkage);
      expect(e.lower).toBeLessThan(p.lower);
      expect(e.upper).toBeGreaterThan(p.upper);
    });
    expect(partialPool(inputs, { sharedVariance: 0 })).toEqual(plain);
  });

  it('carries the shared error scaled by the share kept: an estimate pulled to 0 hardly gains from it', () => {
    // For y = 0 each component is N(0, (1 − u) + (1 − u)²·excess), u the share pulled away (see the first test);
    // at the 97.5% point with excess 1 the half-width is at most 1.96·√2 (u = 0) and more than the plain one.
    const plain = partialPool(inputs).effects[2]!;
    const shared = partialPool(inputs, { sharedVariance: 1 }).effects[2]!;
    expect(shared.upper).toBeGreaterThan(plain.upper);
    expect(shared.upper).toBeLessThan(1.959964 * Math.SQRT2);
  });

  it('leaves estimates that are not pooled (fewer than three) as measured', () => {
    const two = inputs.slice(0, 2);
    expect(partialPool(two, { sharedVariance: 0.5 })).toEqual(partialPool(two));
  });

  it('refuses a negative or non-finite shared variance', () => {
    expect(() => partialPool(inputs, { sharedVariance: -0.1 })).toThrow(/sharedVariance/);
    expect(() => partialPool(inputs, { sharedVariance: Number.NaN })).toThrow(/sharedVariance/);
  });
});

describe('poolReviewerEffects', () => {
  it('pools the report’s offsets: one reviewer 1.2 harsh keeps nearly all of it, the fair ones stay near 0', () => {
    const observations = simulateCouncils({ sessions: 60, seed: 7, models: 5, reviewers: 5, reviewerOffsets: [-1.2] });
    const pooled = poolReviewerEffects(observations);
    const harsh = pooled.reviewerOffsets.effects.find((e) => e.subject === 'model-0')!;
    expect(harsh.shrinkage).toBeGreaterThan(0.9);
    expect(harsh.estimate).toBeLessThan(-0.9);
    expect(harsh.lower).toBeLessThan(-1.2 + 0.3);
    for (const fair of pooled.reviewerOffsets.effects.filter((e) => e.subject !== 'model-0'))
      expect(Math.abs(fair.estimate)).toBeLessThanOrEqual(Math.abs(fair.raw));
    expect(pooled.asDataArrives.map((c) => c.sessions)).toEqual([10, 20, 50]);
    expect(pooled.asDataArrives[0]!.offsets).toHaveLength(5);
    expect(pooled.affinity.effects.length).toBe(20);
  });

  it('widens the pooled offsets’ intervals by the centre’s error, leaving the estimates and affinities as plain pooling’s', () => {
    // Graded reviewers (−0.2…+0.2, no majority) at 50 sessions: the robust centre's weights are uncertain there.
    const columns = observationsToColumns(
      simulateCouncils({ sessions: 50, seed: 3, models: 5, reviewers: 5, reviewerOffsets: [-0.2, -0.1, 0, 0.1, 0.2] }),
    );
    const pooled = poolReviewerEffects(columns, { checkpoints: [] });
    const fit = fitScoreModel(columns);
    const inputs = (effects: typeof fit.reviewerOffsets) =>
      effects.map((e) => ({ subject: e.subject, estimate: e.estimate, standardError: e.standardError, df: e.df }));
    const plain = partialPool(inputs(fit.reviewerOffsets));
    expect(pooled.reviewerOffsets.prior.tauSquared).toBe(plain.prior.tauSquared);
    pooled.reviewerOffsets.effects.forEach((e, i) => {
      const p = plain.effects[i]!;
      expect(e.estimate).toBe(p.estimate);
      expect(e.lower).toBeLessThan(p.lower);
      expect(e.upper).toBeGreaterThan(p.upper);
    });
    expect(pooled.affinity).toEqual(partialPool(inputs(fit.affinity)));
  });

  it('hardly widens them where every reviewer is fair: the pooled offsets, the truth redrawn, sit near the centre', () => {
    const columns = observationsToColumns(simulateCouncils({ sessions: 50, seed: 3, models: 5, reviewers: 5 }));
    const pooled = poolReviewerEffects(columns, { checkpoints: [] }).reviewerOffsets;
    const fit = fitScoreModel(columns);
    const plain = partialPool(
      fit.reviewerOffsets.map((e) => ({
        subject: e.subject,
        estimate: e.estimate,
        standardError: e.standardError,
        df: e.df,
      })),
    );
    pooled.effects.forEach((e, i) => {
      const p = plain.effects[i]!;
      expect(e.upper - e.lower).toBeGreaterThanOrEqual(p.upper - p.lower);
      expect(e.upper - e.lower).toBeLessThan(1.05 * (p.upper - p.lower));
    });
  });
});
