import type { CalibratedSectionData } from './calibrated-section.js';
import type { IntervalRow } from './interval-chart.js';
import type { TrendPoint } from './trend-chart.js';

/** ADR-018's confidence tiers. */
export type ConfidenceTier = 'insufficient_data' | 'preliminary' | 'moderate' | 'high';

/** One reported metric: ADR-018's reporting rule (N, estimate, 95% interval, window, tier). */
export interface ReportMetricRow {
  metric: string;
  estimate: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  sampleSize: number;
  sessions: number;
  confidence: ConfidenceTier;
  pValue?: number | null;
  /** Where the figure can raise a flag: the smallest effect the flag needs (its interval beyond ±margin). */
  margin?: number;
  flagged?: boolean;
}

/** A drifting reviewer's periods (`ReviewerProfile.drift`), ready to lay out. */
export interface ReviewerPeriodsRow {
  reviewer: string;
  /** "one change point" or "at a config-version change". */
  cause: string;
  /** The first session of the latest period: its date and id. */
  since: { date: string; sessionId: string };
  /** The drift test's p-value (before Holm). */
  pValue: number;
  /** The change (`reviewer_drift[…]`): the latest period's mean gap to the others less the earlier's. */
  change: ReportMetricRow;
  periods: readonly {
    /** "2026-11-01 to 2026-11-10". */
    dates: string;
    sessions: number;
    configVersion: string | null;
    offset: ReportMetricRow;
  }[];
}

/** Everything the HTML report draws, already computed. `renderHtmlReport` only lays it out. */
export interface HtmlReportData {
  title: string;
  generatedAt: string;
  /** Where the records came from (a path, or "simulated demo data"). */
  source: string;
  /** True when every record came from the simulated provider: the page says so at the top. */
  simulated: boolean;
  sessions: number;
  observations: number;
  windowStart: string | null;
  windowEnd: string | null;
  confidence: ConfidenceTier;
  metrics: readonly ReportMetricRow[];
  /** The smallest effects a flag needs, drawn as a band around 0 in the interval charts (score points). */
  margins: { position: number; reviewerOffset: number };
  /** Per display position: mean centred score (effect) with its interval. */
  positionEffects: readonly IntervalRow[];
  /** Per reviewer: points beyond the typical reviewer on the same answer (negative = harsh), with its interval. */
  reviewerOffsets: readonly IntervalRow[];
  /**
   * Reviewers the drift test found no change in on a short window (`ReviewerProfile.driftPower`): "no change found;
   * with 20 sessions a change smaller than ±1.08 points would likely go unseen". Absent when there is none.
   */
  driftUnseen?: readonly { reviewer: string; line: string }[];
  /**
   * Each reviewer whose offset changed within the window (its offset above is the latest period's): how the change
   * was found, the change with its interval, and its periods, oldest first. Absent or empty when none changed.
   */
  reviewerPeriods?: readonly ReviewerPeriodsRow[];
  lengthVsScore: {
    /** One point per scored answer: length and mean score, each less its session's mean over answers. */
    points: readonly { x: number; y: number }[];
    /** How many answers the points were thinned from. */
    total: number;
    /** Within-session slope, score points per 1,000 characters (the flagged figure). */
    slope: ReportMetricRow | null;
    /** Within-session correlation r. */
    correlation: ReportMetricRow | null;
    /** Between-session slope per 1,000 characters: an association, never a flag. */
    betweenSessions: ReportMetricRow | null;
  };
  trends: readonly { metric: string; points: readonly TrendPoint[] }[];
  affinity: {
    reviewers: readonly string[];
    candidates: readonly string[];
    values: readonly (readonly (number | null)[])[];
  };
  /** Extra lines shown under the summary (flags, anomalies, change points). */
  notes: readonly string[];
  /** Sessions the statistics left out, and why (e.g. no review could be read), shown under the header whatever the tier. */
  leftOut?: string;
  /**
   * Issue 31's figures of the same records (`calibratedFigures`): the calibrated leaderboard, how many judges the
   * council really has, the pooled reviewer offsets and the style-controlled ratings. Absent: no such sections.
   */
  calibrated?: CalibratedSectionData;
}
