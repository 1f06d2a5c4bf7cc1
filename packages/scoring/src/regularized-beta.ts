import { HALF_LOG_2PI, logGamma, stirlingCorrection } from './log-gamma.js';
import { log1pmx } from './log1pmx.js';

/** Both tails of the regularised incomplete beta function, each computed without cancellation. */
export interface BetaTails {
  /** I_x(a, b). */
  lower: number;
  /** 1 − I_x(a, b). */
  upper: number;
}

const TINY = 1e-300;
const EPSILON = 1e-16;
const LARGE = 10;

function logOf(x: number, complement: number): number {
  return x < 0.5 ? Math.log(x) : Math.log1p(-complement);
}

/**
 * ln( x^a · y^b / B(a, b) ) with y = 1 − x given separately so neither loses digits. Large
 * shape parameters go through Stirling's series with the exponent written as ln(1 + d) − d,
 * so the result keeps ~1e-14 absolute accuracy even for a, b ~ 1e6.
 */
function logPrefactor(shape: { a: number; b: number }, x: number, y: number): number {
  const { a, b } = shape;
  if (a >= LARGE && b >= LARGE) {
    const sum = a + b;
    const x0 = a / sum;
    const y0 = b / sum;
    const d = x < 0.5 ? x - x0 : y0 - y;
    return (
      a * log1pmx(d / x0, x / x0) +
      b * log1pmx(-d / y0, y / y0) +
      0.5 * Math.log((a * b) / sum) -
      HALF_LOG_2PI -
      (stirlingCorrection(a) + stirlingCorrection(b) - stirlingCorrection(sum))
    );
  }
  if (a >= LARGE || b >= LARGE) {
    const big = Math.max(a, b);
    const small = Math.min(a, b);
    // ln Γ(big + small) − ln Γ(big) by Stirling, without subtracting two large numbers.
    const ratio =
      (big - 0.5) * Math.log1p(small / big) +
      small * Math.log(big + small) -
      small +
      stirlingCorrection(big + small) -
      stirlingCorrection(big);
    return a * logOf(x, y) + b * logOf(y, x) - logGamma(small) + ratio;
  }
  return a * logOf(x, y) + b * logOf(y, x) - (logGamma(a) + logGamma(b) - logGamma(a + b));
}

/** The continued fraction for I_x(a, b) (modified Lentz), valid and fast for x < (a + 1) / (a + b + 2). */
function continuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 100000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPSILON) break;
  }
  return h;
}

/**
 * The regularised incomplete beta function I_x(a, b) and its complement. `y` must equal 1 − x
 * (pass it when it is known more accurately than 1 − x, e.g. r² for the correlation test).
 */
export function regularizedBeta(options: { x: number; a: number; b: number; y?: number }): BetaTails {
  const { x, a, b } = options;
  const y = options.y ?? 1 - x;
  if (x <= 0) return { lower: 0, upper: 1 };
  if (y <= 0) return { lower: 1, upper: 0 };
  if (x < (a + 1) / (a + b + 2)) {
    const lower = Math.min(1, (Math.exp(logPrefactor({ a, b }, x, y)) * continuedFraction(a, b, x)) / a);
    return { lower, upper: 1 - lower };
  }
  const upper = Math.min(1, (Math.exp(logPrefactor({ a: b, b: a }, y, x)) * continuedFraction(b, a, y)) / b);
  return { lower: 1 - upper, upper };
}
