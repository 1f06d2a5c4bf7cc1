import type { ChangePoint, SessionAnomaly, TrendReport } from '../bias-aggregate-report.js';
import { changePoints } from './change-points.js';
import { indicatorTrend } from './indicator-trends.js';
import type { SessionTimeline } from './indicator-trends.js';
import type { ReportContext } from './report-context.js';
import { sessionAnomalies } from './session-anomalies.js';

/**
 * Step 7 of `aggregateBiasAudit`: the indicators over time — trends (a slope per day and rolling windows of
 * `trendWindow` sessions), anomalous sessions (beyond `anomalyThreshold` robust SDs), change points — and the
 * notes they call for.
 */
export function timelineReport(
  context: ReportContext,
  spec: {
    models: readonly string[];
    sessionIds: readonly string[];
    timeline: SessionTimeline;
    trendWindow: number;
    anomalyThreshold: number;
  },
): { trends: TrendReport[]; anomalies: SessionAnomaly[]; changes: ChangePoint[]; notes: string[] } {
  const { indicators, level } = context;
  const { figure, fromT } = context.figures;
  const { timeline, trendWindow, anomalyThreshold } = spec;
  const S = spec.sessionIds.length;
  const notes: string[] = [];
  const lengthSeries = indicators.lengthR;
  const trends: TrendReport[] =
    S === 0
      ? []
      : [
          { indicator: 'length_score_correlation' as const, series: lengthSeries },
          { indicator: 'position_spread' as const, series: indicators.positionSpread },
        ].map((t) =>
          indicatorTrend({
            ...t,
            lengthN: indicators.lengthN,
            timeline,
            sessionsPerWindow: trendWindow,
            level,
            figure,
            fromT,
          }),
        );
  const anomalies: SessionAnomaly[] = [
    { indicator: 'length_score_correlation' as const, series: lengthSeries },
    { indicator: 'position_spread' as const, series: indicators.positionSpread },
    { indicator: 'mean_score' as const, series: indicators.meanScores },
  ].flatMap((a) => sessionAnomalies({ ...a, sessionIds: spec.sessionIds, timeline, threshold: anomalyThreshold }));
  const changes = changePoints({ indicators, models: spec.models, sessionIds: spec.sessionIds, timeline });
  if (changes.length > 0)
    notes.push(
      `${changes.length} change point(s) in the window: consider filtering by configVersion or model, since pooling across a model change mixes two councils.`,
    );
  if (indicators.scoredRecords === 0 && S > 0)
    notes.push('No observation in the window carries a score; only rank-based figures are available.');
  return { trends, anomalies, changes, notes };
}
