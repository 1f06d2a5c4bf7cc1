import { assertNumber, assertPositive } from './internal/assert.js';
import { regularizedGamma } from './internal/regularized-gamma.js';

/** The CDF of the χ² distribution with `df` > 0 degrees of freedom: P(df/2, x/2). */
export function chiSquaredCdf(x: number, df: number): number {
  assertNumber(x, 'x', true);
  assertPositive(df, 'df');
  return regularizedGamma({ a: df / 2, x: Math.max(0, x) / 2 }).lower;
}

/** The upper tail P(χ² > x), computed directly so small p-values keep their digits. */
export function chiSquaredSf(x: number, df: number): number {
  assertNumber(x, 'x', true);
  assertPositive(df, 'df');
  return regularizedGamma({ a: df / 2, x: Math.max(0, x) / 2 }).upper;
}
