import { HALF_LOG_2PI, logGamma, stirlingCorrection } from './log-gamma.js';
import { log1pmx } from './log1pmx.js';

/** Both tails of the regularised incomplete gamma function: P(a, x) and Q(a, x) = 1 − P(a, x). */
export interface GammaTails {
  lower: number;
  upper: number;
}

const TINY = 1e-300;
const EPSILON = 1e-16;

/** ln( x^a e^(−x) / Γ(a) ), through Stirling's series with ln(1 + d) − d for large a. */
function logPrefactor(a: number, x: number): number {
  if (a >= 10) return a * log1pmx((x - a) / a, x / a) + 0.5 * Math.log(a) - HALF_LOG_2PI - stirlingCorrection(a);
  return a * Math.log(x) - x - logGamma(a);
}

/** P(a, x) and Q(a, x): series below x < a + 1, Lentz continued fraction above. */
export function regularizedGamma(options: { a: number; x: number }): GammaTails {
  const { a, x } = options;
  if (x <= 0) return { lower: 0, upper: 1 };
  if (x === Number.POSITIVE_INFINITY) return { lower: 1, upper: 0 };
  if (x < a + 1) {
    let ap = a;
    let del = 1 / a;
    let sum = del;
    for (let n = 0; n < 100000; n++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPSILON) break;
    }
    // Rounding can carry the series a hair past 1 when a is tiny; a probability stays in [0, 1].
    const lower = Math.min(1, sum * Math.exp(logPrefactor(a, x)));
    return { lower, upper: 1 - lower };
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= 100000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPSILON) break;
  }
  const upper = Math.min(1, Math.exp(logPrefactor(a, x)) * h);
  return { lower: 1 - upper, upper };
}
