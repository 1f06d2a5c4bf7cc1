import type { ScoreModelEffect } from '../fit-score-model.js';
import { contrastEstimate } from './contrast-estimate.js';
import type { PairDecomposition, PairModel } from './pair-effects.js';

/** Per reviewer → author pair, the pieces of its mean residual and of that mean's influence per session. */
export interface PairSums {
  /** Σ residuals, Σ records, sessions seen. */
  sum: Float64Array;
  n: Float64Array;
  sessions: Uint32Array;
  /** Σ over the pair's records of its demeaned design row (pair × k): how the pair's mean moves with β̂. */
  design: Float64Array;
  /** Σ_s e_s·score_s and Σ_s n_s·score_s (pair × k), score_s the session's X̃'ẽ. */
  eScore: Float64Array;
  nScore: Float64Array;
  /** Pair (`reviewer · models + author`) → its dense number among the pairs with records, or −1; and back. */
  index: Int32Array;
  used: Int32Array;
  /**
   * Σ_s a_s^p a_s^q over sessions (P × P by dense number), a_s^p = e_s^p − ē_p·n_s^p: the pair's residual sum in
   * session s less its records there times its mean residual (ē_p from pass 1's sums, before pass 2).
   */
  cross: Float64Array;
}

/**
 * Affinity of each reviewer → author pair seen in 2 sessions or more: its pair effect less its author's level and
 * its reviewer's offset, all three from the robust table (`decomposePairEffects`), a contrast over θ whose error is
 * the sessions' influence (`pairModel`); t on the pair's sessions less one.
 */
export function affinityFigures(spec: {
  pairModel: PairModel;
  decomposition: PairDecomposition;
  models: readonly string[];
}): ScoreModelEffect[] {
  const { pairModel, decomposition, models } = spec;
  const m = models.length;
  const out: ScoreModelEffect[] = [];
  pairModel.used.forEach((pair, i) => {
    const sessions = pairModel.sessions[i]!;
    if (sessions < 2 || pairModel.model.sessions < 2) return;
    const fit = contrastEstimate(
      decomposition.affinity[i]!,
      { sampleSize: pairModel.records[i]!, sessions },
      pairModel.model,
    );
    if (fit !== null) out.push({ subject: `${models[Math.floor(pair / m)]!}→${models[pair % m]!}`, weight: 1, ...fit });
  });
  return out;
}
