import type { ChangePoint, MembershipChangesReport, SessionAnomaly, TrendReport } from '../bias-aggregate-report.js';
import { changePoints } from './change-points.js';
import { indicatorTrend } from './indicator-trends.js';
import type { SessionTimeline } from './indicator-trends.js';
import type { ReportContext } from './report-context.js';
import { sessionAnomalies } from './session-anomalies.js';

/**
 * Step 7 of `aggregateBiasAudit`: the indicators over time — trends (a slope per day and rolling windows of
 * `trendWindow` sessions), anomalous sessions (beyond `anomalyThreshold` robust SDs), change points (membership
 * changes counted instead where the members rotate) — and the notes they call for.
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
): {
  trends: TrendReport[];
  anomalies: SessionAnomaly[];
  changes: ChangePoint[];
  notes: string[];
  membershipChanges?: MembershipChangesReport;
} {
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
  const all = changePoints({ indicators, models: spec.models, sessionIds: spec.sessionIds, timeline });
  // A council whose members come and go changes membership at many sessions: that is its design, not a list of
  // events. Where membership changes at more than one session in four (and more than 5 times), the report says so
  // once, with the count and who took part, and lists only the config-version changes.
  const membership = all.filter((c) => c.kind === 'models');
  const rotating = membership.length > 5 && membership.length > (S - 1) / 4;
  const changes = rotating ? all.filter((c) => c.kind !== 'models') : all;
  let membershipChanges: MembershipChangesReport | undefined;
  if (rotating) {
    const sizes = membership.flatMap((c) => [c.from, c.to]).map((key) => key.split(',').length);
    const members = [...new Set(membership.flatMap((c) => [...c.from.split(','), ...c.to.split(',')]))].sort();
    membershipChanges = {
      count: membership.length,
      sessions: S,
      members,
      minMembers: Math.min(...sizes),
      maxMembers: Math.max(...sizes),
    };
    notes.push(
      `Membership changed at ${membership.length} of ${S} sessions (${membershipChanges.minMembers}–${membershipChanges.maxMembers} of ${members.length} members a session): a council whose members rotate, counted here rather than listed as change points; each reviewer's figures are measured against the others present.`,
    );
  }
  if (changes.length > 0)
    notes.push(
      `${changes.length} change point(s) in the window: consider filtering by configVersion or model, since pooling across a model change mixes two councils.`,
    );
  if (indicators.scoredRecords === 0 && S > 0)
    notes.push('No observation in the window carries a score; only rank-based figures are available.');
  return { trends, anomalies, changes, notes, ...(membershipChanges === undefined ? {} : { membershipChanges }) };
}
