import { describe, expect, it } from 'vitest';
import { itemBootstrap } from './item-bootstrap.js';

const meanOf =
  (values: readonly number[]) =>
  (indices: readonly number[]): number =>
    indices.reduce((s, i) => s + values[i]!, 0) / indices.length;

describe('itemBootstrap', () => {
  it('gives a zero-width interval when every item agrees', () => {
    const r = itemBootstrap(6, meanOf([1, 1, 1, 1, 1, 1]), { bootstrap: 200 });
    expect(r).toEqual({ estimate: 1, interval: { lower: 1, upper: 1 }, replicates: 200 });
  });

  it('brackets a proportion about as the binomial does', () => {
    // 5 of 10 correct: the resampled share is Binomial(10, ½)/10, whose 2.5% and 97.5% points are 0.2 and 0.8.
    const r = itemBootstrap(10, meanOf([1, 0, 1, 0, 1, 0, 1, 0, 1, 0]), { bootstrap: 4000, seed: 3 });
    expect(r.estimate).toBe(0.5);
    expect(r.interval!.lower).toBeGreaterThanOrEqual(0.1);
    expect(r.interval!.lower).toBeLessThanOrEqual(0.3);
    expect(r.interval!.upper).toBeGreaterThanOrEqual(0.7);
    expect(r.interval!.upper).toBeLessThanOrEqual(0.9);
  });

  it('leaves out replicates where the statistic is undefined, and gives no interval when most are', () => {
    const never = itemBootstrap(5, () => null, { bootstrap: 50 });
    expect(never).toEqual({ estimate: null, interval: null, replicates: 0 });
    const none = itemBootstrap(0, () => 1);
    expect(none).toEqual({ estimate: null, interval: null, replicates: 0 });
  });

  it('is reproducible from its seed', () => {
    const f = meanOf([3, 1, 4, 1, 5, 9, 2, 6]);
    expect(itemBootstrap(8, f, { seed: 'x' })).toEqual(itemBootstrap(8, f, { seed: 'x' }));
  });
});
