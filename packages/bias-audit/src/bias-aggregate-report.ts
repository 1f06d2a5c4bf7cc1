import type { BiasMetricReport } from './bias-metric-report.js';
import type { ConfidenceTier } from './confidence-tier.js';

/**
 * Length and score. Within a session, each answer's level (its mean score less its reviewers' offsets,
 * positions and self-preference) against its length, the session held fixed: the bias a reviewer can have.
 * Between sessions, the sessions' mean scores against their mean lengths: an association (long-answer
 * sessions may be harder questions), shown so it is seen, never flagged.
 */
export interface LengthBiasReport {
  /** Within-session slope, score points per 1,000 characters (`length_slope_per_1000_chars`); CR2 errors by session. */
  slope: BiasMetricReport;
  /** Within-session correlation of answer length and level (`length_score_correlation`): its own delta-method test, on the slope's df. */
  correlation: BiasMetricReport;
  /** Between-session slope, points per 1,000 characters (`length_between_sessions_per_1000_chars`): not a flag. */
  betweenSessions: BiasMetricReport;
}

/** An omnibus test of "display position has no effect" (valid with shared orders: the session is the unit). */
export interface PositionTestReport {
  /** `scores`: within-reviewer centred scores; `ranks`: centred rank points (reviewers that rank without scoring). */
  basis: 'scores' | 'ranks';
  /**
   * `wald_f`: Hotelling's T² of the per-session position means as an F (asymptotic in sessions); `permutation`:
   * relabelling each session's shown order (reviewers who saw one order relabelled together).
   */
  method: 'wald_f' | 'permutation';
  statistic: number;
  pValue: number;
  /** Permutations drawn (0 for the Wald test). */
  permutations: number;
  /** Sessions behind the test. */
  sessions: number;
}

/** Position bias across sessions. */
export interface PositionBiasReport {
  /** Per display position: mean of within-session, within-reviewer centred scores (score points). */
  effects: BiasMetricReport[];
  /** Centred score at the first position shown. */
  primacy: BiasMetricReport;
  /** Centred score at the last position each reviewer saw. */
  recency: BiasMetricReport;
  /** Per display position: mean centred rank points (1 = ranked first, 0 = last). */
  rankEffects: BiasMetricReport[];
  tests: PositionTestReport[];
  /**
   * Present only when the display orders do not let position be told apart from the author or the answer's
   * length (an order fixed by author, or sorted by length): then every position figure (and anchoring) is
   * `estimable: false` with no estimate, there are no position tests, and no position flag is raised.
   */
  identifiability?: PositionIdentifiabilityReport;
}

/**
 * Why position is not estimable: less than `minimumShare` of the display positions' variation within sessions
 * (scored records, each session's mean position removed) is left once the author, or the answers' length order
 * within the session, is known. Shuffled orders leave nearly all of it.
 */
export interface PositionIdentifiabilityReport {
  estimable: false;
  cause: 'author' | 'length';
  reason: string;
  /** Share of position's within-session variation left once the author is known (0 to 1). */
  withinAuthorShare: number;
  /** Share left once the answers' length order within their session is known (0 to 1). */
  withinLengthShare: number;
  minimumShare: number;
}

/** One reviewer across the window. The calibrated view is for analytics only, never for votes (ADR-018). */
export interface ReviewerProfile {
  reviewer: string;
  /**
   * Points this reviewer gives the same answer beyond what the typical reviewer gives it (`reviewer_offset[…]`),
   * display position held fixed; the typical reviewer is a robust centre of all reviewers' offsets, so one
   * harsh reviewer makes no one else look generous. Negative: harsh. Flags HARSH_REVIEWER / GENEROUS_REVIEWER.
   */
  offset: BiasMetricReport;
  /** The offset in within-answer score SDs (`reviewer_z[…]`): its size against the noise of one score. */
  z: BiasMetricReport;
  /** Mean score given (`reviewer_mean[…]`), interval clustered by session. */
  mean: BiasMetricReport;
  /** Standard deviation of the scores given (`reviewer_sd[…]`), interval by the delta method clustered by session. */
  standardDeviation: BiasMetricReport;
  /**
   * The reviewer's weight in the typical reviewer (1 full; 0 for a reviewer far from the others); null below 10
   * sessions in the window, where ADR-018 shows no metric.
   */
  centreWeight: number | null;
  /**
   * Present only when the reviewer's offset changed within the window (`REVIEWER_DRIFT`'s test, Holm-adjusted over the
   * reviewers tested, at the report's alpha): then `offset` and `z` describe the latest period, and its periods are
   * here. `mean` and `standardDeviation` stay over the whole window.
   */
  drift?: ReviewerDriftReport;
  /**
   * Present only when the drift test ran on the reviewer and found no change while the window is short for it: the
   * reviewer's series has 20–39 sessions (each half a preliminary figure, 10–19 sessions) and the change the test
   * would likely miss exceeds twice the offset margin (see `ReviewerDriftPowerReport`). Absent from 40 sessions a
   * reviewer on.
   */
  driftPower?: ReviewerDriftPowerReport;
}

/**
 * What a drift test that found nothing could not have seen (issue 29: a 20-session window finds a 1-point change in
 * only about two stores of three). `undetectableBelow` is the change in the reviewer's offset that the test finds
 * with 80% power: at the even split of its series (the split where a step is measured best), with the Welch standard
 * error of the step from the series' own spread within the two halves, D = max((z(1 − α/2m) + z(0.8))·SE,
 * margin + (t(1 − α/2, df) + z(0.8))·SE), α the drift family's share of alpha and m the reviewers tested: a change
 * is found only when its Holm-adjusted p is within α and its step's interval at level 1 − α lies beyond ±margin.
 */
export interface ReviewerDriftPowerReport {
  /** Sessions of the reviewer's series (those with an answer another reviewer scored too). */
  sessions: number;
  /** Sessions each side of the even split (the earlier half, the shorter when odd). */
  sessionsPerSide: number;
  /** The Welch standard error of the step at the even split, from the spread within the halves. */
  standardError: number;
  /** The power D is stated at (0.8). */
  power: number;
  /** D: a change of the offset smaller than ±D points would likely go unseen (found with less than `power`). */
  undetectableBelow: number;
  /** 'No change found; with N sessions a change smaller than ±D points would likely go unseen.' */
  note: string;
}

/** Where and how a reviewer's offset changed within the window (issue 29 item 4; ADR-018's "model drift"). */
export interface ReviewerDriftReport {
  /**
   * `config_version`: tested at the reviewer's config-version change(s) only (natural breaks): the largest
   * standardised CUSUM of its per-session deviations there. `scan`: no config change, so the single best split over
   * its sessions, by the largest CUSUM. Each period keeps 10 sessions or more. The p-value permutes the reviewer's
   * session order (`*_permutation`, up to 9,999 permutations, stopped early by Besag and Clifford's rule); beyond 500 sessions it is asymptotic: N(0, 1) with Bonferroni
   * over the breaks (`config_break_z`), or the supremum of a Brownian bridge (`cusum_kolmogorov`). These fields
   * describe the reviewer's own test (its first change found); a period with 20 sessions or more is then tested the
   * same way for a further change (binary segmentation), so a reviewer may have more than two `periods`.
   */
  cause: 'config_version' | 'scan';
  method: 'config_break_permutation' | 'cusum_permutation' | 'config_break_z' | 'cusum_kolmogorov';
  statistic: number;
  pValue: number;
  /**
   * Holm (step-down) over the reviewers tested. The drift tests are a family of their own with one family's share of
   * alpha beside the report's weighted Holm (alpha / (families + 1)); a change is found when this is within that
   * share. A change found raises `REVIEWER_DRIFT` (its flag's `adjustedPValue` is this times families + 1, so it
   * reads against alpha as every flag's does) when `change` meets `minSessions`; the latest period's offset raises
   * HARSH_REVIEWER or GENEROUS_REVIEWER on its own.
   */
  adjustedPValue: number;
  /**
   * The change (`reviewer_drift[…]`): the mean of the reviewer's per-session gaps to the others on the same answers
   * in the latest period (from `since`) less in the period before, with a Welch t interval
   * (`welch_t_between_periods`); its `sessions` are those two periods' and its `pValue` the drift test's. The figure REVIEWER_DRIFT is raised from (and `flagWithheld` on below the
   * minimum).
   */
  change: BiasMetricReport;
  /** The first session of the latest period. */
  since: { sessionId: string; timestamp: string };
  /** Oldest first; each period's offset against the typical reviewer, all fitted together. The last is `offset`. */
  periods: ReviewerPeriodReport[];
}

/** One period of a drifting reviewer: its first and last session, and its offset over them. */
export interface ReviewerPeriodReport {
  start: string;
  end: string;
  /** Sessions of the reviewer in the period (the offset's own `sessions` counts those with a shared answer). */
  sessions: number;
  /**
   * The reviewer's `config_version` in the period, where the split is at a config-version change (`cause`
   * `config_version`) and the period has one version throughout; absent otherwise.
   */
  configVersion?: string;
  offset: BiasMetricReport;
}

/** A linear trend of a per-session indicator, and the indicator over rolling windows. */
export interface TrendReport {
  indicator: 'length_score_correlation' | 'position_spread';
  /** Least-squares slope per day, with its t interval. */
  slopePerDay: BiasMetricReport;
  /** The indicator over windows of exactly `trendWindowSessions` consecutive sessions. */
  windows: BiasMetricReport[];
}

/** A session whose indicator sits more than k robust SDs (1.4826·MAD) from the window's median. */
export interface SessionAnomaly {
  sessionId: string;
  timestamp: string;
  indicator: 'length_score_correlation' | 'position_spread' | 'mean_score';
  value: number;
  median: number;
  robustSd: number;
  robustZ: number;
}

/** Where the council changed between consecutive sessions (ADR-018 "model drift"). */
export interface ChangePoint {
  sessionId: string;
  timestamp: string;
  kind: 'config_version' | 'models';
  from: string;
  to: string;
}

/**
 * A council whose members come and go (membership changed at more than one session in four, and more than 5 times):
 * the changes of members are counted here instead of listed in `changePoints` (config-version changes still are).
 */
export interface MembershipChangesReport {
  /** Sessions at which the set of members differs from the session before. */
  count: number;
  /** Sessions in the window. */
  sessions: number;
  /** Every member seen at a change, by name. */
  members: string[];
  /** Fewest and most members in a session around the changes. */
  minMembers: number;
  maxMembers: number;
}

/** One family of hypotheses in the Holm correction. */
export interface FamilyTest {
  family: 'length' | 'position' | 'reviewer_calibration' | 'self_preference' | 'affinity' | 'anchoring';
  /** Bonferroni-combined p-value of the family's hypotheses (the smallest p times their number, capped at 1). */
  pValue: number;
  hypotheses: number;
  /** The smallest weighted-Holm adjusted p-value among the family's hypotheses (each family gets an equal share of alpha). */
  adjustedPValue: number;
  /**
   * Whether the family raised a flag (a rejected hypothesis with its interval beyond the margin, its figure having
   * `minSessions` sessions or more).
   */
  rejected: boolean;
}

/** The bias flags the cross-session report can raise. */
export type AggregateBiasFlagCode =
  | 'LENGTH_BIAS_DETECTED'
  | 'POSITION_BIAS_DETECTED'
  | 'HARSH_REVIEWER'
  | 'GENEROUS_REVIEWER'
  | 'SELF_PREFERENCE'
  | 'REVIEWER_AFFINITY'
  | 'ANCHORING'
  | 'REVIEWER_DRIFT';

/**
 * A raised flag: its interval excludes the family's margin and its test survived weighted Holm across families
 * (REVIEWER_DRIFT: the drift family's own share of alpha, Holm over the reviewers tested; see `ReviewerDriftReport`).
 */
export interface AggregateBiasFlag {
  code: AggregateBiasFlagCode;
  /** The reviewer, or `reviewer→candidate`, the flag is about; null for council-wide flags (length, position, anchoring). */
  subject: string | null;
  metric: string;
  estimate: number;
  ciLower: number;
  ciUpper: number;
  /** The smallest effect worth flagging in this family (the flag needs the interval beyond ±margin). */
  margin: number;
  /**
   * p of "the effect lies within ±margin", from the same t as the interval (REVIEWER_DRIFT: the drift test's p of
   * "no change", the margin being met by its interval).
   */
  pValue: number;
  adjustedPValue: number;
}

/**
 * The smallest effect each family flags, in the figure's own units: a flag fires only when the interval
 * lies beyond ±margin, so trivial differences stay unflagged however many sessions there are.
 */
export interface BiasMargins {
  /** Within-session length slope, score points per 1,000 characters. Default 0.05. */
  lengthSlope: number;
  /** A display position's effect, score points (rank points for rank-only reviewers use `rankPosition`). Default 0.1. */
  position: number;
  /** A display position's effect on centred rank points (1 = ranked first, 0 = last). Default 0.05. */
  rankPosition: number;
  /** A reviewer's offset from the typical reviewer, score points. Default 0.25. */
  reviewerOffset: number;
  /** Points a reviewer adds to its own answer. Default 0.25. */
  selfPreference: number;
  /** Points a reviewer adds to one author's answers beyond its offset. Default 0.25. */
  affinity: number;
  /** Correlation of display position and distance from the session mean. Default 0.05. */
  anchoring: number;
}

/** The cross-session bias report (ADR-018 phases 2 and 3). */
export interface BiasAggregateReport {
  window: {
    now: string;
    maxSessions: number;
    maxDays: number;
    start: string | null;
    end: string | null;
    sessions: number;
    observations: number;
    excluded: { filteredOut: number; outsideWindow: number; beyondMaxSessions: number };
  };
  confidence: ConfidenceTier;
  minSessions: number;
  /**
   * False below `minSessions`: figures are shown per their tier but no flag is raised. From it on, a flag still needs
   * its own figure's sessions to reach `minSessions` (`BiasMetricReport.flagWithheld` marks one that did not).
   */
  meetsMinimum: boolean;
  level: number;
  alpha: number;
  /** The minimum effects the flags required. */
  margins: BiasMargins;
  /** Permutations per position test (0: the asymptotic Wald test). */
  resamples: number;
  length: LengthBiasReport;
  position: PositionBiasReport;
  reviewers: ReviewerProfile[];
  /**
   * Per reviewer (`self_preference[…]`): points it adds to its own answer beyond its offset, the answer's
   * level set by the other reviewers (needs self-review).
   */
  selfPreference: BiasMetricReport[];
  /**
   * Per reviewer→author pair (`affinity[…]`): the mean residual of the score model (answer, offset, position
   * and self-preference held fixed); 0 in expectation when only those effects exist.
   */
  affinity: BiasMetricReport[];
  /** Mean per-session correlation between display position and |score − session mean|. */
  anchoring: BiasMetricReport;
  trends: TrendReport[];
  anomalies: SessionAnomaly[];
  /** Config-version changes, and membership changes unless the members rotate (then `membershipChanges`). */
  changePoints: ChangePoint[];
  /** Present only where the members rotate: their changes counted, not listed. */
  membershipChanges?: MembershipChangesReport;
  /** Empty below 10 sessions (ADR-018's insufficient tier), as are `anomalies` and the position tests. */
  tests: FamilyTest[];
  flags: AggregateBiasFlag[];
  notes: string[];
}
