import type { BiasMargins } from './bias-aggregate-report.js';
import type { BiasWindowOptions } from './bias-window.js';

/** The minimum effects of `aggregateBiasAudit`'s flags unless `margins` says otherwise (see `BiasMargins`). */
export const DEFAULT_BIAS_MARGINS: Readonly<BiasMargins> = Object.freeze({
  lengthSlope: 0.05,
  position: 0.1,
  rankPosition: 0.05,
  reviewerOffset: 0.25,
  selfPreference: 0.25,
  affinity: 0.25,
  anchoring: 0.05,
});

/**
 * Options of `aggregateBiasAudit`. `window` is applied to observations; columns from `readBiasRecords` (or an engine)
 * come windowed by the same window and summaries were chosen by it: both are taken whole, and it labels their report.
 */
export interface AggregateBiasAuditOptions {
  /**
   * The window (`parseBiasWindow`'s options, or a window it checked). Default for observations and columns
   * `DEFAULT_BIAS_WINDOW` (100 sessions, 30 days) ending now; for summaries no bound. Pass `now` for reproducible
   * reports. With summaries only `sessions`, `days` and `now` may be given: their records were chosen already.
   */
  window?: BiasWindowOptions;
  /** Sessions needed before any flag is raised. Default 20 (`LLM_COUNCIL_MIN_BIAS_SESSIONS`). */
  minSessions?: number;
  /** Confidence level of every interval. Default 0.95. */
  level?: number;
  /** Family-wise error rate of the flags (weighted Holm across families). Default 0.05. */
  alpha?: number;
  /** The smallest effect each family flags; the ones left out keep `DEFAULT_BIAS_MARGINS`. */
  margins?: Partial<BiasMargins>;
  /**
   * Permutations of the position tests. Default: 1,000 below 100 sessions, where the asymptotic test is
   * least trusted, else 0 (the Wald F test). 0 always takes the Wald test.
   */
  resamples?: number;
  /** Seed of the permutations. Default 1. */
  seed?: number;
  /** Sessions per rolling trend window (windows half a window apart, at most 200 of them, evenly spread). Default 10. */
  trendWindowSessions?: number;
  /** Robust SDs (1.4826·MAD) from the median beyond which a session is an anomaly. Default 3.5. */
  anomalyThreshold?: number;
}
