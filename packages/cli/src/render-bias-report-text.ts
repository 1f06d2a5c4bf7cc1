import type { BiasAggregateReport, BiasMargins, BiasMetricReport, PositionTestReport } from '@council/bias-audit';
import {
  evidenceTierRange,
  findingSentence,
  flagName,
  indicatorName,
  userNote,
  withheldSentence,
} from './bias-findings.js';
import {
  driftCause,
  driftPowerLine,
  metricSubject,
  periodDates,
  positionLabel,
  withheldFigures,
} from './bias-report-metrics.js';
import { countNoun } from './count-noun.js';
import type { Style } from './create-style.js';
import { describeUnreadSessions } from './leave-out-unread-sessions.js';
import type { UnreadSessions } from './leave-out-unread-sessions.js';
import { renderCalibratedText } from './render-calibrated-text.js';
import { renderTable } from './render-table.js';

/** "+0.125", "-0.125"; a figure that rounds to zero prints "0.000", without a sign. */
function num(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const text = value.toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

function p(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return value < 0.001 ? '< 0.001' : value.toFixed(3);
}

/** A figure's p cell: its p, or "n/a: no variation" where its scores have no spread to test (bias-audit's note). */
function pCell(m: BiasMetricReport): string {
  return m.pValue == null && m.note?.startsWith('No variation') === true ? 'n/a: no variation' : p(m.pValue);
}

function pRelation(value: number): string {
  const text = p(value);
  return text.startsWith('<') ? text : `= ${text}`;
}

function ci(m: BiasMetricReport): string {
  return m.ciLower === null || m.ciUpper === null ? 'n/a' : `[${num(m.ciLower)}, ${num(m.ciUpper)}]`;
}

function rows(metrics: readonly BiasMetricReport[], label: (m: BiasMetricReport) => string): string[][] {
  return metrics.map((m) => [label(m), num(m.estimate), ci(m), String(m.sampleSize), String(m.sessions), pCell(m)]);
}

/** "6.12 [5.98, 6.26]": a profile figure with its interval in one cell. */
function withInterval(m: BiasMetricReport, signed: boolean): string {
  const f = (v: number | null) => (signed ? num(v, 2) : v === null || !Number.isFinite(v) ? 'n/a' : v.toFixed(2));
  return m.ciLower === null || m.ciUpper === null
    ? f(m.estimate)
    : `${f(m.estimate)} [${f(m.ciLower)}, ${f(m.ciUpper)}]`;
}

/** A margin without float noise: 0.05, 0.25, 1. */
function marginText(margin: number): string {
  return String(Number(margin.toPrecision(6)));
}

/** The margins in two lines of a terminal's width. */
function marginsText(m: BiasMargins): [string, string] {
  return [
    `length ±${marginText(m.lengthSlope)} pts/1,000 chars, position ±${marginText(m.position)} pts (±${marginText(m.rankPosition)} rank points),`,
    `reviewer offset ±${marginText(m.reviewerOffset)} pts, self-preference ±${marginText(m.selfPreference)} pts, affinity ±${marginText(m.affinity)} pts, anchoring ±${marginText(m.anchoring)} r`,
  ];
}

/**
 * How the no-position-effect test reached its p: "Wald F = 3.21", or its permutations — which stop early, by Besag and
 * Clifford's rule, once 10 of them are at least as extreme as the observed order (then p = 10 / permutations drawn),
 * so a clear "no effect" can rest on as few as 10 of the `budget` allowed.
 */
function positionTestMethod(t: PositionTestReport, budget: number): string {
  if (t.method === 'wald_f') return `Wald F = ${t.statistic.toFixed(2)}`;
  const drawn = `${t.permutations.toLocaleString('en-US')} within-session permutations`;
  return t.permutations < budget
    ? `${drawn} (stopped early, of up to ${budget.toLocaleString('en-US')}: 10 were at least as extreme as the observed order)`
    : drawn;
}

/** A change point in words: "config version 1.0.0 → 1.1.0", "members a,b,c → a,b,d". */
function changePointText(c: BiasAggregateReport['changePoints'][number]): string {
  return `${c.kind === 'config_version' ? 'config version' : 'members'} ${c.from} → ${c.to}`;
}

const HEAD = ['', 'estimate', '95% interval', 'N', 'sessions', 'p'];
const ALIGN = ['left', 'right', 'right', 'right', 'right', 'right'] as const;

/**
 * ADR-018's tiered text display: below 10 sessions only "Collecting data…"; 10–19 every figure with a
 * high-volatility warning; from 20 figures with intervals. Every figure has N, an interval and the window. Flags
 * and held-back flags are said as sentences (`bias-findings.ts`); the machine names stay in JSON and CSV.
 */
export function renderBiasReportText(options: {
  report: BiasAggregateReport;
  style: Style;
  verbose: boolean;
  source: string;
  simulated: boolean;
  /** Sessions of the window left out because no review of theirs could be read: said under the window line. */
  unreadSessions?: UnreadSessions;
  /** Issue 31's figures of the same records (`calibratedFigures`): their sections come before the flags. */
  calibrated?: Parameters<typeof renderCalibratedText>[0]['calibrated'];
  styleControlled?: Parameters<typeof renderCalibratedText>[0]['styleControlled'];
}): string {
  const { report, style: s } = options;
  /** A table of figures: every figure section's columns (HEAD), so only its rows differ. */
  const figureTable = (tableRows: string[][]): string =>
    renderTable({ head: HEAD, align: ALIGN, style: s, rows: tableRows });
  const w = report.window;
  const out: string[] = [];
  const level = Math.round(report.level * 100);
  const span = w.start && w.end ? `${w.start.slice(0, 10)} to ${w.end.slice(0, 10)}` : 'no sessions in the window';
  out.push(s.bold(`Council bias report${options.simulated ? ' [simulated data]' : ''}`));
  out.push(
    `${countNoun(w.sessions, 'session')} · ${w.observations.toLocaleString('en-US')} observations · ${span} · window: last ${Number.isFinite(w.maxSessions) ? w.maxSessions : 'all'} sessions, ${Number.isFinite(w.maxDays) ? `${w.maxDays} days` : 'any age'}`,
  );
  out.push(s.dim(`source: ${options.source}`));
  if (options.unreadSessions !== undefined && options.unreadSessions.sessions > 0)
    out.push(s.yellow(describeUnreadSessions(options.unreadSessions)));
  if (options.simulated)
    out.push(
      s.magenta(
        'Every record here came from the simulated provider: it shows how the report works, not how real models behave.',
      ),
    );
  out.push('');
  if (report.confidence === 'insufficient_data') {
    out.push(s.bold('Collecting data…'));
    out.push(
      `${w.sessions} of the 10 sessions needed before any figure is shown. Sessions are recorded while bias records are on (\`bias_persistence: true\` in config.yaml, or LLM_COUNCIL_BIAS_PERSISTENCE=true); \`council batch\` runs many at once.`,
    );
    return out.join('\n') + '\n';
  }
  const tierText =
    report.confidence === 'preliminary'
      ? s.yellow(
          `⚠ High volatility: only ${w.sessions} sessions (fewer than 20). Read the intervals, not the point estimates.`,
        )
      : report.confidence === 'moderate'
        ? `Evidence: ${evidenceTierRange(report.confidence)}. Every figure shows its ${level}% interval.`
        : `Evidence: ${evidenceTierRange(report.confidence)}.`;
  out.push(tierText);
  if (!report.meetsMinimum)
    out.push(
      s.dim(
        `Too little data for flags: ${w.sessions} sessions, ${report.minSessions} needed (LLM_COUNCIL_MIN_BIAS_SESSIONS); the figures are shown, no flag is raised.`,
      ),
    );
  out.push('');

  const length = report.length;
  out.push(
    s.bold('Length and score (score points per 1,000 characters; within a session: answers to the same question)'),
  );
  out.push(
    figureTable([
      ...rows([length.slope], () => 'slope within sessions'),
      ...rows([length.correlation], () => 'correlation r within sessions'),
      ...rows([length.betweenSessions], () => 'between sessions (association, not flagged)'),
    ]),
  );

  out.push(s.bold("Position (points above or below the same reviewer's average in the same session)"));
  out.push(
    figureTable([
      ...rows(report.position.effects, (m) => positionLabel(Number(metricSubject(m.metric)))),
      ...rows([report.position.primacy], () => 'primacy (first shown)'),
      ...rows([report.position.recency], () => 'recency (last shown)'),
    ]),
  );
  // Orders fixed by author or sorted by length: the figures above are n/a, and this says why (no test, no flag).
  const unidentified = report.position.identifiability;
  if (unidentified !== undefined)
    out.push(s.yellow(`  not estimable: ${unidentified.reason}; no position test or flag.`));
  for (const t of report.position.tests) {
    const method = positionTestMethod(t, report.resamples);
    out.push(`  no-position-effect test on ${t.basis}: ${method}, p ${pRelation(t.pValue)} (${t.sessions} sessions)`);
  }
  out.push('');

  out.push(s.bold('Reviewers (offset: points vs the typical reviewer on the same answer; negative = harsh)'));
  out.push(
    figureTable(
      rows(
        report.reviewers.map((r) => r.offset),
        (m) => metricSubject(m.metric),
      ),
    ),
  );
  // A reviewer whose offset changed within the window: its periods, oldest first (the offset above is the latest).
  const drifting = report.reviewers.filter((r) => r.drift !== undefined);
  if (drifting.length > 0) {
    out.push(s.bold("Reviewers whose offset changed within the window (the offset above is the latest period's)"));
    out.push(
      renderTable({
        head: ['reviewer', 'period', 'sessions', 'config version', 'offset', `${level}% interval`],
        align: ['left', 'left', 'right', 'left', 'right', 'right'],
        style: s,
        rows: drifting.flatMap((r) =>
          r.drift!.periods.map((period, i) => [
            i === 0 ? r.reviewer : '',
            periodDates(period),
            String(period.sessions),
            period.configVersion ?? '',
            num(period.offset.estimate),
            ci(period.offset),
          ]),
        ),
      }),
    );
    for (const r of drifting) {
      const { change, since, pValue } = r.drift!;
      out.push(
        `  ${r.reviewer}: changed by ${num(change.estimate)} ${ci(change)} from ${since.timestamp.slice(0, 10)} (session ${since.sessionId}; ${driftCause(r.drift!)}, p ${pRelation(pValue)}, ${change.sessions} sessions)`,
      );
    }
    out.push('');
  }
  // A short window where the drift test found nothing: the change it could have missed (only from 20 to 39 sessions).
  const unseen = report.reviewers.filter((r) => r.driftPower !== undefined);
  if (unseen.length > 0) {
    out.push(s.bold("Drift test power (a short window: a change in a reviewer's offset may have gone unseen)"));
    for (const r of unseen) out.push(`  ${r.reviewer}: ${driftPowerLine(r.driftPower!)}`);
    out.push('');
  }
  if (options.verbose && report.reviewers.length > 0) {
    out.push(
      s.bold('Reviewer profiles (analytics only; never used to weight votes; z: offset in within-answer score SDs)'),
    );
    out.push(
      renderTable({
        head: ['reviewer', 'mean score', 'SD', 'z', 'N', 'sessions'],
        align: ['left', 'right', 'right', 'right', 'right', 'right'],
        style: s,
        rows: report.reviewers.map((r) => [
          r.reviewer,
          withInterval(r.mean, false),
          withInterval(r.standardDeviation, false),
          withInterval(r.z, true),
          String(r.mean.sampleSize),
          String(r.mean.sessions),
        ]),
      }),
    );
  }

  out.push(s.bold('Self-preference (points a reviewer adds to its own answer, beyond its offset)'));
  if (report.selfPreference.length === 0) out.push(s.dim('  none: no reviewer scored its own answer in the window.\n'));
  else out.push(figureTable(rows(report.selfPreference, (m) => metricSubject(m.metric))));
  out.push(
    s.bold(
      "Anchoring (correlation r of display position with a score's distance from the session's mean; positive = later answers scored further from it)",
    ),
  );
  out.push(figureTable(rows([report.anchoring], () => 'anchoring')));

  if (options.verbose) {
    if (report.affinity.length > 0) {
      out.push(s.bold('Affinity (reviewer → author: points beyond offset, position and self-preference)'));
      out.push(figureTable(rows(report.affinity, (m) => metricSubject(m.metric))));
    }
    for (const t of report.trends) {
      out.push(s.bold(`Trend: ${indicatorName(t.indicator)}`));
      out.push(
        figureTable(
          rows([t.slopePerDay, ...t.windows], (m) =>
            m === t.slopePerDay ? 'slope per day' : `window to ${m.windowEnd?.slice(0, 10) ?? '?'}`,
          ),
        ),
      );
    }
    for (const a of report.anomalies)
      out.push(
        `  anomaly: session ${a.sessionId}: ${indicatorName(a.indicator)} ${a.value.toFixed(3)} (robust z ${a.robustZ.toFixed(1)})`,
      );
    for (const c of report.changePoints)
      out.push(`  change point at ${c.timestamp.slice(0, 10)}: ${changePointText(c)}`);
  }

  if (!(out.at(-1) ?? '').endsWith('\n')) out.push('');
  if (options.calibrated !== undefined)
    out.push(
      renderCalibratedText({
        calibrated: options.calibrated,
        styleControlled: options.styleControlled,
        style: s,
        verbose: options.verbose,
      }),
    );
  out.push(s.bold(`Flags (Holm-corrected across ${report.tests.length} families, α = ${report.alpha})`));
  const [margins1, margins2] = marginsText(report.margins);
  out.push(s.dim(`  a flag needs its ${level}% interval beyond: ${margins1}`));
  out.push(s.dim(`    ${margins2}`));
  if (report.flags.length === 0) out.push('  No bias flag raised.');
  // The same hypothesis can be flagged by two tests (scores and ranks): show it once.
  const seen = new Set<string>();
  for (const f of report.flags) {
    const key = `${f.code}|${f.subject ?? ''}|${f.metric}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      `  ${s.yellow('⚑')} ${flagName(f.code)}: ${findingSentence(f)} (flag margin ±${marginText(f.margin)}, adjusted p ${pRelation(f.adjustedPValue)})`,
    );
  }
  // A figure that would have flagged but has fewer sessions of its own than the minimum: shown, not flagged.
  for (const m of withheldFigures(report)) out.push(s.dim(`  not flagged, ${withheldSentence(m, m.flagWithheld)}`));
  const notes = report.notes.map(userNote).filter((n) => n !== null);
  if (notes.length > 0) {
    out.push('');
    for (const n of notes) out.push(s.dim(`note: ${n}`));
  }
  if (!options.verbose)
    out.push(s.dim('Run with --verbose for reviewer profiles, affinity, trends, anomalies and change points.'));
  return out.join('\n') + '\n';
}
