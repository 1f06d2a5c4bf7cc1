import { describe, expect, it } from 'vitest';
import { median } from './describe.js';

describe('median', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even count, whatever the order', () => {
    // Sorted: 1 2 3 5 9 → 3.
    expect(median([9, 1, 5, 3, 2])).toBe(3);
    // Sorted: 1 2 4 7 → (2 + 4) / 2 = 3.
    expect(median([7, 2, 1, 4])).toBe(3);
    // Sorted: −4 −1 −1 0.5 6 8 → (−1 + 0.5) / 2 = −0.25.
    expect(median(Float64Array.of(8, -1, 0.5, -4, 6, -1))).toBe(-0.25);
    expect(median([42])).toBe(42);
  });

  it('handles ties, and long runs of one value', () => {
    expect(median([2, 2, 2, 1, 3])).toBe(2);
    // 1,000 ones and 1,001 threes: the 1,001st of 2,001 sorted values is a 3.
    const values = [...Array.from({ length: 1000 }, () => 1), ...Array.from({ length: 1001 }, () => 3)].reverse();
    expect(median(values)).toBe(3);
  });

  it('gives a zero the sign a sort would (−0 sorts before 0), as the sort it replaced did', () => {
    // Sorted: −1 −0 0 → the middle one is −0.
    expect(Object.is(median([0, -1, -0]), -0)).toBe(true);
    // Sorted: −0 0 0 → 0.
    expect(Object.is(median([0, -0, 0]), 0)).toBe(true);
  });

  it('leaves its argument as it was', () => {
    const values = Float64Array.of(3, 1, 2);
    median(values);
    expect(Array.from(values)).toEqual([3, 1, 2]);
  });
});
