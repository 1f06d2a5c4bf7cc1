import { regularizedGamma } from '@council/scoring';
import { assertNumber, assertProbability } from './internal/assert.js';

const LOG_SQRT_2PI = 0.9189385332046728;

/**
 * Φ(x), the standard normal CDF, as ½·Q(½, x²/2) (x < 0) or 1 − ½·Q(½, x²/2): the incomplete
 * gamma keeps ~1e-15 relative accuracy deep into the lower tail (Φ(−37) ≈ 5.7e-300).
 */
export function normalCdf(x: number): number {
  assertNumber(x, 'x', true);
  if (x === Number.NEGATIVE_INFINITY) return 0;
  if (x === Number.POSITIVE_INFINITY) return 1;
  const half = 0.5 * regularizedGamma({ a: 0.5, x: (x * x) / 2 }).upper;
  return x < 0 ? half : 1 - half;
}

/** Lower-tail quantile for p ≤ ½: Acklam's rational approximation (1.15e-9) refined by Halley steps. */
function lowerQuantile(p: number): number {
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((-7.784894002430293e-3 * q - 3.223964580411365e-1) * q - 2.400758277161838) * q - 2.549732539343734) * q +
        4.374664141464968) *
        q +
        2.938163982698783) /
      ((((7.784695709041462e-3 * q + 3.224671290700398e-1) * q + 2.445134137142996) * q + 3.754408661907416) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((-3.969683028665376e1 * r + 2.209460984245205e2) * r - 2.759285104469687e2) * r + 1.38357751867269e2) * r -
        3.066479806614716e1) *
        r +
        2.506628277459239) *
        q) /
      (((((-5.447609879822406e1 * r + 1.615858368580409e2) * r - 1.556989798598866e2) * r + 6.680131188771972e1) * r -
        1.328068155288572e1) *
        r +
        1);
  }
  for (let i = 0; i < 8; i++) {
    const e = normalCdf(x) - p;
    if (e === 0) break;
    // e / φ(x), formed in logs: below p ≈ 1e-308 the factor exp(x²/2) alone overflows.
    const u = Math.sign(e) * Math.exp(Math.log(Math.abs(e)) + LOG_SQRT_2PI + (x * x) / 2);
    const step = u / (1 + (x * u) / 2);
    x -= step;
    if (Math.abs(step) <= 1e-16 * Math.abs(x)) break;
  }
  return x;
}

/** Φ⁻¹(p): the standard normal quantile, ±Infinity at p = 0 and 1. */
export function normalQuantile(p: number): number {
  assertProbability(p, 'p');
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  return p < 0.5 ? lowerQuantile(p) : -lowerQuantile(1 - p);
}
