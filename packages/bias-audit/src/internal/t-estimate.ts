import type { ScoreModelEstimate } from '../fit-score-model.js';
import { studentTTwoSided } from '../student-t-distribution.js';

/** An estimate with its t interval and two-sided p of "0" on `df`, from its variance. */
export function tEstimate(spec: {
  estimate: number;
  variance: number;
  crit: number;
  df: number;
  sampleSize: number;
  sessions: number;
}): ScoreModelEstimate {
  const standardError = Math.sqrt(Math.max(0, spec.variance));
  const t = standardError > 0 ? spec.estimate / standardError : spec.estimate === 0 ? 0 : Number.POSITIVE_INFINITY;
  return {
    estimate: spec.estimate,
    standardError,
    df: spec.df,
    lower: spec.estimate - spec.crit * standardError,
    upper: spec.estimate + spec.crit * standardError,
    pValue: Number.isFinite(t) ? studentTTwoSided(t, spec.df) : 0,
    sampleSize: spec.sampleSize,
    sessions: spec.sessions,
  };
}
