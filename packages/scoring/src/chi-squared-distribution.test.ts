import { describe, expect, it } from 'vitest';
import { chiSquaredSf } from './chi-squared-distribution.js';
import { logGamma } from './log-gamma.js';

describe('chiSquaredSf', () => {
  it('matches the closed forms: df = 2 is exp(−x/2); df = 4 is exp(−x/2)(1 + x/2)', () => {
    for (const x of [0.1, 1, 2.5, 6, 15, 40]) {
      expect(chiSquaredSf(x, 2)).toBeCloseTo(Math.exp(-x / 2), 13);
      expect(chiSquaredSf(x, 4)).toBeCloseTo(Math.exp(-x / 2) * (1 + x / 2), 13);
    }
  });

  it('matches the 5% and 1% critical values of published χ² tables (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.4)', () => {
    // Upper-tail critical values: df 1: 3.841, 6.635; df 3: 7.815, 11.345; df 10: 18.307, 23.209; df 30: 43.773, 50.892.
    const table: [number, number, number][] = [
      [1, 3.841, 0.05],
      [1, 6.635, 0.01],
      [3, 7.815, 0.05],
      [3, 11.345, 0.01],
      [10, 18.307, 0.05],
      [10, 23.209, 0.01],
      [30, 43.773, 0.05],
      [30, 50.892, 0.01],
    ];
    // Three printed decimals move p by at most ~1e-5 here.
    for (const [df, x, p] of table) expect(Math.abs(chiSquaredSf(x, df) - p)).toBeLessThan(2e-5);
  });

  it('is 1 at 0 and falls toward 0, never NaN', () => {
    expect(chiSquaredSf(0, 5)).toBe(1);
    expect(chiSquaredSf(1e4, 5)).toBe(0);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12); // Γ(5) = 4! = 24
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12); // Γ(½) = √π
  });
});
