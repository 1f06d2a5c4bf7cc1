import { logGamma, regularizedBeta } from '@council/scoring';
import { assertNumber, assertPositive, assertProbability } from './internal/assert.js';
import { normalCdf, normalQuantile } from './normal-distribution.js';

/** P(T > t) for t ≥ 0: ½·I_{df/(df+t²)}(df/2, ½), with both arguments of I formed without cancellation. */
function upperTail(t: number, df: number): number {
  if (t === Number.POSITIVE_INFINITY) return 0;
  if (df === Number.POSITIVE_INFINITY) return normalCdf(-t);
  if (t > 1e100) {
    // Far tail, where df/t² would underflow: the density is c·(1 + t²/df)^(−(df+1)/2) with
    // c = Γ((df+1)/2)/(√(dfπ)·Γ(df/2)), so P(T > t) = c·df^((df−1)/2)·t^(−df)·(1 + O(df²/t²)), in logs.
    return Math.exp(
      logGamma((df + 1) / 2) -
        logGamma(df / 2) -
        0.5 * Math.log(df * Math.PI) +
        ((df - 1) / 2) * Math.log(df) -
        df * Math.log(t),
    );
  }
  const t2 = t * t;
  return 0.5 * regularizedBeta({ x: df / (df + t2), y: t2 / (df + t2), a: df / 2, b: 0.5 }).lower;
}

/** The two-sided p-value P(|T| ≥ |t|) of Student's t with `df` degrees of freedom. */
export function studentTTwoSided(t: number, df: number): number {
  assertNumber(t, 't', true);
  assertPositive(df, 'df', true);
  return Math.min(1, 2 * upperTail(Math.abs(t), df));
}

/** The CDF of Student's t distribution with `df` > 0 degrees of freedom (Infinity gives the normal). */
export function studentTCdf(t: number, df: number): number {
  assertNumber(t, 't', true);
  assertPositive(df, 'df', true);
  return t < 0 ? upperTail(-t, df) : 1 - upperTail(t, df);
}

function logDensity(t: number, df: number): number {
  return (
    logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI) - ((df + 1) / 2) * Math.log1p((t * t) / df)
  );
}

/** Solves P(T > t) = q for t > 0 by safeguarded Newton steps on ln P(T > e^u) against u. */
function upperQuantile(q: number, df: number): number {
  if (df === 1) return 1 / Math.tan(Math.PI * q);
  if (df === 2) return (1 - 2 * q) / Math.sqrt(2 * q * (1 - q));
  const z = -normalQuantile(q);
  const z3 = z * z * z;
  // Cornish–Fisher start, then the heavy-tail form q ≈ c·t^(−df) when that is larger.
  let guess = z + (z3 + z) / (4 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96 * df * df);
  if (!(guess > 0)) guess = 1e-3;
  const logQ = Math.log(q);
  let u = Math.log(guess);
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 300; i++) {
    const t = Math.exp(u);
    const tail = upperTail(t, df);
    if (tail <= 0) {
      hi = u;
      u = Number.isFinite(lo) ? (lo + u) / 2 : u - 1;
      continue;
    }
    const f = Math.log(tail) - logQ;
    if (f > 0) lo = u;
    else hi = u;
    const slope = -Math.exp(u + logDensity(t, df)) / tail;
    let next = u - f / slope;
    if (!Number.isFinite(next) || next <= lo || next >= hi) {
      next = Number.isFinite(lo) && Number.isFinite(hi) ? (lo + hi) / 2 : f > 0 ? u + 1 : u - 1;
    }
    if (Math.abs(next - u) <= 1e-15 * Math.max(1, Math.abs(u))) return Math.exp(next);
    u = next;
  }
  return Math.exp(u);
}

/** The quantile function of Student's t: the t with P(T ≤ t) = p; ±Infinity at p = 0 and 1. */
export function studentTQuantile(p: number, df: number): number {
  assertProbability(p, 'p');
  assertPositive(df, 'df', true);
  if (df === Number.POSITIVE_INFINITY) return normalQuantile(p);
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  return p < 0.5 ? -upperQuantile(p, df) : upperQuantile(1 - p, df);
}
