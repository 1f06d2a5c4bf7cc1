import type { ScoreModelEstimate } from '../fit-score-model.js';
import { quadraticForm } from './sandwich-covariance.js';
import { tEstimate } from './t-estimate.js';
import { criticalT } from './t-summary.js';

/** The fitted score model a contrast is read from. */
export interface FittedScoreModel {
  k: number;
  beta: Float64Array;
  /** The projection onto the range of X̃'X̃ (k × k). */
  range: Float64Array;
  /** Cluster-robust covariance of β̂ (k × k). */
  covariance: Float64Array;
  /** Informative sessions (the clusters). */
  sessions: number;
  level: number;
}

/**
 * The contrast c'β̂ with its t interval, or null when it is not estimable: outside the range of X̃'X̃ (the
 * answer level absorbs it) or with fewer than 2 sessions behind it. `counts`: the records and sessions of the
 * figure's column.
 */
export function contrastEstimate(
  contrast: Float64Array,
  counts: { sampleSize: number; sessions: number },
  model: FittedScoreModel,
): ScoreModelEstimate | null {
  const { k, beta, range } = model;
  // Estimable only when the contrast lies in the range of X̃'X̃ (otherwise the answer level absorbs it).
  let gap = 0;
  let norm = 0;
  for (let a = 0; a < k; a++) {
    let projected = 0;
    for (let b = 0; b < k; b++) projected += range[a * k + b]! * contrast[b]!;
    gap += (projected - contrast[a]!) ** 2;
    norm += contrast[a]! ** 2;
  }
  // t on the sessions the figure's column appears in, less one (at most S − 1): a reviewer seen in 8 of 60
  // sessions has 7, not 59 (with 59 its interval covered 90.8%).
  const df = Math.min(model.sessions, counts.sessions) - 1;
  if (gap > 1e-12 * Math.max(norm, 1) || !(df >= 1)) return null;
  let estimate = 0;
  for (let a = 0; a < k; a++) estimate += contrast[a]! * beta[a]!;
  return tEstimate({
    estimate,
    variance: quadraticForm(model.covariance, contrast, k),
    crit: criticalT(model.level, df),
    df,
    ...counts,
  });
}
