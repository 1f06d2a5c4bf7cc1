import type { BiasMetricReport } from './bias-metric-report.js';
import type { BootstrapMethod } from './bootstrap-result.js';
import type { ConfidenceTier } from './confidence-tier.js';

/** The pooled length–score correlation, with the session-cluster bootstrap interval beside the Fisher one. */
export interface PooledCorrelationReport extends BiasMetricReport {
  /**
   * Percentile or BCa interval from resampling whole sessions (on the z scale, back-transformed, tail
   * shares expanded for the number of sessions); null when turned off or not computable.
   */
  bootstrap: { ciLower: number; ciUpper: number; method: BootstrapMethod; replicates: number } | null;
}

/** The within-session permutation test of "display position has no effect". */
export interface PositionTestReport {
  /** `scores`: block-centred scores; `ranks`: block-centred rank points (reviewers that rank without scoring). */
  basis: 'scores' | 'ranks';
  statistic: number;
  pValue: number;
  permutations: number;
  /** (session, reviewer) blocks that were permuted. */
  blocks: number;
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
}

/** One reviewer across the window. The calibrated view is for analytics only, never for votes (ADR-018). */
export interface ReviewerProfile {
  reviewer: string;
  mean: number;
  /** Sample standard deviation of this reviewer's scores. */
  standardDeviation: number;
  /** Scores given. */
  n: number;
  sessions: number;
  /**
   * (mean − mean of reviewer means) / SD of reviewer means. Descriptive only: with k reviewers |z|
   * cannot exceed (k − 1)/√k (1.5 for k = 4), so a fixed |z| > 1.5 rule could never fire.
   */
  harshnessZ: number | null;
  /** (k − 1)/√k: the largest |harshnessZ| possible with this many reviewers. */
  maxAbsHarshnessZ: number;
  /** Paired harshness: mean over sessions of (own score − others' mean for the same candidate), with a t test that can fire. */
  harshness: BiasMetricReport;
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

/** One family of hypotheses in the Holm correction. */
export interface FamilyTest {
  family: 'length' | 'position' | 'reviewer_calibration' | 'self_preference' | 'affinity' | 'anchoring';
  /** Bonferroni-combined p-value of the family's hypotheses (the smallest p times their number, capped at 1). */
  pValue: number;
  hypotheses: number;
  /** The smallest weighted-Holm adjusted p-value among the family's hypotheses (each family gets an equal share of alpha). */
  adjustedPValue: number;
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
  | 'ANCHORING';

/** A raised flag: its hypothesis survived Holm across families (Bonferroni within its family). */
export interface AggregateBiasFlag {
  code: AggregateBiasFlagCode;
  /** The reviewer, or `reviewer→candidate`, the flag is about; null for council-wide flags. */
  subject: string | null;
  metric: string;
  estimate: number;
  pValue: number;
  adjustedPValue: number;
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
  /** False below `minSessions`: figures are shown per their tier but no flag is raised. */
  meetsMinimum: boolean;
  level: number;
  alpha: number;
  lengthCorrelation: PooledCorrelationReport;
  position: PositionBiasReport;
  reviewers: ReviewerProfile[];
  /** Per reviewer: own score − leave-one-out consensus of the others, minus the reviewer's harshness on other candidates. */
  selfPreference: BiasMetricReport[];
  /** Per reviewer→candidate pair: score − others' consensus, minus the reviewer's overall harshness. */
  affinity: BiasMetricReport[];
  /** Mean per-session correlation between display position and |score − session mean|. */
  anchoring: BiasMetricReport;
  trends: TrendReport[];
  anomalies: SessionAnomaly[];
  changePoints: ChangePoint[];
  tests: FamilyTest[];
  flags: AggregateBiasFlag[];
  notes: string[];
}
