import { describe, expect, it } from 'vitest';
import { fixed, withInterval } from './format.js';

// The first hour's dashboard showed a reviewer's offset as "-0.00 [-0.09, 0.09]": -0.0012 rounded to two decimals.
describe('fixed', () => {
  it('drops the minus sign of a value that rounds to zero, and keeps every other sign', () => {
    expect(fixed(-0.0012)).toBe('0.00');
    expect(fixed(-0)).toBe('0.00');
    expect(fixed(-0.004, 2)).toBe('0.00');
    expect(fixed(-0.4, 0)).toBe('0');
    expect(fixed(-0.005001)).toBe('-0.01');
    expect(fixed(-1.55)).toBe('-1.55');
    expect(fixed(0.0012)).toBe('0.00');
    expect(fixed(null)).toBe('–');
    expect(fixed(Number.NaN)).toBe('–');
    expect(withInterval(-0.0012, -0.0921, 0.0934)).toBe('0.00 [-0.09, 0.09]');
  });
});
