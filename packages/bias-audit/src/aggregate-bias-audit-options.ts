import type { BiasMargins } from './bias-aggregate-report.js';

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
 * Options of `aggregateBiasAudit`. The window options (`now`, `maxSessions`, `maxDays`, and the filters)
 * apply to observations; columns from `readBiasRecords` come windowed, and are taken whole.
 */
export interface AggregateBiasAuditOptions {
  /** The end of the window. Default: the current time. Pass it for reproducible reports. */
  now?: Date | string;
  /** Most recent sessions kept. Default 100 (`LLM_COUNCIL_BIAS_WINDOW_SESSIONS`); Infinity keeps all. */
  maxSessions?: number;
  /** Days before `now` kept. Default 30 (`LLM_COUNCIL_BIAS_WINDOW_DAYS`); Infinity keeps all. */
  maxDays?: number;
  /**
   * Summaries only: the window (`maxSessions`, `maxDays`) their records were chosen by — an analytics engine's map
   * step applies it before summarising. Summaries are still taken whole; this only labels the report's window block
   * as the records' report would be. Default: no limit (Infinity, Infinity).
   */
  summariesWindow?: { maxSessions: number; maxDays: number };
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
  /** Keep only observations of this council configuration version. */
  configVersion?: string;
  /** Keep only observations where this model is the reviewer or the candidate. */
  model?: string;
  /** Keep only observations of this query category. */
  queryCategory?: string;
}
