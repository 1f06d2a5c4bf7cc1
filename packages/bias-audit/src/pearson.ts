import { regularizedBeta } from '@council/scoring';
import type { CorrelationResult } from './correlation-result.js';
import { pearsonR } from './internal/pearson-r.js';
import { validatePairs } from './internal/validate-pairs.js';
import { normalQuantile } from './normal-distribution.js';

const Z_975 = normalQuantile(0.975);

/**
 * Pearson's r with the exact two-sided t test (t = r√((n − 2)/(1 − r²)), df = n − 2, evaluated as
 * I_{1−r²}((n − 2)/2, ½)) and the Fisher-z 95% interval. Not computable below 3 pairs or when
 * either variable is constant.
 */
export function pearson(x: readonly number[], y: readonly number[]): CorrelationResult {
  validatePairs(x, y);
  const n = x.length;
  if (n < 3) return { computable: false, n, reason: `needs at least 3 pairs to test a correlation, got ${n}` };
  const { r, sxx } = pearsonR(x, y, n);
  if (r === null) {
    return { computable: false, n, reason: `${sxx === 0 ? 'x' : 'y'} has no variance (all ${n} values are equal)` };
  }
  return { computable: true, r, n, pValue: correlationPValue(r, n), ci95: fisherInterval(r, n) };
}

/** The exact two-sided p-value of H0: ρ = 0 for a correlation r from n bivariate-normal pairs. */
export function correlationPValue(r: number, n: number): number {
  if (Math.abs(r) === 1) return 0;
  return Math.min(1, regularizedBeta({ x: (1 - r) * (1 + r), y: r * r, a: (n - 2) / 2, b: 0.5 }).lower);
}

function fisherInterval(r: number, n: number): { lower: number; upper: number; level: number } | null {
  if (n < 4) return null;
  const z = Math.atanh(r);
  const half = Z_975 / Math.sqrt(n - 3);
  return { lower: Math.tanh(z - half), upper: Math.tanh(z + half), level: 0.95 };
}
