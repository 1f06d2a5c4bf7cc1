import { studentTQuantile, studentTTwoSided } from '../student-t-distribution.js';
import { mean, variance } from './describe.js';

/** A mean across independent units (sessions) with its Student-t interval and the t test of "mean = 0". */
export type TSummary =
  | { computable: true; estimate: number; lower: number; upper: number; pValue: number; n: number }
  | { computable: false; estimate: number | null; n: number; reason: string };

const cache = new Map<string, number>();

/** The two-sided critical value of t at `level`, memoised: a report asks for the same few dozen. */
export function criticalT(level: number, df: number): number {
  const key = `${level}:${df}`;
  let value = cache.get(key);
  if (value === undefined) {
    value = studentTQuantile(1 - (1 - level) / 2, df);
    if (cache.size > 10_000) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/** Mean, t interval at `level` (df = n − 1) and two-sided p of H0: mean = 0. */
export function tSummary(values: ArrayLike<number>, level: number): TSummary {
  const n = values.length;
  if (n < 2)
    return {
      computable: false,
      estimate: n === 1 ? values[0]! : null,
      n,
      reason: `needs values from at least 2 sessions, got ${n}`,
    };
  const m = mean(values);
  const sd = Math.sqrt(variance(values, 1));
  if (!(sd > 0))
    return {
      computable: false,
      estimate: m,
      n,
      reason: 'every session gave the same value, so there is no spread to build an interval from',
    };
  const se = sd / Math.sqrt(n);
  const crit = criticalT(level, n - 1);
  return {
    computable: true,
    estimate: m,
    lower: m - crit * se,
    upper: m + crit * se,
    pValue: studentTTwoSided(m / se, n - 1),
    n,
  };
}
