import type { AggregateBiasFlag, BiasAggregateReport, BiasColumns, BiasMetricReport } from '@council/bias-audit';
import {
  driftCause,
  driftPowerLine,
  metricSubject,
  periodDates,
  positionLabel,
  withheldFigures,
} from '../bias-report-metrics.js';
import { findingSentence, flagName, userNote, withheldSentence } from '../bias-findings.js';
import { omitUndefined } from '../omit-undefined.js';
import type { CalibratedSectionData } from './calibrated-section.js';
import type { HtmlReportData, ReportMetricRow, ReviewerPeriodsRow } from './html-report-data.js';
import type { IntervalRow } from './interval-chart.js';
import { formatNumber } from './svg-primitives.js';
import { describeUnreadSessions } from '../leave-out-unread-sessions.js';
import type { UnreadSessions } from '../leave-out-unread-sessions.js';
import { withinSessionLengthPoints } from './within-session-length-points.js';

const MAX_POINTS = 2000;

function row(m: BiasMetricReport, flagged: boolean): ReportMetricRow {
  return {
    metric: m.metric,
    estimate: m.estimate,
    ciLower: m.ciLower,
    ciUpper: m.ciUpper,
    sampleSize: m.sampleSize,
    sessions: m.sessions,
    confidence: m.confidence,
    pValue: m.pValue ?? null,
    ...omitUndefined({ margin: m.margin }),
    flagged,
  };
}

function intervalRow(m: BiasMetricReport, label: string, highlight = false): IntervalRow | null {
  if (m.estimate === null || m.ciLower === null || m.ciUpper === null) return null;
  return { label, estimate: m.estimate, ciLower: m.ciLower, ciUpper: m.ciUpper, n: m.sampleSize, highlight };
}

/**
 * Turns the cross-session report (and the records it was computed from, for the length chart's points) into what the HTML page draws. The points are thinned evenly to at most 2,000.
 */
export function htmlReportFromAudit(options: {
  report: BiasAggregateReport;
  /** The window's records as `aggregateBiasAudit` took them: the columns of `readBiasRecords` (or of an engine's read). */
  records: { columns: BiasColumns };
  source: string;
  simulated: boolean;
  generatedAt: string;
  /** Sessions of the window left out because no review of theirs could be read: the page says so under its header. */
  unreadSessions?: UnreadSessions;
  /** Issue 31's figures of the same records (`calibratedFigures`), drawn after the reviewer offsets. */
  calibrated?: CalibratedSectionData;
}): HtmlReportData {
  const { report } = options;
  const flagged = new Set(report.flags.map((f) => f.metric));
  const { records } = options;
  const { points, total } = withinSessionLengthPoints(records.columns, MAX_POINTS);
  const { slope, correlation, betweenSessions } = report.length;

  const reviewers = [...new Set(report.reviewers.map((r) => r.reviewer))].sort();
  const candidates = [
    ...new Set([...reviewers, ...report.affinity.map((a) => metricSubject(a.metric).split('→')[1] ?? '')]),
  ]
    .filter((c) => c !== '')
    .sort();
  const value = new Map<string, number | null>();
  for (const a of report.affinity) value.set(metricSubject(a.metric), a.estimate);
  for (const sp of report.selfPreference) {
    const reviewer = metricSubject(sp.metric);
    value.set(`${reviewer}→${reviewer}`, sp.estimate);
  }

  const metrics = [
    slope,
    correlation,
    betweenSessions,
    ...report.position.effects,
    report.position.primacy,
    report.position.recency,
    ...report.reviewers.map((r) => r.offset),
    // The change of a reviewer whose offset changed within the window (REVIEWER_DRIFT's figure).
    ...report.reviewers.flatMap((r) => (r.drift === undefined ? [] : [r.drift.change])),
    ...report.selfPreference,
    report.anchoring,
  ].map((m) => row(m, flagged.has(m.metric)));

  // Reviewers the drift test found no change in on a short window: the change it could have missed.
  const unseen = report.reviewers.flatMap((r) =>
    r.driftPower === undefined ? [] : [{ reviewer: r.reviewer, line: driftPowerLine(r.driftPower) }],
  );

  return {
    title: options.simulated ? 'Council bias report (simulated data)' : 'Council bias report',
    generatedAt: options.generatedAt,
    source: options.source,
    simulated: options.simulated,
    sessions: report.window.sessions,
    observations: report.window.observations,
    windowStart: report.window.start,
    windowEnd: report.window.end,
    confidence: report.confidence,
    metrics,
    margins: { position: report.margins.position, reviewerOffset: report.margins.reviewerOffset },
    positionEffects: report.position.effects
      .map((m) => intervalRow(m, positionLabel(Number(metricSubject(m.metric)))))
      .filter((r): r is IntervalRow => r !== null),
    reviewerOffsets: report.reviewers
      .map((r) => intervalRow(r.offset, r.reviewer, flagged.has(r.offset.metric)))
      .filter((r): r is IntervalRow => r !== null),
    reviewerPeriods: report.reviewers.flatMap((r): ReviewerPeriodsRow[] =>
      r.drift === undefined
        ? []
        : [
            {
              reviewer: r.reviewer,
              cause: driftCause(r.drift),
              since: { date: r.drift.since.timestamp.slice(0, 10), sessionId: r.drift.since.sessionId },
              pValue: r.drift.pValue,
              change: row(r.drift.change, flagged.has(r.drift.change.metric)),
              periods: r.drift.periods.map((p) => ({
                dates: periodDates(p),
                sessions: p.sessions,
                configVersion: p.configVersion ?? null,
                offset: row(p.offset, false),
              })),
            },
          ],
    ),
    ...(unseen.length === 0 ? {} : { driftUnseen: unseen }),
    lengthVsScore: {
      points,
      total,
      slope: row(slope, flagged.has(slope.metric)),
      correlation: row(correlation, flagged.has(correlation.metric)),
      betweenSessions: row(betweenSessions, false),
    },
    trends: report.trends.map((t) => ({
      metric: t.indicator,
      points: t.windows
        .filter((w) => w.estimate !== null && w.ciLower !== null && w.ciUpper !== null && w.windowEnd !== null)
        .map((w) => ({ at: w.windowEnd!, estimate: w.estimate!, ciLower: w.ciLower!, ciUpper: w.ciUpper! })),
    })),
    affinity: {
      reviewers,
      candidates,
      values: reviewers.map((r) => candidates.map((c) => value.get(`${r}→${c}`) ?? null)),
    },
    ...(options.calibrated === undefined ? {} : { calibrated: options.calibrated }),
    ...(options.unreadSessions !== undefined && options.unreadSessions.sessions > 0
      ? { leftOut: describeUnreadSessions(options.unreadSessions) }
      : {}),
    notes: [
      ...[...new Set(report.flags.map(flagNote))],
      ...withheldFigures(report).map((m) => `Not flagged, ${withheldSentence(m, m.flagWithheld)}`),
      ...(report.flags.length === 0 && report.meetsMinimum
        ? ['No bias flag raised (Holm-corrected across families).']
        : []),
      ...report.changePoints.map(
        (c) =>
          `Change point ${c.timestamp.slice(0, 10)}: ${c.kind === 'config_version' ? 'config version' : 'members'} ${c.from} → ${c.to}`,
      ),
      ...report.notes.map(userNote).filter((n) => n !== null),
    ],
  };
}

/** "⚑ Harsh reviewer: x scores 1.21 points below the typical reviewer [1.07–1.35] (flag margin ±0.25, Holm-adjusted p < 0.001)". */
function flagNote(f: AggregateBiasFlag): string {
  const p = f.adjustedPValue < 0.001 ? '< 0.001' : `= ${formatNumber(f.adjustedPValue, 3)}`;
  return `⚑ ${flagName(f.code)}: ${findingSentence(f)} (flag margin ±${Number(f.margin.toPrecision(6))}, Holm-adjusted p ${p})`;
}
