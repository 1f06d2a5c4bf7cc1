import { resolve } from 'node:path';
import { createClickhouseBiasTable, exportBiasRecordsToClickhouse } from '@council/bias-engines';
import { BiasStoreError, skipReasons } from '@council/bias-store';
import type { BadLine, SkipReason } from '@council/bias-store';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { checkClickhouseUrl, clickhouseTableOptions } from './bias-report-engine.js';

export interface StoreClickhouseOptions {
  /** The server's HTTP interface (`--url`); a user and password may be in it and are never shown. */
  url?: string | undefined;
  /** `--table [database.]name`; default `council_bias_records` in the server's default database. */
  table?: string | undefined;
  /** `export --to clickhouse`: the stores to read; default the settings' store. */
  inputs?: string[] | undefined;
  /** `export --to clickhouse`: records per INSERT (default 50,000). */
  batchRows?: number | undefined;
  json?: boolean;
}

/** What `council store export --to clickhouse --json` prints. */
export interface StoreClickhouseExportDocument {
  kind: 'council-store-export-clickhouse';
  schemaVersion: 1;
  /** The server, without credentials. */
  url: string;
  table: string;
  inputs: string[];
  files: { path: string; lines: number }[];
  records: number;
  /** Records sent: all but those repeated within this load (the table keeps one row per record key). */
  inserted: number;
  duplicates: number;
  batches: number;
  skipped: number;
  skippedByReason: Partial<Record<SkipReason, number>>;
  firstBadLines: BadLine[];
  timestampsWithoutZone: number;
  elapsedMs: number;
}

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

function needUrl(options: StoreClickhouseOptions, command: string): string {
  if (options.url === undefined)
    throw new CliError({
      code: 'USAGE',
      message: `${command} needs --url, the HTTP interface of the ClickHouse server (e.g. --url http://127.0.0.1:8123).`,
    });
  return checkClickhouseUrl(options.url);
}

function asCliError(error: unknown): unknown {
  if (BiasStoreError.isInstance(error))
    return new CliError({
      code: error.code === 'INVALID_OPTION' ? 'USAGE' : 'RUNTIME',
      message: error.message,
      cause: error,
    });
  return error;
}

/** `council store clickhouse-init`: creates the bias-records table (and database) if missing; safe to run again. */
export async function runClickhouseInit(options: StoreClickhouseOptions, ctx: CommandContext): Promise<number> {
  const url = needUrl(options, 'council store clickhouse-init');
  let result;
  try {
    result = await createClickhouseBiasTable({ url, ...clickhouseTableOptions(options.table) });
  } catch (error) {
    throw asCliError(error);
  }
  if (options.json) {
    ctx.io.stdout(
      `${JSON.stringify({ kind: 'council-store-clickhouse-init', schemaVersion: 1, ...result }, null, 2)}\n`,
    );
    return 0;
  }
  ctx.io.stdout(
    `${result.created ? ctx.out.bold('Created') : 'Found'} the table ${result.table} on ${result.url}${result.created ? '' : ' (its columns, engine and sorting key are the documented ones)'}.\n` +
      ctx.out.dim(
        `Load records into it with: council store export --to clickhouse --url <url>${options.table === undefined ? '' : ` --table ${options.table}`}\n`,
      ),
  );
  return 0;
}

/** `council store export --to clickhouse`: every valid record of the inputs into the table, batched, idempotent by record key. */
export async function runClickhouseExport(options: StoreClickhouseOptions, ctx: CommandContext): Promise<number> {
  const url = needUrl(options, 'council store export --to clickhouse');
  const given = options.inputs ?? [];
  const inputs = given.length > 0 ? given.map((p) => resolve(ctx.cwd, p)) : [commandSettings(ctx).files.biasStore];
  const started = performance.now();
  let result;
  try {
    result = await exportBiasRecordsToClickhouse({
      inputs,
      cwd: ctx.cwd,
      url,
      ...clickhouseTableOptions(options.table),
      ...(options.batchRows === undefined ? {} : { batchRows: options.batchRows }),
    });
  } catch (error) {
    throw asCliError(error);
  }
  const skippedByReason: Partial<Record<SkipReason, number>> = {};
  for (const reason of skipReasons) if (result.reasons[reason] > 0) skippedByReason[reason] = result.reasons[reason];
  const doc: StoreClickhouseExportDocument = {
    kind: 'council-store-export-clickhouse',
    schemaVersion: 1,
    url: result.url,
    table: result.table,
    inputs,
    files: result.files,
    records: result.records,
    inserted: result.inserted,
    duplicates: result.duplicates,
    batches: result.batches,
    skipped: result.skipped,
    skippedByReason,
    firstBadLines: result.firstBadLines,
    timestampsWithoutZone: result.timestampsWithoutZone,
    elapsedMs: Math.round(performance.now() - started),
  };
  const say = (text: string): void => ctx.io.stderr(`council: ${text}\n`);
  if (doc.timestampsWithoutZone > 0)
    say(
      `${plural(doc.timestampsWithoutZone, 'record')} had a timestamp without a zone; read as UTC (the table stores that instant).`,
    );
  if (doc.skipped > 0) {
    const first = doc.firstBadLines[0];
    say(
      `skipped ${plural(doc.skipped, 'unreadable line')}${first ? ` (first: ${first.file}:${first.line}, ${first.reason}: ${first.detail})` : ''}; they are not records, and the store keeps them as they are.`,
    );
  }
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const seconds = doc.elapsedMs / 1000;
  ctx.io.stdout(
    `${ctx.out.bold('Loaded')} ${plural(doc.records, 'record')} from ${plural(doc.files.length, 'file')} into ${doc.table} on ${doc.url} in ${doc.batches.toLocaleString('en-US')} batch${doc.batches === 1 ? '' : 'es'}` +
      `${doc.duplicates > 0 ? ` (${plural(doc.duplicates, 'repeated record')} sent once)` : ''}, in ${seconds.toFixed(1)} s${seconds > 0 ? ` (${Math.round(doc.records / seconds).toLocaleString('en-US')} records/s)` : ''}.\n` +
      ctx.out.dim(
        `Loading the same records again adds nothing (rows are keyed by record). Report with: council bias-report --engine clickhouse --url <url>\n`,
      ),
  );
  return 0;
}
