import { spearmanRho } from '@council/scoring';
import type { CorrelationResult } from './correlation-result.js';
import { validatePairs } from './internal/validate-pairs.js';
import { normalQuantile } from './normal-distribution.js';
import { correlationPValue } from './pearson.js';

const Z_975 = normalQuantile(0.975);

/**
 * Spearman's ρ: Pearson's r of the average ranks (ties share their mean rank). The p-value uses the
 * t distribution with n − 2 df as SciPy's `spearmanr` does (exact for no ρ only asymptotically);
 * the interval is Fisher-z with Fieller, Hartley & Pearson's variance 1.06/(n − 3).
 */
export function spearman(x: readonly number[], y: readonly number[]): CorrelationResult {
  validatePairs(x, y);
  const n = x.length;
  if (n < 3) return { computable: false, n, reason: `needs at least 3 pairs to test a correlation, got ${n}` };
  // ρ itself is scoring's (Pearson's r of the average ranks); this adds the test and the interval.
  const r = spearmanRho(x, y).rho;
  if (r === null) {
    const tied = x.every((v) => v === x[0]) ? 'x' : 'y';
    return { computable: false, n, reason: `${tied} has no variance (all ${n} values are tied)` };
  }
  let ci95 = null;
  if (n >= 4) {
    const z = Math.atanh(r);
    const half = Z_975 * Math.sqrt(1.06 / (n - 3));
    ci95 = { lower: Math.tanh(z - half), upper: Math.tanh(z + half), level: 0.95 };
  }
  return { computable: true, r, n, pValue: correlationPValue(r, n), ci95 };
}
