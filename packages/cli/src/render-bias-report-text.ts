import type { BiasAggregateReport, BiasMetricReport } from '@council/bias-audit';
import { metricSubject, positionLabel } from './bias-report-metrics.js';
import type { Style } from './create-style.js';
import { renderTable } from './render-table.js';

function num(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

function p(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return value < 0.001 ? '< 0.001' : value.toFixed(3);
}

function pRelation(value: number): string {
  const text = p(value);
  return text.startsWith('<') ? text : `= ${text}`;
}

function ci(m: BiasMetricReport): string {
  return m.ciLower === null || m.ciUpper === null ? 'n/a' : `[${num(m.ciLower)}, ${num(m.ciUpper)}]`;
}

function rows(metrics: readonly BiasMetricReport[], label: (m: BiasMetricReport) => string): string[][] {
  return metrics.map((m) => [label(m), num(m.estimate), ci(m), String(m.sampleSize), String(m.sessions), p(m.pValue)]);
}

const HEAD = ['', 'estimate', '95% interval', 'N', 'sessions', 'p'];
const ALIGN = ['left', 'right', 'right', 'right', 'right', 'right'] as const;

/**
 * ADR-018's tiered text display: below 10 sessions only "Collecting data…"; 10–19 every figure with a
 * high-volatility warning; from 20 figures with intervals. Every figure has N, an interval and the window.
 */
export function renderBiasReportText(options: {
  report: BiasAggregateReport;
  style: Style;
  verbose: boolean;
  source: string;
  simulated: boolean;
}): string {
  const { report, style: s } = options;
  const w = report.window;
  const out: string[] = [];
  const level = Math.round(report.level * 100);
  const span = w.start && w.end ? `${w.start.slice(0, 10)} to ${w.end.slice(0, 10)}` : 'no sessions in the window';
  out.push(s.bold(`Council bias report${options.simulated ? ' [simulated data]' : ''}`));
  out.push(`${w.sessions} sessions · ${w.observations.toLocaleString('en-US')} observations · ${span} · window: last ${Number.isFinite(w.maxSessions) ? w.maxSessions : 'all'} sessions, ${Number.isFinite(w.maxDays) ? `${w.maxDays} days` : 'any age'}`);
  out.push(s.dim(`source: ${options.source}`));
  if (options.simulated) out.push(s.magenta('Every record here came from the simulated provider: it shows how the report works, not how real models behave.'));
  out.push('');
  if (report.confidence === 'insufficient_data') {
    out.push(s.bold('Collecting data…'));
    out.push(`${w.sessions} of the 10 sessions needed before any metric is shown (ADR-018). Sessions are recorded when LLM_COUNCIL_BIAS_PERSISTENCE=true; \`council batch\` runs many at once.`);
    return out.join('\n') + '\n';
  }
  const tierText =
    report.confidence === 'preliminary'
      ? s.yellow(`⚠ High volatility: only ${w.sessions} sessions (fewer than 20). Read the intervals, not the point estimates.`)
      : report.confidence === 'moderate'
        ? `Confidence: moderate (20–49 sessions). Every figure shows its ${level}% interval.`
        : `Confidence: high (50 or more sessions).`;
  out.push(tierText);
  if (!report.meetsMinimum) out.push(s.dim(`No flag is raised below ${report.minSessions} sessions (LLM_COUNCIL_MIN_BIAS_SESSIONS).`));
  out.push('');

  const lc = report.lengthCorrelation;
  out.push(s.bold('Length and score'));
  out.push(
    renderTable({
      head: HEAD,
      align: ALIGN,
      style: s,
      rows: [
        ...rows([lc], () => 'pooled correlation r'),
        ...(lc.bootstrap ? [[`session bootstrap (${lc.bootstrap.method})`, '', `[${num(lc.bootstrap.ciLower)}, ${num(lc.bootstrap.ciUpper)}]`, '', '', '']] : []),
      ],
    }),
  );

  out.push(s.bold('Position (score relative to the same reviewer in the same session)'));
  out.push(
    renderTable({
      head: HEAD,
      align: ALIGN,
      style: s,
      rows: [
        ...rows(report.position.effects, (m) => positionLabel(Number(metricSubject(m.metric)))),
        ...rows([report.position.primacy], () => 'primacy (first shown)'),
        ...rows([report.position.recency], () => 'recency (last shown)'),
      ],
    }),
  );
  for (const t of report.position.tests) {
    out.push(`  no-position-effect test on ${t.basis}: p ${pRelation(t.pValue)} (${t.permutations} within-session permutations, ${t.blocks} blocks)`);
  }
  out.push('');

  out.push(s.bold('Reviewers (own score minus the others’ mean for the same answers; negative = harsh)'));
  out.push(renderTable({ head: HEAD, align: ALIGN, style: s, rows: rows(report.reviewers.map((r) => r.harshness), (m) => metricSubject(m.metric)) }));
  if (options.verbose && report.reviewers.length > 0) {
    out.push(s.bold('Reviewer profiles (analytics only; never used to weight votes)'));
    out.push(
      renderTable({
        head: ['reviewer', 'mean', 'SD', 'scores', 'sessions', 'harshness z'],
        align: ['left', 'right', 'right', 'right', 'right', 'right'],
        style: s,
        rows: report.reviewers.map((r) => [r.reviewer, r.mean.toFixed(2), r.standardDeviation.toFixed(2), String(r.n), String(r.sessions), r.harshnessZ === null ? 'n/a' : `${num(r.harshnessZ, 2)} (|z| ≤ ${r.maxAbsHarshnessZ.toFixed(2)})`]),
      }),
    );
  }

  out.push(s.bold('Self-preference (own answer vs the others’ consensus, net of harshness)'));
  out.push(renderTable({ head: HEAD, align: ALIGN, style: s, rows: rows(report.selfPreference, (m) => metricSubject(m.metric)) }));
  out.push(renderTable({ head: HEAD, align: ALIGN, style: s, rows: rows([report.anchoring], () => 'anchoring') }));

  if (options.verbose) {
    if (report.affinity.length > 0) {
      out.push(s.bold('Affinity (reviewer → candidate)'));
      out.push(renderTable({ head: HEAD, align: ALIGN, style: s, rows: rows(report.affinity, (m) => metricSubject(m.metric)) }));
    }
    for (const t of report.trends) {
      out.push(s.bold(`Trend: ${t.indicator}`));
      out.push(renderTable({ head: HEAD, align: ALIGN, style: s, rows: rows([t.slopePerDay, ...t.windows], (m) => (m === t.slopePerDay ? 'slope per day' : `window to ${m.windowEnd?.slice(0, 10) ?? '?'}`)) }));
    }
    for (const a of report.anomalies) out.push(`  anomaly: session ${a.sessionId} ${a.indicator} = ${a.value.toFixed(3)} (robust z ${a.robustZ.toFixed(1)})`);
    for (const c of report.changePoints) out.push(`  change point at ${c.timestamp.slice(0, 10)}: ${c.kind} ${c.from} → ${c.to}`);
  }

  if (!(out.at(-1) ?? '').endsWith('\n')) out.push('');
  out.push(s.bold(`Flags (Holm-corrected across ${report.tests.length} families, α = ${report.alpha})`));
  if (report.flags.length === 0) out.push('  No bias flag raised.');
  // The same hypothesis can be flagged by two tests (scores and ranks): show it once.
  const seen = new Set<string>();
  for (const f of report.flags) {
    const key = `${f.code}|${f.subject ?? ''}|${f.metric}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(`  ${s.yellow('⚑')} ${f.code}${f.subject ? ` ${f.subject}` : ''}: ${f.metric} = ${num(f.estimate)}, adjusted p ${pRelation(f.adjustedPValue)}`);
  }
  const notes = [...report.notes];
  if (notes.length > 0) {
    out.push('');
    for (const n of notes) out.push(s.dim(`note: ${n}`));
  }
  if (!options.verbose) out.push(s.dim('Run with --verbose for reviewer profiles, affinity, trends, anomalies and change points.'));
  return out.join('\n') + '\n';
}
