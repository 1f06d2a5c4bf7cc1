import type { ReviewerProfile } from './bias-aggregate-report.js';
import type { BiasObservation } from './bias-observation.js';

/** An observation with its reviewer-calibrated score beside the raw one. */
export interface CalibratedObservation extends BiasObservation {
  /** (score − reviewer mean) / reviewer SD; null without a score, a profile with both shown (10 sessions or more), or spread. */
  calibratedScore: number | null;
}

/**
 * The "calibrated view" of ADR-018: each score z-scored against its reviewer's profile from
 * `aggregateBiasAudit`, so reviewers on different personal scales can be compared. For analytics
 * and dashboards only: ADR-018 rules that profiles never feed back into live votes.
 */
export function calibrateScores(
  observations: readonly BiasObservation[],
  reviewers: readonly ReviewerProfile[],
): CalibratedObservation[] {
  const profiles = new Map(reviewers.map((r) => [r.reviewer, r]));
  return observations.map((o) => {
    const profile = profiles.get(o.reviewer);
    const mean = profile?.mean.estimate ?? null;
    const sd = profile?.standardDeviation.estimate ?? null;
    const calibratedScore =
      o.score === null || mean === null || sd === null || !(sd > 0) ? null : (o.score - mean) / sd;
    return { ...o, calibratedScore };
  });
}
