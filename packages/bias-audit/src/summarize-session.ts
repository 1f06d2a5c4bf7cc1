import type { BiasAuditResult } from './bias-audit-result.js';

/** The flags a per-session summary can carry. */
export type SessionBiasFlag =
  'POSITION_BIAS_DETECTED' | 'LENGTH_BIAS_DETECTED' | 'HARSH_REVIEWER' | 'GENEROUS_REVIEWER' | 'SELF_PREFERENCE';

/**
 * ADR-018's `bias_indicators` wire object (snake_case on purpose: it is sent as is). A figure that
 * could not be computed is null, never 0.
 */
export interface SessionBiasIndicators {
  /** Population variance of the per-position mean scores. */
  position_variance: number | null;
  /** Pearson r between word count and mean score. */
  length_correlation: number | null;
  /** Ordinal Krippendorff's α among the reviewers. */
  reviewer_agreement: number | null;
  flags: SessionBiasFlag[];
}

/** Condenses a per-session audit into ADR-018's `bias_indicators` (rounded to 4 decimals). */
export function summarizeSession(result: BiasAuditResult): SessionBiasIndicators {
  const round = (value: number): number => Math.round(value * 1e4) / 1e4;
  const flags: SessionBiasFlag[] = [];
  if (result.positionBiasDetected === true) flags.push('POSITION_BIAS_DETECTED');
  if (result.lengthBiasDetected === true) flags.push('LENGTH_BIAS_DETECTED');
  if (result.harshReviewers.length > 0) flags.push('HARSH_REVIEWER');
  if (result.generousReviewers.length > 0) flags.push('GENEROUS_REVIEWER');
  if (result.selfPreferenceReviewers.length > 0) flags.push('SELF_PREFERENCE');
  return {
    position_variance: result.positionScoreVariance.computable ? round(result.positionScoreVariance.variance) : null,
    length_correlation: result.lengthScoreCorrelation.computable ? round(result.lengthScoreCorrelation.r) : null,
    reviewer_agreement: result.reviewerAgreement.computable ? round(result.reviewerAgreement.alpha) : null,
    flags,
  };
}
