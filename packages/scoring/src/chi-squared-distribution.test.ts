import { describe, expect, it } from 'vitest';
import scipyJson from './__fixtures__/scipy-chi-squared.json';
import { chiSquaredCdf, chiSquaredSf } from './chi-squared-distribution.js';
import { logGamma } from './log-gamma.js';
import { ScoringError } from './scoring-error.js';

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

// SciPy's chi2.cdf and chi2.sf at 120 points, df 0.5 to 1000 (the rows bias-audit's distribution tests
// were generated with; `source` records the SciPy version).
const reference = scipyJson as { source: string; chiSquared: { x: number; df: number; cdf: number; sf: number }[] };

function relativeError(actual: number, expected: number): number {
  if (expected === actual) return 0;
  if (expected === 0) return Math.abs(actual);
  return Math.abs(actual - expected) / Math.abs(expected);
}

describe(`chiSquaredCdf and chiSquaredSf against ${reference.source}`, () => {
  it('agree to 1e-10 relative error, each tail computed directly', () => {
    for (const r of reference.chiSquared) {
      expect(relativeError(chiSquaredCdf(r.x, r.df), r.cdf)).toBeLessThan(1e-10);
      expect(relativeError(chiSquaredSf(r.x, r.df), r.sf)).toBeLessThan(1e-10);
    }
  });

  it('matches the χ² table (5% upper points: df 1 → 3.841, 2 → 5.991, 10 → 18.307) and the df = 2 closed form', () => {
    expect(chiSquaredSf(3.841459, 1)).toBeCloseTo(0.05, 6);
    expect(chiSquaredSf(5.991465, 2)).toBeCloseTo(0.05, 6);
    expect(chiSquaredSf(18.307038, 10)).toBeCloseTo(0.05, 6);
    // df = 2 is the exponential with mean 2: P(χ² > x) = e^(−x/2).
    for (const x of [0.01, 1, 10, 200]) expect(relativeError(chiSquaredSf(x, 2), Math.exp(-x / 2))).toBeLessThan(1e-12);
  });

  it('is 0 at 0 for the CDF, and stays inside [0, 1] at the far ends of the double range', () => {
    expect(chiSquaredCdf(0, 3)).toBe(0);
    // With df = 1e-300 the series for P(a, x) rounds to just above 1; the upper tail must not go negative.
    for (const [x, df] of [
      [1e-300, 1e-300],
      [1e-200, 1e-250],
      [1e-5, 1e-280],
    ] as const) {
      const sf = chiSquaredSf(x, df);
      expect(sf).toBeGreaterThanOrEqual(0);
      expect(sf).toBeLessThanOrEqual(1);
      expect(chiSquaredCdf(x, df)).toBeLessThanOrEqual(1);
    }
  });

  it('rejects a NaN x and a df that is not a finite number above 0 (±Infinity is a valid x)', () => {
    expect(() => chiSquaredSf(Number.NaN, 2)).toThrow(ScoringError);
    expect(() => chiSquaredCdf(1, 0)).toThrow(/df must be a finite number greater than 0/);
    expect(() => chiSquaredCdf(1, Number.POSITIVE_INFINITY)).toThrow(ScoringError);
    expect(chiSquaredSf(Number.POSITIVE_INFINITY, 3)).toBe(0);
    expect(chiSquaredCdf(Number.NEGATIVE_INFINITY, 3)).toBe(0);
  });
});
