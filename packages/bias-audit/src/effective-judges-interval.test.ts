import { describe, expect, it } from 'vitest';
import { bootstrapTInterval, jackknifeStandardError } from './effective-judges-interval.js';

describe('jackknifeStandardError', () => {
  it('is √((G − 1)/G · Σ(θ₍g₎ − θ̄)²) (hand-worked)', () => {
    // 1, 2, 3, 6: mean 3, squares 4 + 1 + 0 + 9 = 14, (3/4)·14 = 10.5.
    expect(jackknifeStandardError([1, 2, 3, 6])).toBeCloseTo(Math.sqrt(10.5), 14);
    expect(jackknifeStandardError([0.3, 0.3, 0.3])).toBe(0);
    expect(jackknifeStandardError([5])).toBeNaN();
  });
});

describe('bootstrapTInterval', () => {
  it('reads the pivots’ quantiles the other way round, scaled by the standard error (hand-worked)', () => {
    // Pivots −10…10 (21 values): the 5% and 95% quantiles are positions 1 and 19 of the sorted list, −9 and 9, so the
    // 90% interval is 0.5 ∓ 9·0.01; the 2.5% and 97.5% ones are positions 0.5 and 19.5, −9.5 and 9.5.
    const pivots = Array.from({ length: 21 }, (_, i) => i - 10).reverse();
    expect(bootstrapTInterval({ estimate: 0.5, standardError: 0.01, pivots, level: 0.9 })).toEqual({
      lower: expect.closeTo(0.41, 14) as number,
      upper: expect.closeTo(0.59, 14) as number,
    });
    const wider = bootstrapTInterval({ estimate: 0.5, standardError: 0.01, pivots, level: 0.95 })!;
    expect(wider.lower).toBeCloseTo(0.405, 14);
    expect(wider.upper).toBeCloseTo(0.595, 14);
  });

  it('moves the interval against the pivots’ skew: replicates above the estimate put the truth below it', () => {
    // Pivots 0…10 and a NaN (left out): 11 values, the 10% and 90% quantiles 1 and 9. 80% interval: [2 − 9·0.5, 2 − 1·0.5].
    const interval = bootstrapTInterval({
      estimate: 2,
      standardError: 0.5,
      pivots: [...Array.from({ length: 11 }, (_, i) => i), Number.NaN],
      level: 0.8,
    });
    expect(interval).toEqual({ lower: -2.5, upper: 1.5 });
  });

  it('keeps infinite pivots as order statistics, never interpolating into them', () => {
    // −∞, −3…6, ∞ (12 values): the 10% quantile is at position 1.1 (−3 + 0.1 = −2.9), the 90% at 9.9 (5.9); the 99.5%
    // one, at 10.945 between 6 and ∞, is 6.
    const pivots = [Number.NEGATIVE_INFINITY, ...Array.from({ length: 10 }, (_, i) => i - 3), Number.POSITIVE_INFINITY];
    const interval = bootstrapTInterval({ estimate: 0, standardError: 1, pivots, level: 0.8 })!;
    expect(interval.lower).toBeCloseTo(-5.9, 12);
    expect(interval.upper).toBeCloseTo(2.9, 12);
    expect(bootstrapTInterval({ estimate: 0, standardError: 1, pivots, level: 0.99 })!.lower).toBe(-6);
  });

  it('is the estimate where the standard error is 0, and null with fewer than 10 finite pivots', () => {
    const pivots = Array.from({ length: 10 }, () => 0);
    expect(bootstrapTInterval({ estimate: 1, standardError: 0, pivots, level: 0.95 })).toEqual({ lower: 1, upper: 1 });
    expect(bootstrapTInterval({ estimate: 1, standardError: 0.1, pivots: pivots.slice(1), level: 0.95 })).toBeNull();
    expect(bootstrapTInterval({ estimate: 1, standardError: Number.NaN, pivots, level: 0.95 })).toBeNull();
  });
});
