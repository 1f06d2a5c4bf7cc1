import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson-interval.js';

// Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of seven
// methods", Statistics in Medicine 17: 857–872, Table I, method 3 (Wilson score, no continuity correction).
describe('wilsonInterval', () => {
  it.each([
    { x: 81, n: 263, lower: 0.2553, upper: 0.3662 },
    { x: 15, n: 148, lower: 0.0624, upper: 0.1605 },
    { x: 0, n: 20, lower: 0, upper: 0.1611 },
    { x: 1, n: 29, lower: 0.0061, upper: 0.1718 },
    { x: 29, n: 29, lower: 0.883, upper: 1 },
  ])('$x/$n → [$lower, $upper] (Newcombe 1998, Table I)', ({ x, n, lower, upper }) => {
    const interval = wilsonInterval(x, n);
    expect(interval.lower).toBeCloseTo(lower, 4);
    expect(interval.upper).toBeCloseTo(upper, 4);
  });

  it('is [0, 1] without trials and rejects impossible counts', () => {
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1 });
    expect(() => wilsonInterval(5, 4)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 4)).toThrow(RangeError);
  });

  it('matches the interval worked by hand, and never collapses at 0 or 100% (council eval’s share of items)', () => {
    // 0 of 5: centre (0 + 0.38415)/1.76829 = 0.21724, half (1.96/1.76829)·√(0.76829/20) = 0.21724 → [0, 0.4345].
    const none = wilsonInterval(0, 5);
    expect(none.lower).toBe(0);
    expect(none.upper).toBeCloseTo(0.4345, 3);
    const all = wilsonInterval(19, 19);
    expect(all.upper).toBe(1);
    expect(all.lower).toBeLessThan(0.9);
  });

  it('widens with the level', () => {
    const at95 = wilsonInterval(50, 100);
    const at99 = wilsonInterval(50, 100, 0.99);
    expect(at99.lower).toBeLessThan(at95.lower);
    expect(at99.upper).toBeGreaterThan(at95.upper);
  });
});
