import type { LengthBiasReport } from '../bias-aggregate-report.js';
import type { HypothesisFamily } from './bias-flags.js';
import { usesWildBootstrap } from './length-figures.js';
import type { ReportContext } from './report-context.js';

/**
 * Step 3 of `aggregateBiasAudit`: the within-session length slope (flagged beyond its margin), the length–score
 * correlation, and the between-session association (a figure, never flagged); the length family when the slope was fitted.
 */
export function lengthReport(
  context: ReportContext,
  order: { tiedToLength: string | null } = { tiedToLength: null },
): { length: LengthBiasReport; families: HypothesisFamily[] } {
  const { fit, margins } = context;
  const { fromModel, hypothesis } = context.figures;
  const families: HypothesisFamily[] = [];
  const slopeFit = fit.lengthSlope;
  const slope = fromModel({
    metric: 'length_slope_per_1000_chars',
    fit: slopeFit,
    unit: 'answers',
    intervalMethod: 'cluster_cr2_satterthwaite_t',
    margin: margins.lengthSlope,
    why: 'needs 2 or more sessions with answers of different lengths',
  });
  const correlation = fromModel({
    metric: 'length_score_correlation',
    fit: fit.lengthCorrelation,
    unit: 'answers',
    intervalMethod: 'cluster_delta_fisher_z_t',
    why: 'needs a within-session length slope with lengths and levels that vary',
  });
  const betweenSessions = fromModel({
    metric: 'length_between_sessions_per_1000_chars',
    fit: fit.betweenSessionLengthSlope,
    unit: 'sessions',
    intervalMethod:
      fit.betweenSessionLengthSlope !== null && usesWildBootstrap(fit.betweenSessionLengthSlope.sessions)
        ? 'ols_hc2_restricted_wild_bootstrap'
        : 'ols_hc2_bell_mccaffrey_t',
    why: 'needs 3 or more sessions whose mean answer lengths differ',
  });
  if (betweenSessions.estimate !== null) {
    betweenSessions.note = [
      betweenSessions.note,
      'An association between sessions (questions with long answers may simply score differently), not a bias of the reviewers: never flagged.',
    ]
      .filter(Boolean)
      .join(' ');
  }
  // Orders sorted by length: position then follows length, so a position effect may read as length here.
  if (order.tiedToLength !== null)
    for (const f of [slope, correlation])
      if (f.estimate !== null) f.note = [f.note, order.tiedToLength].filter(Boolean).join(' ');
  const length: LengthBiasReport = { slope, correlation, betweenSessions };
  if (slopeFit !== null)
    families.push({
      family: 'length',
      hypotheses: hypothesis({
        code: 'LENGTH_BIAS_DETECTED',
        subject: null,
        figure: slope,
        standardError: slopeFit.standardError,
        df: slopeFit.df,
        margin: margins.lengthSlope,
      }),
    });
  return { length, families };
}
