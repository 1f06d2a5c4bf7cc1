import type { BiasObservation } from '../bias-observation.js';

/**
 * What the validity study measures an interval against. Each has a planted truth in the simulation
 * (see `plantedTruth`); an estimator reports the ones it has, in these units:
 * - `length_correlation`: pooled within-session correlation of an answer's length and its mean score;
 * - `length_slope`: within-session length effect, score points per 1,000 characters;
 * - `length_between_sessions`: slope of a session's mean score on its mean answer length, points per 1,000 characters;
 * - `position_effect` (subject: the 0-based position), `primacy`, `recency`: score at a display position
 *   minus the mean over the positions the reviewer was shown;
 * - `rank_position_effect` (subject: position): centred rank points (1 = first, 0 = last) at a position;
 * - `reviewer_offset` (subject: reviewer): how much higher the reviewer scores than the median reviewer;
 * - `self_preference` (subject: reviewer), `affinity` (subject: `reviewer→author`): points added to
 *   the reviewer's own answer, or to that author's answers, beyond the reviewer's offset;
 * - `anchoring`: correlation of display position and |score − session mean|;
 * - `trend_slope` (subject: the indicator): change per day of a per-session indicator.
 */
export type Estimand =
  | 'length_correlation'
  | 'length_slope'
  | 'length_between_sessions'
  | 'position_effect'
  | 'primacy'
  | 'recency'
  | 'rank_position_effect'
  | 'reviewer_offset'
  | 'self_preference'
  | 'affinity'
  | 'anchoring'
  | 'trend_slope';

/** One interval an estimator reported. */
export interface StudyEstimate {
  estimand: Estimand;
  /** The position, reviewer, `reviewer→author` pair or indicator; null for a single figure. */
  subject: string | null;
  /** How the interval was formed (e.g. `fisher_z_sandwich`, `bootstrap_bca`): each gets its own coverage row. */
  interval: string;
  estimate: number;
  lower: number;
  upper: number;
}

/** A raised flag: its code and subject as in `AggregateBiasFlag`. */
export interface StudyFlag {
  code: string;
  subject: string | null;
}

/** What the study reads from one report. */
export interface StudyReport {
  flags: StudyFlag[];
  estimates: StudyEstimate[];
}

/** Options the study passes on each run; resample counts left out mean the estimator's defaults. */
export interface StudyRunOptions {
  seed: number;
  /** Permutations per position test (0: the asymptotic test). */
  resamples?: number;
}

/**
 * A cross-session estimator under study: `aggregateBiasAudit` (`aggregateEstimator`) or another, each behind an adapter that maps its report to flags and intervals.
 */
export interface StudyEstimator {
  name: string;
  run(observations: readonly BiasObservation[], options: StudyRunOptions): StudyReport;
}
