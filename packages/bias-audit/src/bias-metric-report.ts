import type { AggregateBiasFlagCode } from './bias-aggregate-report.js';
import type { ConfidenceTier } from './confidence-tier.js';

/**
 * One reported figure with everything ADR-018 requires beside it: N, estimate, interval, data window
 * and confidence tier. Under `insufficient_data` (fewer than 10 sessions) estimate, interval and
 * p-value are null by rule; a figure that cannot be computed is null too, with `note` saying why.
 */
export interface BiasMetricReport {
  /** What is measured, e.g. `length_score_correlation` or `position_effect[0]`. */
  metric: string;
  estimate: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  /** The confidence level of [ciLower, ciUpper]. */
  level: number;
  /** Observations (or pairs, or per-session values) behind the figure, as `unit` says. */
  sampleSize: number;
  /** What `sampleSize` counts. */
  unit: 'observations' | 'candidate_pairs' | 'sessions' | 'scores' | 'answers';
  /** Sessions that contributed: the basis of the tier. */
  sessions: number;
  /** ISO timestamps of the first and last contributing session; null when none contributed. */
  windowStart: string | null;
  windowEnd: string | null;
  confidence: ConfidenceTier;
  /** Two-sided p-value of "no effect", where the metric has a test. */
  pValue?: number | null;
  /** How the interval was formed, e.g. `fisher_z`, `t_across_sessions`, `cluster_cr1_t`. */
  intervalMethod: string;
  /** Where the figure can raise a flag: the smallest effect the flag needs (the interval must lie beyond ±margin). */
  margin?: number;
  /** Why a figure is missing, or a caution (e.g. the preliminary tier's high volatility). */
  note?: string;
  /**
   * Set where the figure's test and interval would raise the flag `code`, but the figure's own `sessions` are
   * fewer than the report's `minSessions`: a flag needs its own figure to meet the minimum, so none is raised.
   */
  flagWithheld?: { code: AggregateBiasFlagCode; minSessions: number };
  /**
   * Set (to false) only where the design cannot identify the figure — a position figure when the display order
   * was fixed by author or sorted by length: no estimate, interval or p-value, `note` says why, and no flag.
   */
  estimable?: false;
}
