export { BiasAuditError } from './bias-audit-error.js';
export type { BiasAuditErrorCode } from './bias-audit-error.js';
export type { BiasObservation } from './bias-observation.js';
export type {
  BiasColumns,
  BiasCountColumn,
  BiasIdColumn,
  BiasScoreColumn,
  CompleteBiasColumns,
} from './bias-columns.js';
export { noRank } from './bias-columns.js';
export { observationsToColumns } from './observations-to-columns.js';
export { fitScoreModel } from './fit-score-model.js';
export type { FitScoreModelOptions, ScoreModelEffect, ScoreModelEstimate, ScoreModelFit } from './fit-score-model.js';
export { summarizeBiasSessions } from './summarize-bias-sessions.js';
export {
  BIAS_SESSION_SUMMARY_VERSION,
  assertBiasSessionSummaries,
  mergeBiasSessionSummaries,
} from './bias-session-summary.js';
export type { BiasSessionSummaries, BiasSessionSummary } from './bias-session-summary.js';
export type { ScoreAnswerSummary, ScorePairSummary, ScoreSessionSummary } from './score-session-summary.js';
export type { IndicatorSessionSummary, PositionBlockSummary } from './indicator-session-summary.js';

export { normalCdf, normalQuantile } from './normal-distribution.js';
export { wilsonInterval } from './wilson-interval.js';
export { studentTCdf, studentTQuantile, studentTTwoSided } from './student-t-distribution.js';
export { fCdf, fSf } from './f-distribution.js';

export { fisherZ, inverseFisherZ } from './fisher-z.js';
export { pearson } from './pearson.js';
export { spearman } from './spearman.js';
export type { ConfidenceInterval, CorrelationResult } from './correlation-result.js';
export { ordinalKrippendorffAlpha } from './ordinal-krippendorff-alpha.js';
export type { ReviewerAgreement } from './ordinal-krippendorff-alpha.js';

export { createSeededSfc32 } from './create-seeded-sfc32.js';
export type { SeededRandom } from './create-seeded-sfc32.js';
export { bootstrap } from './bootstrap.js';
export type { BootstrapOptions } from './bootstrap.js';
export { clusterBootstrap } from './cluster-bootstrap.js';
export type { ClusterBootstrapOptions } from './cluster-bootstrap.js';
export type { BootstrapMethod, BootstrapResult } from './bootstrap-result.js';

export { runBiasAudit, DEFAULT_BIAS_AUDIT_THRESHOLDS } from './run-bias-audit.js';
export type { BiasAuditInput, BiasAuditThresholds, SessionPositions, SessionResponse } from './bias-audit-input.js';
export type {
  BiasAuditResult,
  BiasRisk,
  CalibrationCutoffs,
  PositionMean,
  PositionScoreVariance,
  ReviewerCalibration,
  SelfVoteInflation,
} from './bias-audit-result.js';
export { derivePositionMapping } from './derive-position-mapping.js';
export { summarizeSession } from './summarize-session.js';
export type { SessionBiasFlag, SessionBiasIndicators } from './summarize-session.js';

export { aggregateBiasAudit } from './aggregate-bias-audit.js';
export {
  DEFAULT_BIAS_WINDOW,
  movedWindowOptionProblem,
  orderSessionsByStart,
  parseBiasWindow,
  safeParseBiasWindow,
} from './bias-window.js';
export type {
  BiasWindow,
  BiasWindowOptions,
  ParseBiasWindowSettings,
  SafeParseBiasWindowResult,
} from './bias-window.js';
export { DEFAULT_BIAS_MARGINS } from './aggregate-bias-audit-options.js';
export type { AggregateBiasAuditOptions } from './aggregate-bias-audit-options.js';
export type {
  AggregateBiasFlag,
  AggregateBiasFlagCode,
  BiasAggregateReport,
  BiasMargins,
  ChangePoint,
  FamilyTest,
  LengthBiasReport,
  MembershipChangesReport,
  PositionBiasReport,
  PositionIdentifiabilityReport,
  PositionTestReport,
  ReviewerProfile,
  ReviewerDriftReport,
  ReviewerDriftPowerReport,
  ReviewerPeriodReport,
  SessionAnomaly,
  TrendReport,
} from './bias-aggregate-report.js';
export type { BiasMetricReport } from './bias-metric-report.js';
export { aggregateContributions } from './aggregate-contributions.js';
export type { AggregateContributionsOptions } from './aggregate-contributions.js';
export type {
  ContributionHeatmap,
  ContributionInput,
  ContributionsReport,
  MeanWeight,
  MemberContribution,
  SessionShare,
} from './contributions-report.js';
export { boundedMeanInterval } from './bounded-mean-interval.js';
export type { BoundedMeanInterval } from './bounded-mean-interval.js';
export { confidenceTier } from './confidence-tier.js';
export type { ConfidenceTier } from './confidence-tier.js';
export { holmAdjust } from './holm-adjust.js';
export { calibrateScores } from './calibrate-scores.js';
export type { CalibratedObservation } from './calibrate-scores.js';
export { CALIBRATED_VIEW_NOTE, calibratedView } from './calibrated-view.js';
export type {
  CalibratedDifference,
  CalibratedFigure,
  CalibratedLeaderboardEntry,
  CalibratedSessionScore,
  CalibratedView,
  CalibratedViewOptions,
} from './calibrated-view.js';
export { partialPool } from './partial-pooling.js';
export type { PartialPooling, PooledEffect, PoolingInput } from './partial-pooling.js';
export { poolReviewerEffects } from './pool-reviewer-effects.js';
export type { PooledReviewerEffects, PoolingCheckpoint } from './pool-reviewer-effects.js';
export { effectiveJudges } from './effective-judges.js';
export type { EffectiveJudges, EffectiveJudgesOptions, JudgePair } from './effective-judges.js';
