import { normalQuantile } from '../normal-distribution.js';
import { studentTQuantile } from '../student-t-distribution.js';
import { wilsonBounds } from '../wilson-interval.js';

/** The intervals the contribution study measures beside `boundedMeanInterval`, each of which estimates the variance from the weights. */
export type ComparisonMethod = 'student-t' | 'effective-n-wilson' | 'logit-t';

type MeanInterval = (values: readonly number[], level?: number) => { lower: number; upper: number };

function meanAndVariance(values: readonly number[]): { n: number; mean: number; variance: number } {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return { n, mean, variance };
}

/** mean ± t(n−1)·s/√n, clipped to [0, 1]; [0, 1] with one value. */
export function studentTMeanInterval(values: readonly number[], level = 0.95): { lower: number; upper: number } {
  if (values.length < 2) return { lower: 0, upper: 1 };
  const { n, mean, variance } = meanAndVariance(values);
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * Math.sqrt(variance / n);
  return { lower: Math.max(0, mean - half), upper: Math.min(1, mean + half) };
}

/**
 * Wilson's interval at the mean with the effective sample size of the sample variance, n·p(1 − p)/s², times
 * Korn and Graubard's (1998) small-sample factor (z/t(n−1))²; Wilson at n itself when the variance says
 * nothing (one value, all values equal, a mean of 0 or 1).
 */
export function effectiveSampleWilsonInterval(
  values: readonly number[],
  level = 0.95,
): { lower: number; upper: number } {
  const n = values.length;
  if (n === 0) return { lower: 0, upper: 1 };
  const { mean, variance } = meanAndVariance(values);
  if (n < 2 || !(variance > 0) || mean <= 0 || mean >= 1) return wilsonBounds(mean, n, level);
  const q = 1 - (1 - level) / 2;
  const factor = (normalQuantile(q) / studentTQuantile(q, n - 1)) ** 2;
  return wilsonBounds(mean, ((n * mean * (1 - mean)) / variance) * factor, level);
}

/**
 * A t interval on the logit of the mean (delta method: standard error s/(√n·p(1 − p))), mapped back; Wilson at
 * n where the logit is undefined or the variance says nothing (as `effectiveSampleWilsonInterval`).
 */
export function logitTMeanInterval(values: readonly number[], level = 0.95): { lower: number; upper: number } {
  const n = values.length;
  if (n === 0) return { lower: 0, upper: 1 };
  const { mean, variance } = meanAndVariance(values);
  if (n < 2 || !(variance > 0) || mean <= 0 || mean >= 1) return wilsonBounds(mean, n, level);
  const half = (studentTQuantile(1 - (1 - level) / 2, n - 1) * Math.sqrt(variance / n)) / (mean * (1 - mean));
  const logit = Math.log(mean / (1 - mean));
  const expit = (x: number): number => 1 / (1 + Math.exp(-x));
  return { lower: expit(logit - half), upper: expit(logit + half) };
}

/** The comparison intervals by method name. */
export const comparisonIntervals: Readonly<Record<ComparisonMethod, MeanInterval>> = {
  'student-t': studentTMeanInterval,
  'effective-n-wilson': effectiveSampleWilsonInterval,
  'logit-t': logitTMeanInterval,
};
