import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { aggregateBiasAudit } from '@council/bias-audit';
import type { BiasAggregateReport } from '@council/bias-audit';
import { CliError } from '../cli-error.js';
import { createStyle } from '../create-style.js';
import type { CommandContext } from '../command-context.js';
import { htmlReportFromAudit } from '../html/html-report-from-audit.js';
import { renderHtmlReport } from '../html/render-html-report.js';
import { loadObservations } from '../load-observations.js';
import type { LoadedObservations } from '../load-observations.js';
import { readCliSettings } from '../read-cli-settings.js';
import { renderBiasReportCsv } from '../render-bias-report-csv.js';
import { renderBiasReportText } from '../render-bias-report-text.js';

export type BiasReportFormat = 'text' | 'json' | 'csv' | 'html';

export interface BiasReportCommandOptions {
  /** The bias records file; default `LLM_COUNCIL_BIAS_STORE` or `$LLM_COUNCIL_HOME/bias_metrics.jsonl`. */
  input?: string;
  /** Most recent sessions kept; default `LLM_COUNCIL_BIAS_WINDOW_SESSIONS` (100). */
  sessions?: number;
  /** Days kept; default `LLM_COUNCIL_BIAS_WINDOW_DAYS` (30). */
  days?: number;
  format?: BiasReportFormat;
  /** Write here instead of stdout. */
  output?: string;
  /** Reviewer profiles, affinity, trends, anomalies and change points in the text report. */
  verbose?: boolean;
  configVersion?: string;
  model?: string;
  /** The end of the window (ISO 8601); default now. */
  now?: string;
  /** Seed of the bootstrap and permutation tests; default 1, so the same records give the same report. */
  seed?: number;
}

/** The JSON document `council bias-report --format json` prints. Its top level is stable. */
export interface BiasReportDocument {
  kind: 'council-bias-report';
  schemaVersion: 1;
  generatedAt: string;
  simulated: boolean;
  /** `records`: the window's records, validated; `outsideWindow`: records the window left out (not validated). */
  input: { path: string; lines: number; records: number; outsideWindow: number; skipped: number; firstBadLines: LoadedObservations['firstBadLines'] };
  options: { maxSessions: number | null; maxDays: number | null; minSessions: number; configVersion: string | null; model: string | null };
  report: BiasAggregateReport;
}

/** Computes the report without printing it: what `bias-report` and `demo` share. */
export async function computeBiasReport(options: BiasReportCommandOptions, ctx: CommandContext): Promise<{ document: BiasReportDocument; loaded: LoadedObservations }> {
  const settings = readCliSettings({ env: ctx.env, cwd: ctx.cwd, home: ctx.home });
  const path = options.input === undefined ? settings.files.biasStore : resolve(ctx.cwd, options.input);
  const now = options.now === undefined ? ctx.now() : new Date(options.now);
  if (Number.isNaN(now.getTime())) throw new CliError({ code: 'USAGE', message: `--now expects an ISO 8601 time such as 2026-11-22T12:00:00Z, got "${options.now}".` });
  const maxSessions = options.sessions ?? settings.windowSessions;
  const maxDays = options.days ?? settings.windowDays;
  const loaded = await loadObservations({
    path,
    explicit: options.input !== undefined,
    window: { now: now.getTime(), maxDays, maxSessions },
    filter: { ...(options.model === undefined ? {} : { model: options.model }), ...(options.configVersion === undefined ? {} : { configVersion: options.configVersion }) },
  });
  const report = aggregateBiasAudit(loaded.observations, {
    now,
    maxSessions,
    maxDays,
    minSessions: settings.minSessions,
    seed: options.seed ?? 1,
    ...(options.configVersion === undefined ? {} : { configVersion: options.configVersion }),
    ...(options.model === undefined ? {} : { model: options.model }),
  });
  const document: BiasReportDocument = {
    kind: 'council-bias-report',
    schemaVersion: 1,
    generatedAt: ctx.now().toISOString(),
    simulated: loaded.records > 0 && loaded.simulatedRecords === loaded.observations.length && loaded.observations.length > 0,
    input: { path, lines: loaded.lines, records: loaded.records, outsideWindow: loaded.outsideWindow, skipped: loaded.skipped, firstBadLines: loaded.firstBadLines },
    options: { maxSessions, maxDays, minSessions: settings.minSessions, configVersion: options.configVersion ?? null, model: options.model ?? null },
    report,
  };
  return { document, loaded };
}

/** `council bias-report`: ADR-018's cross-session report as text, JSON, CSV or a self-contained HTML page. */
export async function runBiasReportCommand(options: BiasReportCommandOptions, ctx: CommandContext): Promise<number> {
  const format = options.format ?? 'text';
  const { document, loaded } = await computeBiasReport(options, ctx);
  if (loaded.skipped > 0) {
    const first = loaded.firstBadLines[0];
    ctx.io.stderr(`council: skipped ${loaded.skipped} unreadable line${loaded.skipped === 1 ? '' : 's'} in ${loaded.path}${first ? ` (first: line ${first.line}, ${first.reason})` : ''}; the rest was read.\n`);
  }
  if (loaded.positionNotDisplayOrder > 0) {
    ctx.io.stderr(`council: ${loaded.positionNotDisplayOrder} records come from an older writer whose position may be a rank, not the display order.\n`);
  }
  if (loaded.lines === 0 && options.input === undefined) {
    ctx.io.stderr(`council: no bias records yet at ${loaded.path}. Set LLM_COUNCIL_BIAS_PERSISTENCE=true before running sessions, or try \`council demo\`.\n`);
  }
  if (loaded.lines > 0 && loaded.records === 0) {
    // Records exist but none was used: say which setting left them out, not "collect more data".
    const filters = [options.model === undefined ? null : `--model ${options.model}`, options.configVersion === undefined ? null : `--config-version ${options.configVersion}`].filter((f) => f !== null);
    if (filters.length > 0) {
      ctx.io.stderr(`council: no record in ${loaded.path} matches ${filters.join(' and ')}; check the id (\`council history list\` shows the members) or drop the filter.\n`);
    } else if (loaded.outsideWindow > 0) {
      ctx.io.stderr(`council: all ${loaded.outsideWindow} records in ${loaded.path} are outside the window (last ${document.options.maxSessions} sessions, ${document.options.maxDays} days); widen it with --days or --sessions, or set --now.\n`);
    }
  }
  const toFile = options.output !== undefined;
  const style = toFile ? createStyle(false) : ctx.out;
  let text: string;
  switch (format) {
    case 'json':
      text = `${JSON.stringify(document, null, 2)}\n`;
      break;
    case 'csv':
      text = renderBiasReportCsv(document.report);
      break;
    case 'html':
      text = renderHtmlReport(
        htmlReportFromAudit({ report: document.report, observations: loaded.observations, source: loaded.path, simulated: document.simulated, generatedAt: document.generatedAt }),
      );
      break;
    case 'text':
      text = renderBiasReportText({ report: document.report, style, verbose: options.verbose === true, source: loaded.path, simulated: document.simulated });
      break;
  }
  if (toFile) {
    const target = resolve(ctx.cwd, options.output!);
    try {
      writeFileSync(target, text);
    } catch (error) {
      throw new CliError({ code: 'RUNTIME', message: `Could not write ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Check the directory exists and is writable.`, cause: error });
    }
    ctx.io.stderr(`Wrote the ${format} report to ${target}\n`);
  } else {
    ctx.io.stdout(text);
  }
  return 0;
}
