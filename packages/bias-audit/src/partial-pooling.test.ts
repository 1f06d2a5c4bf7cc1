import { describe, expect, it } from 'vitest';
import { partialPool } from './partial-pooling.js';
import { poolReviewerEffects } from './pool-reviewer-effects.js';
import { simulateCouncils } from './internal/simulate-councils.js';

describe('partialPool', () => {
  it('pools four estimates with τ² = mean(y²) − se² when the errors are equal (hand-worked)', () => {
    // y = 2, −2, 0, 0, se = 1: the likelihood equation with equal se² gives τ² = mean(y²) − 1 = 2 − 1 = 1, so
    // B = 1/(1 + 1) = 0.5 and the pooled estimates are 1, −1, 0, 0. Var(τ̂²) = 2/Σ(τ² + se²)⁻² = 2/(4/4) = 2;
    // ∂B/∂τ² = se²/(τ² + se²)² = 1/4. For y = 2: variance 0.5·1 + 4·(1/4)²·2 = 1, half-width 1.959964;
    // for y = 0: 0.5, half-width 1.959964·√0.5 = 1.385903.
    const pooled = partialPool([2, -2, 0, 0].map((estimate, i) => ({ subject: `r${i}`, estimate, standardError: 1 })));
    expect(pooled.prior.tauSquared).toBeCloseTo(1, 12);
    expect(pooled.prior.mean).toBe(0);
    expect(pooled.prior.statement).toContain('N(0, 1.000²)');
    const [a, b, c] = pooled.effects;
    expect(a!.shrinkage).toBeCloseTo(0.5, 12);
    expect(a!.estimate).toBeCloseTo(1, 12);
    expect(b!.estimate).toBeCloseTo(-1, 12);
    expect(a!.upper - a!.estimate).toBeCloseTo(1.959964, 5);
    expect(c!.estimate).toBe(0);
    expect(c!.upper).toBeCloseTo(1.385903, 5);
  });

  it('pools everything to 0 when the spread is no more than the noise (τ² = 0), the correction giving the width', () => {
    // y = 1, −1 with se 1: mean(y²) − se² = 0. Var(τ̂²) = 2/(1 + 1) = 1, ∂B/∂τ² = 1: variance 1·1·1 = 1.
    const pooled = partialPool([
      { subject: 'a', estimate: 1, standardError: 1 },
      { subject: 'b', estimate: -1, standardError: 1 },
    ]);
    expect(pooled.prior.tau).toBe(0);
    expect(pooled.effects.map((e) => e.estimate)).toEqual([0, -0]);
    expect(pooled.effects[0]!.upper).toBeCloseTo(1.959964, 5);
  });

  it('solves the likelihood equation with unequal errors (root bracketed by hand in (4.3, 4.5))', () => {
    // y = 3 (se 1) and 0 (se 2): f(t) = (9 − t − 1)/(t + 1)² − (t + 4)/(t + 4)² is +0.011 at 4.3 and −0.002 at 4.5.
    const pooled = partialPool([
      { subject: 'a', estimate: 3, standardError: 1 },
      { subject: 'b', estimate: 0, standardError: 2 },
    ]);
    const t = pooled.prior.tauSquared;
    expect(t).toBeGreaterThan(4.3);
    expect(t).toBeLessThan(4.5);
    expect((8 - t) / (t + 1) ** 2 - 1 / (t + 4)).toBeCloseTo(0, 10);
    // The less precise estimate is pulled harder.
    expect(pooled.effects[1]!.shrinkage).toBeLessThan(pooled.effects[0]!.shrinkage);
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
});
