import { wilsonInterval } from './wilson-interval.js';

/** A mean of values in [0, 1] with its interval; null figures with no values. */
export interface BoundedMeanInterval {
  estimate: number | null;
  lower: number | null;
  upper: number | null;
  n: number;
}

/**
 * The 95% (by default) interval of the mean of values bounded in [0, 1], one value per independent unit: the
 * Wilson (1927) score interval with the mean in place of a proportion. For a variable in [0, 1] with mean μ the
 * variance is at most μ(1 − μ) — the Bernoulli case, where this is exactly Wilson's interval — so the interval
 * is never narrower than the data allow: it stays honest with few units, with all values 0 (a member never
 * credited: upper z²/(n + z²)), and with the skewed, zero-heavy weights of contributors blocks, where a
 * Student t interval collapses (the contribution study in the README measures both).
 */
export function boundedMeanInterval(values: readonly number[], level = 0.95): BoundedMeanInterval {
  const n = values.length;
  if (n === 0) return { estimate: null, lower: null, upper: null, n: 0 };
  let sum = 0;
  for (const value of values) {
    if (!(value >= 0 && value <= 1))
      throw new RangeError(`boundedMeanInterval takes values from 0 to 1, got ${String(value)}.`);
    sum += value;
  }
  return { estimate: sum / n, ...wilsonInterval(sum, n, level), n };
}
