import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import type { BiasMetricReport } from '../bias-metric-report.js';
import type { Estimand, StudyEstimate, StudyEstimator } from './study-estimator.js';

/** The `name[subject]` of a metric, e.g. `affinity[model-0→model-3]` → `model-0→model-3`. */
const subjectOf = (metric: string): string | null => /\[(.*)\]$/.exec(metric)?.[1] ?? null;

/**
 * `aggregateBiasAudit` as the study sees it: its flags, and every interval it reports against the estimand
 * it stands for. The window takes every session, and flags may fire from 10 sessions on (the study's
 * smallest stores have 20).
 */
export const aggregateEstimator: StudyEstimator = {
  name: 'aggregateBiasAudit',
  run(observations, options) {
    const report = aggregateBiasAudit(observations, {
      window: { now: '2100-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY },
      minSessions: 10,
      seed: options.seed,
      ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
    });
    const estimates: StudyEstimate[] = [];
    const add = (
      estimand: Estimand,
      figure: BiasMetricReport,
      subject: string | null = subjectOf(figure.metric),
    ): void => {
      if (figure.estimate === null || figure.ciLower === null || figure.ciUpper === null) return;
      estimates.push({
        estimand,
        subject,
        interval: figure.intervalMethod,
        estimate: figure.estimate,
        lower: figure.ciLower,
        upper: figure.ciUpper,
      });
    };
    add('length_slope', report.length.slope, null);
    add('length_correlation', report.length.correlation, null);
    add('length_between_sessions', report.length.betweenSessions, null);
    for (const effect of report.position.effects) add('position_effect', effect);
    add('primacy', report.position.primacy, null);
    add('recency', report.position.recency, null);
    for (const effect of report.position.rankEffects) add('rank_position_effect', effect);
    for (const reviewer of report.reviewers) add('reviewer_offset', reviewer.offset, reviewer.reviewer);
    for (const figure of report.selfPreference) add('self_preference', figure);
    for (const figure of report.affinity) add('affinity', figure);
    add('anchoring', report.anchoring, null);
    for (const trend of report.trends) add('trend_slope', trend.slopePerDay, trend.indicator);
    return { flags: report.flags.map((f) => ({ code: f.code, subject: f.subject })), estimates };
  },
};
