import { resolve } from 'node:path';
import {
  aggregateBiasAudit,
  calibratedView,
  effectiveJudges,
  poolReviewerEffects,
  safeParseBiasWindow,
} from '@council/bias-audit';
import type {
  BiasAggregateReport,
  BiasColumns,
  CalibratedView,
  EffectiveJudges,
  PooledReviewerEffects,
} from '@council/bias-audit';
import { BiasStoreError, councilPaths, createBiasStore, readBiasRecords, unsavedSessionIds } from '@council/bias-store';
import type { ReadBiasRecordsResult } from '@council/bias-store';
import type { BiasStyleControlled } from '../bias-style-controlled.js';
import { biasParquetOnRead } from '../bias-parquet-on-read.js';
import type { BiasReportEngine, EngineSource } from './bias-report-engine.js';
import { checkClickhouseUrl, clickhouseTableOptions, displayUrl, readWithEngine } from './bias-report-engine.js';
import { CliError } from '../cli-error.js';
import { createStyle } from '../create-style.js';
import { describeBiasRead } from '../describe-bias-read.js';
import { checkOutputFile, writeOutputFile } from '../write-output-file.js';
import { describeUnsaved } from '../describe-unsaved.js';
import { describeUnreadSessions, leaveOutUnreadSessions } from '../leave-out-unread-sessions.js';
import type { UnreadSessions } from '../leave-out-unread-sessions.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';

export type BiasReportFormat = 'text' | 'json' | 'csv' | 'html';

export interface BiasReportCommandOptions {
  /**
   * Bias stores to read, merged by session: store files, directories of stores, or globs over file names.
   * Default `LLM_COUNCIL_BIAS_STORE` or `$LLM_COUNCIL_HOME/bias_metrics.jsonl`.
   */
  input?: string | readonly string[];
  /** Most recent sessions kept; default `LLM_COUNCIL_BIAS_WINDOW_SESSIONS` (100). */
  sessions?: number;
  /** Days kept; default `LLM_COUNCIL_BIAS_WINDOW_DAYS` (30), none when `since` is given. */
  days?: number;
  /**
   * Keep records at or after this time (ISO 8601), a date bound in place of the default days (`council serve`'s
   * `/api/bias-report?since=`); with `days` too, the later bound applies.
   */
  since?: string;
  format?: BiasReportFormat;
  /** Write here instead of stdout. */
  output?: string;
  /** Reviewer profiles, affinity, trends, anomalies and change points in the text report. */
  verbose?: boolean;
  configVersion?: string;
  model?: string;
  /** The end of the window (ISO 8601); default now. */
  now?: string;
  /** Seed of the position permutation tests; default 1, so the same records give the same report. */
  seed?: number;
  /**
   * Permutations per position test: 0 takes the asymptotic Wald F test, otherwise at least 20. Default
   * `aggregateBiasAudit`'s: 1,000 below 100 sessions, else 0.
   */
  resamples?: number;
  /**
   * What reads the window's records: `embedded` (default, Council's own reader), `duckdb` (SQL in an embedded DuckDB
   * over the same inputs; needs the optional @duckdb/node-api) or `clickhouse` (SQL on the server at `url`, over the
   * table `council store export --to clickhouse` fills). Council computes the report from them: it is the same byte
   * for byte.
   */
  engine?: BiasReportEngine;
  /** `clickhouse`: the server's HTTP interface, e.g. http://127.0.0.1:8123 (credentials in the URL are never shown). */
  url?: string;
  /** `clickhouse`: the table (default council_bias_records), optionally `database.table`. */
  table?: string;
  /**
   * Also issue 31's analytics in the text and HTML reports, and the style-controlled ratings in the JSON: the
   * calibrated leaderboard, how many independent judges the reviewers are worth, the reviewer offsets pooled toward
   * the typical reviewer, and Bradley–Terry with answer length as a covariate. Bootstraps: seconds over many sessions.
   */
  calibrated?: boolean;
}

/** What was read for a report: the inputs, the reader's (or the engine's) counts, and the window's records as columns. */
export interface LoadedBiasRecords {
  /** The inputs as given (resolved against the working directory), the default store, or the ClickHouse URL shown. */
  paths: string[];
  read: Omit<ReadBiasRecordsResult, 'columns'>;
  /** The window's records the statistics take: the reader's, less `unread`'s sessions. */
  columns: BiasColumns;
  /** Sessions of the window left out because no review of theirs could be read (see `leaveOutUnreadSessions`). */
  unread: UnreadSessions;
}

/** The JSON document `council bias-report --format json` prints. Its top level is stable. */
export interface BiasReportDocument {
  kind: 'council-bias-report';
  schemaVersion: 1;
  generatedAt: string;
  simulated: boolean;
  /**
   * `lines`: non-blank lines read; `records`: valid records read; `kept`: records in the window the statistics
   * use; `outsideWindow`: records the window left out, by filter in `excluded`; `duplicates`/`conflicts`: repeated
   * records in the window, counted once; `skipped`: unreadable lines, by reason, with the first few;
   * `unreadSessions`: sessions of the window left out of the statistics because no review of theirs could be read
   * (every record without a score or a rank), with their records and ids.
   */
  input: {
    path: string;
    paths: string[];
    files: number;
    lines: number;
    records: number;
    kept: number;
    outsideWindow: number;
    excluded: ReadBiasRecordsResult['excluded'];
    duplicates: number;
    conflicts: number;
    skipped: number;
    reasons: ReadBiasRecordsResult['reasons'];
    firstBadLines: ReadBiasRecordsResult['firstBadLines'];
    unreadSessions: UnreadSessions;
  };
  /** `seed`: of the permutations (the report's `resamples` says how many were drawn). */
  options: {
    maxSessions: number | null;
    maxDays: number | null;
    /** The date bound (`since`), or null when the window is bounded by days alone. */
    since: string | null;
    minSessions: number;
    configVersion: string | null;
    model: string | null;
    now: string;
    seed: number;
  };
  report: BiasAggregateReport;
  /**
   * With `--calibrated`: the calibrated view (issue 31) of the same records, each model's answers' mean score
   * raw and with each reviewer's offset and the position effects taken out, with bootstrap intervals; the reviewer
   * offsets and affinities pooled toward the typical reviewer (and the offsets after the first 10, 20, 50 sessions);
   * and how many independent judges the council's reviewers are worth. Analytics only: live votes are unchanged.
   */
  calibrated?: CalibratedView & { partialPooling: PooledReviewerEffects; effectiveJudges: EffectiveJudges };
  /**
   * With `--calibrated`, beside `calibrated`: Bradley–Terry ratings from the same records' rankings with each answer's
   * length (in 1,000s of characters) as a covariate, beside the plain fit, with bootstrap intervals; or why they could
   * not be computed.
   */
  styleControlled?: BiasStyleControlled;
}

/**
 * The calibrated view, the pooled reviewer effects, how many independent judges the reviewers are worth and the
 * style-controlled ratings of one window's records (issue 31): what the JSON document carries beside the report, and
 * what the text and HTML reports and `council serve`'s dashboard show. Seeded like the report, so the same records
 * give the same figures in every format. Analytics only: live votes are unchanged.
 */
export async function calibratedFigures(
  columns: BiasColumns,
  /** `styleControlled: false` leaves the style fit out (its bootstrap is the slow part); default true. */
  options: { seed: number; resamples?: number; styleControlled?: boolean },
): Promise<Required<Pick<BiasReportDocument, 'calibrated'>> & Pick<BiasReportDocument, 'styleControlled'>> {
  const resampling = {
    seed: options.seed,
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
  };
  const calibrated = {
    ...calibratedView(columns, resampling),
    partialPooling: poolReviewerEffects(columns),
    effectiveJudges: effectiveJudges(columns, resampling),
  };
  if (options.styleControlled === false) return { calibrated };
  const { biasStyleControlled } = await import('../bias-style-controlled.js');
  return {
    calibrated,
    styleControlled: biasStyleControlled(columns, {
      bootstrap: Math.min(options.resamples ?? 1000, 1000),
      seed: options.seed,
    }),
  };
}

/** Computes the report without printing it: what `bias-report` and `demo` share. */
export async function computeBiasReport(
  options: BiasReportCommandOptions,
  ctx: CommandContext,
): Promise<{ document: BiasReportDocument; loaded: LoadedBiasRecords }> {
  const settings = commandSettings(ctx);
  const engine = options.engine ?? 'embedded';
  const given =
    options.input === undefined ? [] : typeof options.input === 'string' ? [options.input] : [...options.input];
  checkEngineOptions(options, given.length > 0);
  const clickhouse = engine === 'clickhouse' ? checkClickhouseUrl(options.url!) : null;
  const paths =
    clickhouse !== null
      ? [displayUrl(clickhouse)]
      : given.length === 0
        ? [settings.files.biasStore]
        : given.map((p) => resolve(ctx.cwd, p));
  const now = options.now === undefined ? ctx.now() : new Date(options.now);
  if (Number.isNaN(now.getTime()))
    throw new CliError({
      code: 'USAGE',
      message: `--now expects an ISO 8601 time such as 2026-11-22T12:00:00Z, got "${options.now}".`,
    });
  // The window, checked once: the reader (or the engine) applies it, and the report is labelled with it.
  const parsedWindow = safeParseBiasWindow({
    sessions: options.sessions ?? settings.biasWindow.sessions,
    days: options.days ?? (options.since === undefined ? settings.biasWindow.days : Number.POSITIVE_INFINITY),
    ...(options.since === undefined ? {} : { since: options.since }),
    now,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.configVersion === undefined ? {} : { configVersion: options.configVersion }),
  });
  if (!parsedWindow.success)
    throw new CliError({ code: 'USAGE', message: parsedWindow.error.message, cause: parsedWindow.error });
  const window = parsedWindow.value;
  let loaded: LoadedBiasRecords;
  try {
    // The default store may not exist yet: that is an empty report, not an error.
    const inputs =
      clickhouse !== null ? [] : given.length === 0 ? ((await defaultStoreExists(paths[0]!)) ? paths : []) : paths;
    const source: EngineSource | null =
      engine === 'embedded'
        ? null
        : clickhouse !== null
          ? { engine: 'clickhouse', url: clickhouse, ...clickhouseTableOptions(options.table) }
          : { engine: 'duckdb', inputs, cwd: ctx.cwd };
    // Sessions not saved whole yet (the home's journal names them) are left out of every report, counted apart.
    const leaveOutSessions = await unsavedSessionIds(councilPaths(settings.home).journal);
    const { columns: windowColumns, ...read } =
      source === null
        ? await readBiasRecords({ inputs, cwd: ctx.cwd, window, leaveOutSessions, parquet: biasParquetOnRead })
        : await readWithEngine(source, { window });
    if (read.excluded.unsaved > 0) ctx.io.stderr(`council: ${describeUnsaved(leaveOutSessions.size)}\n`);
    // Sessions whose reviews were all unreadable measure nothing: left out, and named, whatever read them.
    const { columns, unread } = leaveOutUnreadSessions(windowColumns);
    loaded = { paths, read, columns, unread };
  } catch (error) {
    if (BiasStoreError.isInstance(error))
      throw new CliError({
        code: error.code === 'INVALID_OPTION' ? 'USAGE' : 'RUNTIME',
        message: error.message,
        cause: error,
      });
    throw error;
  }
  // The reader (or the engine) applied the window and the filters: the statistics take its columns whole (the
  // window only labels the report's window).
  const seed = options.seed ?? 1;
  const report = aggregateBiasAudit(loaded.columns, {
    window,
    minSessions: settings.minSessions,
    seed,
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
  });
  const { read } = loaded;
  const kept = loaded.columns.length;
  const inWindow = kept + loaded.unread.records;
  const excluded = read.excluded;
  const document: BiasReportDocument = {
    kind: 'council-bias-report',
    schemaVersion: 1,
    generatedAt: ctx.now().toISOString(),
    // The reader counted simulated records over the whole window, left-out sessions included.
    simulated: inWindow > 0 && read.simulatedRecords === inWindow,
    input: {
      path: paths.join(', '),
      paths,
      files: read.files.length,
      lines: read.lines,
      records: read.records,
      kept,
      outsideWindow:
        excluded.model + excluded.configVersion + excluded.beforeWindow + excluded.future + excluded.beyondSessions,
      excluded,
      duplicates: read.repeated.duplicates,
      conflicts: read.repeated.conflicts,
      skipped: read.skipped,
      reasons: read.reasons,
      firstBadLines: read.firstBadLines,
      unreadSessions: loaded.unread,
    },
    options: {
      maxSessions: window.sessions,
      maxDays: window.days,
      since: window.since?.toISOString() ?? null,
      minSessions: settings.minSessions,
      configVersion: options.configVersion ?? null,
      model: options.model ?? null,
      now: now.toISOString(),
      seed,
    },
    report,
  };
  return { document, loaded };
}

/** `--engine`, `--url` and `--table` go together as documented; anything else is a usage error saying what to give. */
function checkEngineOptions(options: BiasReportCommandOptions, hasInput: boolean): void {
  const engine = options.engine ?? 'embedded';
  const usage = (message: string): CliError => new CliError({ code: 'USAGE', message });
  if (engine === 'clickhouse') {
    if (options.url === undefined)
      throw usage(
        '--engine clickhouse needs --url, the HTTP interface of the ClickHouse server holding the records (e.g. --url http://127.0.0.1:8123).',
      );
    if (hasInput)
      throw usage(
        "--engine clickhouse reads the records from the server's table, not --input: load files into it with `council store export --to clickhouse --url … --input …`.",
      );
  } else {
    if (options.url !== undefined)
      throw usage(
        `--url is for --engine clickhouse${engine === 'embedded' ? '' : ` (this report runs on ${engine})`}.`,
      );
    if (options.table !== undefined)
      throw usage(
        `--table is for --engine clickhouse${engine === 'embedded' ? '' : ` (this report runs on ${engine})`}.`,
      );
  }
}

async function defaultStoreExists(path: string): Promise<boolean> {
  return (await createBiasStore({ path }).files()).length > 0;
}

/** `council bias-report`: ADR-018's cross-session report as text, JSON, CSV or a self-contained HTML page. */
export async function runBiasReportCommand(options: BiasReportCommandOptions, ctx: CommandContext): Promise<number> {
  const format = options.format ?? 'text';
  const toFile = options.output !== undefined;
  // The file is checked before the report is computed: never over a store, the history or anything but a regular file.
  const output = toFile
    ? {
        path: resolve(ctx.cwd, options.output!),
        flag: '--output',
        orElse: 'leave --output out to print the report',
        settings: commandSettings(ctx),
      }
    : null;
  if (output !== null) checkOutputFile(output);
  const { document, loaded } = await computeBiasReport(options, ctx);
  for (const line of describeBiasRead({ document, loaded, defaultStore: options.input === undefined }))
    ctx.io.stderr(line);
  const style = toFile ? createStyle(false) : ctx.out;
  // Each renderer loads only when its format is asked for: the text tables (cli-table3) and the HTML page are
  // ~100 KB that a JSON report would otherwise parse at every start.
  let text: string;
  const calibratedOptions = {
    seed: document.options.seed,
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
  };
  switch (format) {
    case 'json':
      // The calibrated figures refit the model 1,000 times or more: only when asked for, as in text and HTML.
      if (options.calibrated === true)
        Object.assign(document, await calibratedFigures(loaded.columns, calibratedOptions));
      text = `${JSON.stringify(document, null, 2)}\n`;
      break;
    case 'csv': {
      const { renderBiasReportCsv } = await import('../render-bias-report-csv.js');
      text = renderBiasReportCsv(document.report);
      // A CSV has rows of metrics only: the sessions it leaves out are said on stderr.
      if (loaded.unread.sessions > 0) ctx.io.stderr(`council: ${describeUnreadSessions(loaded.unread)}\n`);
      if (options.calibrated === true)
        ctx.io.stderr('council: --calibrated has no CSV rows: its figures are in the text, JSON and HTML reports.\n');
      break;
    }
    case 'html': {
      const [{ renderHtmlReport }, { htmlReportFromAudit }] = await Promise.all([
        import('../html/render-html-report.js'),
        import('../html/html-report-from-audit.js'),
      ]);
      text = renderHtmlReport(
        htmlReportFromAudit({
          report: document.report,
          records: loaded,
          source: document.input.path,
          simulated: document.simulated,
          generatedAt: document.generatedAt,
          unreadSessions: loaded.unread,
          ...(options.calibrated === true
            ? { calibrated: await calibratedFigures(loaded.columns, calibratedOptions) }
            : {}),
        }),
      );
      break;
    }
    case 'text': {
      const { renderBiasReportText } = await import('../render-bias-report-text.js');
      text = renderBiasReportText({
        report: document.report,
        style,
        verbose: options.verbose === true,
        source: document.input.path,
        simulated: document.simulated,
        unreadSessions: loaded.unread,
        ...(options.calibrated === true ? await calibratedFigures(loaded.columns, calibratedOptions) : {}),
      });
      // Above 10 sessions, where there are figures: where issue 31's are.
      if (options.calibrated !== true && document.report.confidence !== 'insufficient_data')
        text += `${style.dim(
          'Run with --calibrated for the calibrated leaderboard, how many judges you really have, the pooled reviewer offsets and style-controlled ratings.',
        )}\n`;
      break;
    }
  }
  if (output !== null) {
    // 0600, like every file Council writes; through a temporary file renamed over it: never half a report.
    const target = writeOutputFile({ ...output, data: text });
    ctx.io.stderr(`Wrote the ${format} report to ${target}\n`);
  } else {
    ctx.io.stdout(text);
  }
  return 0;
}
