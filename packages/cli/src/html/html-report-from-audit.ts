import type { BiasAggregateReport, BiasMetricReport, BiasObservation } from '@council/bias-audit';
import { metricSubject, positionLabel } from '../bias-report-metrics.js';
import type { HtmlReportData, ReportMetricRow } from './html-report-data.js';
import type { IntervalRow } from './interval-chart.js';

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
    flagged,
  };
}

function intervalRow(m: BiasMetricReport, label: string, highlight = false): IntervalRow | null {
  if (m.estimate === null || m.ciLower === null || m.ciUpper === null) return null;
  return { label, estimate: m.estimate, ciLower: m.ciLower, ciUpper: m.ciUpper, n: m.sampleSize, highlight };
}

/**
 * Turns the cross-session report (and the observations it was computed from, for the scatter plot)
 * into what the HTML page draws. Scatter points are thinned evenly to at most 2,000.
 */
export function htmlReportFromAudit(options: {
  report: BiasAggregateReport;
  observations: readonly BiasObservation[];
  source: string;
  simulated: boolean;
  generatedAt: string;
}): HtmlReportData {
  const { report } = options;
  const flagged = new Set(report.flags.map((f) => f.metric));
  const flaggedSubjects = new Set(report.flags.map((f) => f.subject).filter((x): x is string => x !== null));
  const inWindow = windowFilter(report, options.observations);
  const scored = inWindow.filter((o) => o.score !== null);
  const step = Math.max(1, Math.ceil(scored.length / MAX_POINTS));
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < scored.length; i += step) points.push({ x: scored[i]!.responseLengthChars, y: scored[i]!.score! });

  const reviewers = [...new Set(report.reviewers.map((r) => r.reviewer))].sort();
  const candidates = [...new Set([...reviewers, ...report.affinity.map((a) => metricSubject(a.metric).split('→')[1] ?? '')])].filter((c) => c !== '').sort();
  const value = new Map<string, number | null>();
  for (const a of report.affinity) value.set(metricSubject(a.metric), a.estimate);
  for (const sp of report.selfPreference) {
    const reviewer = metricSubject(sp.metric);
    value.set(`${reviewer}→${reviewer}`, sp.estimate);
  }

  const metrics = [
    report.lengthCorrelation,
    ...report.position.effects,
    report.position.primacy,
    report.position.recency,
    ...report.reviewers.map((r) => r.harshness),
    ...report.selfPreference,
    report.anchoring,
  ].map((m) => row(m, flagged.has(m.metric)));

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
    positionEffects: report.position.effects.map((m) => intervalRow(m, positionLabel(Number(metricSubject(m.metric))))).filter((r): r is IntervalRow => r !== null),
    reviewerHarshness: report.reviewers
      .map((r) => intervalRow(r.harshness, r.reviewer, flaggedSubjects.has(r.reviewer)))
      .filter((r): r is IntervalRow => r !== null),
    lengthVsScore: { points, total: scored.length, correlation: row(report.lengthCorrelation, flagged.has(report.lengthCorrelation.metric)) },
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
    notes: [
      ...[...new Set(report.flags.map((f) => `${f.code}${f.subject ? ` (${f.subject})` : ''}: ${f.metric} = ${f.estimate.toFixed(3)}, Holm-adjusted p ${f.adjustedPValue < 0.001 ? '< 0.001' : `= ${f.adjustedPValue.toFixed(3)}`}`))],
      ...(report.flags.length === 0 && report.meetsMinimum ? ['No bias flag raised (Holm-corrected across families).'] : []),
      ...report.changePoints.map((c) => `Change point ${c.timestamp.slice(0, 10)}: ${c.kind} ${c.from} → ${c.to}`),
      ...report.notes,
    ],
  };
}

/** The observations of the sessions inside the report's window (the scatter shows what the figures used). */
function windowFilter(report: BiasAggregateReport, observations: readonly BiasObservation[]): BiasObservation[] {
  const { start, end } = report.window;
  if (start === null || end === null) return [];
  const lo = Date.parse(start);
  const hi = Date.parse(end);
  return observations.filter((o) => {
    const t = Date.parse(o.timestamp);
    return t >= lo && t <= hi;
  });
}
