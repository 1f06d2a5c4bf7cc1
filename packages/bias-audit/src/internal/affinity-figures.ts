import type { ScoreModelEffect } from '../fit-score-model.js';
import { quadraticForm } from './sandwich-covariance.js';
import { criticalT } from './t-summary.js';
import { tEstimate } from './t-estimate.js';

/** Per reviewer → author pair, the pieces of its mean residual and of that mean's influence per session. */
export interface PairSums {
  /** Σ residuals, Σ records, sessions seen. */
  sum: Float64Array;
  n: Float64Array;
  sessions: Uint32Array;
  /** Σ_s e_s², Σ_s e_s n_s, Σ_s n_s² over sessions (e_s, n_s: the pair's residual sum and records in session s). */
  ee: Float64Array;
  en: Float64Array;
  nn: Float64Array;
  /** Σ over the pair's records of its demeaned design row (pair × k): how the pair's mean moves with β̂. */
  design: Float64Array;
  /** Σ_s e_s·score_s and Σ_s n_s·score_s (pair × k), score_s the session's X̃'ẽ. */
  eScore: Float64Array;
  nScore: Float64Array;
}

/**
 * Affinity of each reviewer → author pair: the mean of its residuals â = Σe/Σn. Its influence per session is
 * (e_s − â·n_s − g'A⁺·score_s)/N, g the pair's summed design row: the last term is the fitted offsets'
 * share (the residuals of a reviewer sum to zero over its authors, so leaving it out overstates the error
 * by about √(C/(C − 1)) with C authors per reviewer). Summed over every informative session, with S/(S − 1).
 */
export function affinityFigures(spec: {
  pairs: PairSums;
  inverse: Float64Array;
  meat: Float64Array;
  k: number;
  models: readonly string[];
  level: number;
  sessions: number;
}): ScoreModelEffect[] {
  const { pairs, inverse, meat, k, models, level, sessions } = spec;
  const m = models.length;
  const out: ScoreModelEffect[] = [];
  const h = new Float64Array(k);
  for (let pair = 0; pair < m * m; pair++) {
    const n = pairs.n[pair]!;
    const seen = pairs.sessions[pair]!;
    if (n === 0 || seen < 2 || sessions < 2) continue;
    const ratio = pairs.sum[pair]! / n;
    h.fill(0);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) h[a]! += inverse[a * k + b]! * pairs.design[pair * k + b]!;
    // Σ_s (e_s − â n_s − h'score_s)².
    let spread = pairs.ee[pair]! - 2 * ratio * pairs.en[pair]! + ratio * ratio * pairs.nn[pair]!;
    for (let a = 0; a < k; a++)
      spread -= 2 * h[a]! * (pairs.eScore[pair * k + a]! - ratio * pairs.nScore[pair * k + a]!);
    spread += quadraticForm(meat, h, k);
    const variance = ((sessions / (sessions - 1)) * Math.max(0, spread)) / (n * n);
    const df = seen - 1;
    const subject = `${models[Math.floor(pair / m)]!}→${models[pair % m]!}`;
    out.push({
      subject,
      weight: 1,
      ...tEstimate({ estimate: ratio, variance, crit: criticalT(level, df), df, sampleSize: n, sessions: seen }),
    });
  }
  return out;
}
