import type { ReviewerMoments } from './session-indicators.js';
import { criticalT } from './t-summary.js';

/** A reviewer's mean score and score SD, each with an interval clustered by session. */
export interface ReviewerScoreSpread {
  mean: { estimate: number; lower: number; upper: number };
  standardDeviation: { estimate: number; lower: number; upper: number } | null;
}

/**
 * Mean μ = Σa/Σn and SD σ = √((Σb − Nμ²)/(N − 1)) of a reviewer's scores (per session s: n_s scores,
 * a_s their sum, b_s their sum of squares), with session-cluster (linearisation) errors: the mean's
 * influence per session is (a_s − μn_s)/N, the variance's (b_s − 2μa_s + (μ² − v)n_s)/N with v = Σb/N − μ²
 * (so the influences sum to 0); each summed in square over sessions times S/(S − 1), t on S − 1 df. The
 * SD's interval is formed on log σ (SE: SE(v)/(2v)), so it stays positive. Null when fewer than 2 sessions
 * or 2 scores.
 */
export function reviewerScoreSpread(m: ReviewerMoments, level: number): ReviewerScoreSpread | null {
  const S = m.sessions;
  const N = m.n;
  if (S < 2 || N < 2) return null;
  const mu = m.a / N;
  const correction = S / (S - 1);
  const crit = criticalT(level, S - 1);
  const meanSpread = Math.max(0, m.aa - 2 * mu * m.na + mu * mu * m.nn);
  const meanSe = Math.sqrt((correction * meanSpread) / (N * N));
  const variance = Math.max(0, (m.b - N * mu * mu) / (N - 1));
  const sd = Math.sqrt(variance);
  let standardDeviation: ReviewerScoreSpread['standardDeviation'] = null;
  if (sd > 0) {
    const plugIn = m.b / N - mu * mu;
    const c = mu * mu - plugIn;
    const spread = Math.max(
      0,
      m.bb + 4 * mu * mu * m.aa + c * c * m.nn - 4 * mu * m.ab + 2 * c * m.nb - 4 * mu * c * m.na,
    );
    const varianceSe = Math.sqrt((correction * spread) / (N * N));
    const logSe = varianceSe / (2 * plugIn);
    standardDeviation = { estimate: sd, lower: sd * Math.exp(-crit * logSe), upper: sd * Math.exp(crit * logSe) };
  }
  return { mean: { estimate: mu, lower: mu - crit * meanSe, upper: mu + crit * meanSe }, standardDeviation };
}
