import { describe, expect, it } from 'vitest';
import { quantileSorted } from './quantile.js';

describe('quantileSorted', () => {
  it("interpolates linearly between order statistics (type 7, R's default)", () => {
    // R: quantile(c(1, 2, 3, 4), c(0, .25, .5, .975, 1)) → 1, 1.75, 2.5, 3.925, 4
    // (position (n − 1)q: .75 → 1 + .75; 1.5 → 2.5; 2.925 → 3 + .925).
    const sorted = [1, 2, 3, 4];
    expect([0, 0.25, 0.5, 0.975, 1].map((q) => quantileSorted(sorted, q))).toEqual([1, 1.75, 2.5, 3.925, 4]);
    expect(quantileSorted([7], 0.025)).toBe(7);
  });

  it('reads a probability outside [0, 1] as the nearest end (the smallest or the largest value)', () => {
    expect(quantileSorted([1, 2, 3, 4], -0.1)).toBe(1);
    expect(quantileSorted([1, 2, 3, 4], 1.2)).toBe(4);
  });
});
