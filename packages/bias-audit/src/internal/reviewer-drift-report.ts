import type { ReviewerDriftReport } from '../bias-aggregate-report.js';
import type { BiasColumns } from '../bias-columns.js';
import type { ScoreModelEffect, ScoreModelFit } from '../fit-score-model.js';
import { fitScoreModel } from '../fit-score-model.js';
import type { SessionTimeline } from './indicator-trends.js';
import type { ReportFigures } from './report-figures.js';
import { createReportFigures } from './report-figures.js';
import { reviewerDrifts, reviewerSeries, splitDriftingReviewers } from './reviewer-drift.js';
import type { ReviewerDriftFinding, ReviewerSeries } from './reviewer-drift.js';
import { criticalT } from './t-summary.js';

/** What a drifting reviewer's profile shows: its latest period's offset (with that period's window) and the periods. */
export interface DriftedReviewer {
  /** Figure builders whose window is the latest period's. */
  latestFigures: ReportFigures;
  note: string;
  drift: ReviewerDriftReport;
}

const round = (x: number | null): string => (x === null ? 'not computable' : (Math.round(x * 100) / 100).toFixed(2));

/**
 * The change figure (`reviewer_drift[…]`): the step the test found, the latest period's mean gap less the earlier's,
 * with its Welch t interval at the report's level over both periods' sessions; its p is the drift test's.
 */
function changeFigure(spec: {
  name: string;
  finding: ReviewerDriftFinding;
  series: ReviewerSeries;
  level: number;
  timeline: SessionTimeline;
  margin: number;
}): ReviewerDriftReport['change'] {
  const { finding, series, level, timeline } = spec;
  const n = series.sessions.length;
  const { estimate, standardError, df } = finding.change;
  const half = standardError > 0 ? criticalT(level, df) * standardError : 0;
  const { figure } = createReportFigures({
    level,
    sessions: n,
    windowStart: timeline.iso(series.sessions[0]!),
    windowEnd: timeline.iso(series.sessions[n - 1]!),
  });
  return figure({
    metric: `reviewer_drift[${spec.name}]`,
    sessions: n,
    sampleSize: n,
    unit: 'sessions',
    intervalMethod: 'welch_t_between_periods',
    estimate,
    lower: estimate - half,
    upper: estimate + half,
    pValue: finding.pValue,
    margin: spec.margin,
  });
}

/** The config version of a period of a reviewer's series, where it has one throughout (1 + index, 0 none). */
function periodConfig(configs: readonly number[], versions: readonly string[]): string | undefined {
  const first = configs[0];
  if (first === undefined || first === 0 || configs.some((c) => c !== first)) return undefined;
  return versions[first - 1];
}

/**
 * Part of step 5 of `aggregateBiasAudit`: each reviewer's test of a change in its offset within the window
 * (`reviewerDrifts`). Where one is found, the score model is fitted again with that reviewer's latest period as a
 * member of its own, so both periods' offsets are measured against one typical reviewer; every reviewer's offset is
 * then read from that fit (the drifting one's from its latest period). Null when no reviewer drifted (the report is
 * then exactly what it was without the test), when the refit cannot place every reviewer, or when the report was
 * built from summaries (no records to test).
 */
export function reviewerDriftReport(spec: {
  columns: BiasColumns | null;
  fit: ScoreModelFit;
  alpha: number;
  level: number;
  seed: number;
  margin: number;
  timeline: SessionTimeline;
}): { fit: ScoreModelFit; drifted: Map<string, DriftedReviewer>; notes: string[] } | null {
  const { columns, level, timeline } = spec;
  if (columns === null) return null;
  // Each reviewer's offset over the window, so the series do not step where members come and go.
  const pooled = new Float64Array(columns.models.length);
  const index = new Map(columns.models.map((name, m) => [name, m]));
  for (const o of spec.fit.reviewerOffsets) pooled[index.get(o.subject)!] = o.estimate;
  const found = reviewerDrifts(columns, { alpha: spec.alpha, seed: spec.seed, margin: spec.margin }, pooled);
  if (found.length === 0) return null;
  const refit = fitScoreModel(splitDriftingReviewers(columns, found), { level });
  const bySubject = new Map(refit.reviewerOffsets.map((o) => [o.subject, o]));
  const series = reviewerSeries(columns);
  const drifted = new Map<string, DriftedReviewer>();
  const notes: string[] = [];
  const offsets: ScoreModelEffect[] = [];
  const latestName = (j: number): string => `${columns.models[found[j]!.model]!}\u0000latest${j}`;
  for (const offset of refit.reviewerOffsets) {
    if (offset.subject.includes('\u0000')) continue;
    const j = found.findIndex((f) => columns.models[f.model] === offset.subject);
    if (j < 0) {
      offsets.push(offset);
      continue;
    }
    const latest = bySubject.get(latestName(j));
    if (latest !== undefined) offsets.push({ ...latest, subject: offset.subject });
  }
  found.forEach((f, j) => {
    const name = columns.models[f.model]!;
    const before = bySubject.get(name) ?? null;
    const latest = bySubject.get(latestName(j)) ?? null;
    if (latest === null) return;
    const sessions = series[f.model]!.sessions;
    const configs = series[f.model]!.configs;
    const split = sessions.indexOf(f.fromSession);
    const periodOf = ({
      from,
      to,
      fit,
      label,
    }: {
      from: number;
      to: number;
      fit: ScoreModelEffect | null;
      label: string;
    }) => {
      const start = timeline.iso(sessions[from]!);
      const end = timeline.iso(sessions[to - 1]!);
      const figures = createReportFigures({ level, sessions: to - from, windowStart: start, windowEnd: end });
      const configVersion =
        f.cause === 'config_version' ? periodConfig(configs.slice(from, to), columns.configVersions) : undefined;
      return {
        figures,
        period: {
          start,
          end,
          sessions: to - from,
          ...(configVersion === undefined ? {} : { configVersion }),
          offset: figures.fromModel({
            metric: `reviewer_offset[${name}]${label}`,
            fit,
            unit: 'scores',
            intervalMethod: 'cluster_cr1_t',
            why: 'needs answers scored by this reviewer and another in 2 or more sessions of the period',
            sessions: to - from,
          }),
        },
      };
    };
    const first = periodOf({ from: 0, to: split, fit: before, label: ` before ${timeline.iso(f.fromSession)}` });
    const last = periodOf({
      from: split,
      to: sessions.length,
      fit: latest,
      label: ` since ${timeline.iso(f.fromSession)}`,
    });
    const since = { sessionId: columns.sessionIds[f.fromSession]!, timestamp: timeline.iso(f.fromSession) };
    const note = `The offset changed within the window (${f.cause === 'config_version' ? 'at a config-version change' : 'one change point'}, p ${f.pValue.toPrecision(2)}): offset since ${since.timestamp}: ${round(latest.estimate)}; before: ${round(before?.estimate ?? null)}. The headline offset is the latest period's.`;
    notes.push(`${name}: ${note}`);
    drifted.set(name, {
      latestFigures: last.figures,
      note,
      drift: {
        cause: f.cause,
        method: f.method,
        statistic: f.statistic,
        pValue: f.pValue,
        adjustedPValue: f.adjustedPValue,
        change: changeFigure({ name, finding: f, series: series[f.model]!, level, timeline, margin: spec.margin }),
        since,
        periods: [first.period, last.period],
      },
    });
  });
  // Where the split leaves the periods unconnected (every reviewer present at the change split there, so no one
  // links the two periods' scales), the refit cannot place them: the report stays as it was without the test.
  if (drifted.size < found.length || offsets.length < spec.fit.reviewerOffsets.length) return null;
  return { fit: { ...spec.fit, reviewerOffsets: offsets }, drifted, notes };
}
