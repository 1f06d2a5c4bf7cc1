import type { BiasAuditThresholds } from './bias-audit-input.js';
import type { CorrelationResult } from './correlation-result.js';
import type { ReviewerAgreement } from './ordinal-krippendorff-alpha.js';

/** ADR-015's overall risk: the number of risk factors present (0 → low, 1–2 → medium, 3–4 → high). */
export type BiasRisk = 'low' | 'medium' | 'high';

/** Mean score at one display position. */
export interface PositionMean {
  position: number;
  meanScore: number;
  /** Scores given at this position. */
  n: number;
}

/** The spread of mean scores across display positions, or why it cannot be computed. */
export type PositionScoreVariance =
  | {
      computable: true;
      /** Population variance (denominator k, as NumPy's `var`) of the per-position mean scores. */
      variance: number;
      statistic: 'population variance of per-position mean scores';
      positionMeans: PositionMean[];
      /** Scores that had a known position. */
      n: number;
    }
  | { computable: false; reason: string };

/** One reviewer's scores in this session. */
export interface ReviewerCalibration {
  mean: number;
  /** Population standard deviation (denominator n, as NumPy's `std`) of this reviewer's scores. */
  standardDeviation: number;
  count: number;
}

/** The cut-offs behind harsh/generous: reviewer means below median − SD or above median + SD. */
export interface CalibrationCutoffs {
  medianOfMeans: number;
  /** Population SD of the reviewer means (1 when there is a single reviewer, as ADR-015 specifies). */
  standardDeviationOfMeans: number;
  reviewers: number;
  /**
   * The largest |mean − median| / SD any reviewer can reach with this many reviewers is bounded (for
   * 2 reviewers it is exactly 1, so nobody can be flagged): the flags are indicators, not tests.
   */
  note: string;
}

/** A reviewer's score for its own response against what the other reviewers gave that response. */
export interface SelfVoteInflation {
  ownScore: number;
  /** Mean score the other reviewers gave the same response (leave-one-out consensus). */
  othersMean: number;
  /** ownScore − othersMean. */
  inflation: number;
  othersCount: number;
}

/** The per-session audit of ADR-015, in camelCase. Per-session figures are indicators, not proof. */
export interface BiasAuditResult {
  /** Always true: with 4–5 candidates a session cannot prove a bias (ADR-015 "Scope and Limitations"). */
  indicatorOnly: true;
  caveat: string;
  thresholds: Required<BiasAuditThresholds>;
  /** Pearson r between word count and mean score per candidate, exact t-test p-value. */
  lengthScoreCorrelation: CorrelationResult;
  /** The same against length in characters. */
  lengthScoreCorrelationChars: CorrelationResult;
  /** |r| > threshold and p < 0.05 on word counts; null when the correlation is not computable. */
  lengthBiasDetected: boolean | null;
  positionScoreVariance: PositionScoreVariance;
  /** variance > threshold; null when it is not computable. */
  positionBiasDetected: boolean | null;
  reviewerCalibration: Record<string, ReviewerCalibration>;
  calibrationCutoffs: CalibrationCutoffs | null;
  harshReviewers: string[];
  generousReviewers: string[];
  /** Per reviewer that scored its own response and was scored by at least one other reviewer. */
  selfVoteInflation: Record<string, SelfVoteInflation>;
  /** Reviewers whose self-vote inflation exceeds the threshold. */
  selfPreferenceReviewers: string[];
  /** Ordinal Krippendorff's α over the reviewers' scores of the candidates. */
  reviewerAgreement: ReviewerAgreement;
  overallBiasRisk: BiasRisk;
  /** The ADR-015 risk factors that counted toward `overallBiasRisk`. */
  riskFactors: ('length_bias' | 'position_bias' | 'harsh_reviewer' | 'generous_reviewer')[];
  sampleSizes: {
    responses: number;
    /** Candidates with a length and at least one score: the n of the length correlation. */
    scoredCandidates: number;
    reviewers: number;
    scores: number;
    /** Scores whose display position is known: the n behind the position figures. */
    positionedScores: number;
  };
}
