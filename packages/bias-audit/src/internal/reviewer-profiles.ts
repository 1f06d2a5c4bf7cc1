import type { ReviewerProfile } from '../bias-aggregate-report.js';
import type { HypothesisFamily, MarginHypothesis } from './bias-flags.js';
import type { ReportContext } from './report-context.js';
import type { DriftedReviewer } from './reviewer-drift-report.js';
import { reviewerScoreSpread } from './reviewer-score-spread.js';

/**
 * Step 5 of `aggregateBiasAudit`: each reviewer's offset from the typical reviewer (score points, and in residual
 * SDs), its mean and SD of scores, by name; the reviewer-calibration family (harsh or generous beyond the margin).
 * A reviewer in `drifted` (its offset changed within the window) shows its latest period's offset and z, with that
 * period's window, and its flag is judged on that figure.
 */
export function reviewerProfiles(
  context: ReportContext,
  models: readonly string[],
  drifted: ReadonlyMap<string, DriftedReviewer> = new Map(),
): { reviewers: ReviewerProfile[]; family: HypothesisFamily } {
  const { fit, indicators, margins, level } = context;
  const { figure, hypothesis } = context.figures;
  const offsetWhy = 'needs answers scored by this reviewer and another in 2 or more sessions';
  const reviewers: ReviewerProfile[] = [];
  const calibration: MarginHypothesis[] = [];
  const offsetBySubject = new Map(fit.reviewerOffsets.map((o) => [o.subject, o]));
  const byName = models
    .map((name, model) => ({ name, model }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  byName.forEach(({ name: reviewer, model }) => {
    const moments = indicators.reviewerMoments[model];
    if (moments === null || moments === undefined) return;
    const offsetFit = offsetBySubject.get(reviewer) ?? null;
    const drift = drifted.get(reviewer);
    const fromModel = (drift?.latestFigures ?? context.figures).fromModel;
    const latest = <T extends object>(f: T): T => (drift === undefined ? f : { ...f, note: drift.note });
    const offset = latest(
      fromModel({
        metric: `reviewer_offset[${reviewer}]`,
        fit: offsetFit,
        unit: 'scores',
        intervalMethod: 'cluster_cr1_t',
        margin: margins.reviewerOffset,
        why: offsetWhy,
        sessions: moments.sessions,
      }),
    );
    const sd = fit.residualSd;
    const z =
      offsetFit === null
        ? fromModel({
            metric: `reviewer_z[${reviewer}]`,
            fit: null,
            unit: 'scores',
            intervalMethod: 'cluster_cr1_t_per_residual_sd',
            why: offsetWhy,
            sessions: moments.sessions,
          })
        : sd === null || !(sd > 0)
          ? figure({
              metric: `reviewer_z[${reviewer}]`,
              sessions: offsetFit.sessions,
              sampleSize: offsetFit.sampleSize,
              unit: 'scores',
              intervalMethod: 'cluster_cr1_t_per_residual_sd',
              estimate: null,
              lower: null,
              upper: null,
              pValue: null,
              note: 'Not computable: the scores fit the model exactly (no spread within answers), so there is no score SD to measure the offset in.',
            })
          : fromModel({
              metric: `reviewer_z[${reviewer}]`,
              fit: {
                ...offsetFit,
                estimate: offsetFit.estimate / sd,
                lower: offsetFit.lower / sd,
                upper: offsetFit.upper / sd,
                standardError: offsetFit.standardError / sd,
              },
              unit: 'scores',
              intervalMethod: 'cluster_cr1_t_per_residual_sd',
              why: offsetWhy,
            });
    const spread = reviewerScoreSpread(moments, level);
    const common = { sessions: moments.sessions, sampleSize: moments.n, unit: 'scores' as const };
    const mean = figure({
      metric: `reviewer_mean[${reviewer}]`,
      ...common,
      intervalMethod: 'cluster_ratio_t',
      estimate: spread?.mean.estimate ?? (moments.n > 0 ? moments.a / moments.n : null),
      lower: spread?.mean.lower ?? null,
      upper: spread?.mean.upper ?? null,
      ...(spread === null ? { note: 'Not computable: needs scores from 2 or more sessions.' } : {}),
    });
    const standardDeviation = figure({
      metric: `reviewer_sd[${reviewer}]`,
      ...common,
      intervalMethod: 'cluster_delta_log_t',
      estimate: spread?.standardDeviation?.estimate ?? null,
      lower: spread?.standardDeviation?.lower ?? null,
      upper: spread?.standardDeviation?.upper ?? null,
      ...(spread?.standardDeviation ? {} : { note: 'Not computable: needs differing scores from 2 or more sessions.' }),
    });
    reviewers.push({
      reviewer,
      offset,
      z,
      mean,
      standardDeviation,
      centreWeight: offsetFit?.weight ?? 0,
      ...(drift === undefined ? {} : { drift: drift.drift }),
    });
    if (offsetFit !== null) {
      calibration.push(
        ...hypothesis({
          code: offsetFit.estimate < 0 ? 'HARSH_REVIEWER' : 'GENEROUS_REVIEWER',
          subject: reviewer,
          figure: offset,
          standardError: offsetFit.standardError,
          df: offsetFit.df,
          margin: margins.reviewerOffset,
        }),
      );
    }
  });
  return { reviewers, family: { family: 'reviewer_calibration', hypotheses: calibration } };
}
