import { regularizedBeta } from '@council/scoring';
import { assertNumber, assertPositive } from './internal/assert.js';

function tails(x: number, d1: number, d2: number): { lower: number; upper: number } {
  assertNumber(x, 'x', true);
  assertPositive(d1, 'd1');
  assertPositive(d2, 'd2');
  if (x <= 0) return { lower: 0, upper: 1 };
  if (x === Number.POSITIVE_INFINITY) return { lower: 1, upper: 0 };
  const denominator = d1 * x + d2;
  return regularizedBeta({ x: (d1 * x) / denominator, y: d2 / denominator, a: d1 / 2, b: d2 / 2 });
}

/** The CDF of Fisher's F distribution with (d1, d2) degrees of freedom: I_{d1x/(d1x+d2)}(d1/2, d2/2). */
export function fCdf(x: number, d1: number, d2: number): number {
  return tails(x, d1, d2).lower;
}

/** The upper tail P(F > x), computed directly so small p-values keep their digits. */
export function fSf(x: number, d1: number, d2: number): number {
  return tails(x, d1, d2).upper;
}
