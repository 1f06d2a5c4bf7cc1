import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BiasStoreError, createBiasStore, exportBiasRecords, skipReasons } from '@council/bias-store';
import { biasParquet } from '@council/bias-engines';
import type {
  BadLine,
  BiasExportFormat,
  BiasExportPartition,
  BiasMetricRecord,
  JsonlStore,
  JsonlStoreStats,
  SegmentFile,
  SkipReason,
} from '@council/bias-store';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';
import { renderTable } from '../render-table.js';
import type { StoreClickhouseOptions } from './store-clickhouse-command.js';
import { checkOutputDirectory } from '../write-output-file.js';

export interface StoreCommandOptions {
  action: string | undefined;
  /** The store's active file; default `LLM_COUNCIL_BIAS_STORE` or `$LLM_COUNCIL_HOME/bias_metrics.jsonl`. */
  input?: string;
  json?: boolean;
  /**
   * `compact`: gzip a closed segment only once its last change is this old, and wait that long after closing
   * the active file (default 0: safe while councils run, since the store never gzips a segment a writer still holds).
   */
  minAgeMs?: number;
  /** `export`: the stores to read (files, directories, quoted globs); default the settings' store. */
  inputs?: string[] | undefined;
  /** `export`: what to write. */
  format?: BiasExportFormat | undefined;
  /** `export`: the directory the day partitions go into. */
  output?: string | undefined;
  /** `export`: rows per Parquet row group (default 100,000). */
  rowGroupRows?: number | undefined;
  /** `export --to clickhouse`: load into a ClickHouse table instead of writing files. */
  to?: 'clickhouse' | undefined;
  /** `export --to clickhouse` and `clickhouse-init`: the server, the table, and what to load. */
  clickhouse?: StoreClickhouseOptions | undefined;
}

/** What `council store export --json` prints. */
export interface StoreExportDocument {
  kind: 'council-store-export';
  schemaVersion: 1;
  format: BiasExportFormat;
  output: string;
  inputs: string[];
  /** Input files read, with their lines. */
  files: { path: string; lines: number }[];
  records: number;
  partitions: BiasExportPartition[];
  bytes: number;
  skipped: number;
  skippedByReason: Partial<Record<SkipReason, number>>;
  firstBadLines: BadLine[];
  timestampsWithoutZone: number;
  /** Staging directories of killed exports that this one removed. */
  removedStaging: number;
  elapsedMs: number;
}

/** How the store's files stand: closed segments still plain, gzipped ones, and the active file. */
export interface StoreFilesSummary {
  plainSegments: number;
  compactedSegments: number;
  /** Bytes of the active file, or null when there is none (after a rotation, before the next append). */
  activeBytes: number | null;
  list: { path: string; segment: number; compressed: boolean; active: boolean; bytes: number }[];
}

/** What `council store stats --json` prints. */
export interface StoreStatsDocument {
  kind: 'council-store-stats';
  schemaVersion: 1;
  path: string;
  /** False when neither the file nor any segment of it exists (a default store not created yet). */
  exists: boolean;
  records: number;
  sessions: number;
  bytes: number;
  /** Bytes on disk divided by sessions, rounded; null without sessions. */
  bytesPerSession: number | null;
  files: StoreFilesSummary;
  oldest: string | null;
  newest: string | null;
  skipped: number;
  skippedByReason: Partial<Record<SkipReason, number>>;
  firstBadLines: BadLine[];
  timestampsWithoutZone: number;
  warnings: string[];
}

/** What `council store compact --json` prints. */
export interface StoreCompactDocument {
  kind: 'council-store-compact';
  schemaVersion: 1;
  path: string;
  exists: boolean;
  /** The number of the segment the active file was closed as, or null when it was empty or absent. */
  closedActiveAs: number | null;
  /** Closed segments gzipped by this run, and their bytes before and after. */
  compacted: number;
  compactedBytesBefore: number;
  compactedBytesAfter: number;
  /** Closed segments still plain afterwards (changed too recently, see `minAgeMs`). */
  leftPlain: number;
  /** The whole store on disk, before and after. */
  bytesBefore: number;
  bytesAfter: number;
  records: number;
  sessions: number;
  bytesPerSession: number | null;
}

/** `bias_metrics.000001.jsonl[.gz]`: the stem, and whether it is gzipped (the store's own naming, see its README). */
const segmentName = /^(.+)\.\d{6,}(\.jsonl)?(\.gz)?$/;

/**
 * Whether `path` looks like a closed segment of a store rather than a store: gzipped, or named like a segment
 * with its store's active file or another segment beside it. (A lone `logs.20261122.jsonl` is a store.)
 */
function isSegmentOfAStore(path: string): boolean {
  const m = segmentName.exec(basename(path));
  if (m === null) return false;
  if (m[3] !== undefined) return true;
  const [name, stem, ext = ''] = [basename(path), m[1]!, m[2]];
  let siblings: string[];
  try {
    siblings = readdirSync(dirname(path));
  } catch {
    return false; // the store itself reports a directory it cannot list
  }
  return siblings.some(
    (other) => other !== name && (other === `${stem}${ext}` || segmentName.exec(other)?.[1] === stem),
  );
}
// The store never compacts a segment a writer can still hold (writers pin the file they append to), so no wait is needed.
const defaultMinAgeMs = 0;

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** `587 bytes`, `18.4 KiB`, `3.2 MiB`: for sentences. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('en-US')} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `18,870 bytes (18.4 KiB)`: the exact count too, for the table. */
function formatBytesExact(bytes: number): string {
  return bytes < 1024 ? formatBytes(bytes) : `${bytes.toLocaleString('en-US')} bytes (${formatBytes(bytes)})`;
}

function perSession(bytes: number, sessions: number): number | null {
  return sessions === 0 ? null : Math.round(bytes / sessions);
}

function summariseFiles(files: readonly SegmentFile[]): StoreFilesSummary {
  const active = files.find((f) => f.active);
  return {
    plainSegments: files.filter((f) => !f.active && !f.compressed).length,
    compactedSegments: files.filter((f) => !f.active && f.compressed).length,
    activeBytes: active === undefined ? null : active.bytes,
    list: files.map((f) => ({
      path: f.path,
      segment: f.segment,
      compressed: f.compressed,
      active: f.active,
      bytes: f.bytes,
    })),
  };
}

interface OpenedStore {
  path: string;
  explicit: boolean;
  store: JsonlStore<BiasMetricRecord>;
  /** The files before the command touched anything; empty when the store does not exist yet. */
  files: SegmentFile[];
}

/** Finds the store (`--input` or the settings), refusing a directory, a segment, or a named store that does not exist. */
async function openStore(options: StoreCommandOptions, ctx: CommandContext): Promise<OpenedStore> {
  const explicit = options.input !== undefined;
  const path = explicit ? resolve(ctx.cwd, options.input!) : commandSettings(ctx).files.biasStore;
  const where = explicit ? '--input' : 'LLM_COUNCIL_BIAS_STORE';
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CliError({
      code: 'RUNTIME',
      message: `${path} is a directory, not a bias store. Give ${where} the store's active file, e.g. ${resolve(path, 'bias_metrics.jsonl')}.`,
    });
  }
  if (isSegmentOfAStore(path)) {
    // Opening a segment as a store would read gzip as text, and compacting would close it as a segment of itself.
    throw new CliError({
      code: 'USAGE',
      message: `${path} is a closed segment of a store, not the store itself. Give ${where} the active file (e.g. bias_metrics.jsonl); its segments beside it are found and read with it.`,
    });
  }
  const store = createBiasStore({ path });
  const files = await store.files();
  if (files.length === 0 && explicit) {
    throw new CliError({
      code: 'RUNTIME',
      message: `No bias store at ${path}: neither the file nor any segment of it exists. Check --input (the store's .jsonl file).`,
    });
  }
  return { path, explicit, store, files };
}

/** No store at `path` yet: said so, with whether bias records are on or the one step that turns them on. */
async function noStoreYet(path: string, ctx: CommandContext): Promise<string> {
  const { biasRecordsState } = await import('../settings/bias-records-opt-in.js');
  return `No bias records yet at ${path}. ${await biasRecordsState(commandSettings(ctx))}`;
}

function statsDocument(opened: OpenedStore, stats: JsonlStoreStats | null): StoreStatsDocument {
  const skippedByReason: Partial<Record<SkipReason, number>> = {};
  for (const reason of skipReasons)
    if ((stats?.reasons[reason] ?? 0) > 0) skippedByReason[reason] = stats!.reasons[reason];
  const bytes = stats?.bytes ?? 0;
  const sessions = stats?.sessions ?? 0;
  return {
    kind: 'council-store-stats',
    schemaVersion: 1,
    path: opened.path,
    exists: opened.files.length > 0,
    records: stats?.records ?? 0,
    sessions,
    bytes,
    bytesPerSession: perSession(bytes, sessions),
    files: summariseFiles(opened.files),
    oldest: stats?.oldest ?? null,
    newest: stats?.newest ?? null,
    skipped: stats?.skipped ?? 0,
    skippedByReason,
    firstBadLines: stats?.firstBadLines ?? [],
    timestampsWithoutZone: stats?.timestampsWithoutZone ?? 0,
    warnings: stats?.warnings ?? [],
  };
}

async function runStats(options: StoreCommandOptions, ctx: CommandContext): Promise<number> {
  const opened = await openStore(options, ctx);
  if (opened.files.length === 0) {
    if (options.json) {
      ctx.io.stderr(`council: ${await noStoreYet(opened.path, ctx)}\n`);
      ctx.io.stdout(`${JSON.stringify(statsDocument(opened, null), null, 2)}\n`);
    } else {
      ctx.io.stdout(`${await noStoreYet(opened.path, ctx)}\n`);
    }
    return 0;
  }
  const doc = statsDocument(opened, await opened.store.stats());
  for (const warning of doc.warnings) ctx.io.stderr(`council: ${warning}\n`);
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  const first = doc.firstBadLines[0];
  const rows: string[][] = [
    ['records', doc.records.toLocaleString('en-US')],
    ['sessions', doc.sessions.toLocaleString('en-US')],
    ['bytes on disk', formatBytesExact(doc.bytes)],
    ['bytes a session', doc.bytesPerSession === null ? 'n/a' : formatBytesExact(doc.bytesPerSession)],
    ['closed segments, plain', String(doc.files.plainSegments)],
    ['closed segments, gzipped', String(doc.files.compactedSegments)],
    [
      'active file',
      doc.files.activeBytes === null ? 'none (the next session starts one)' : formatBytesExact(doc.files.activeBytes),
    ],
    ['oldest record', doc.oldest ?? 'n/a'],
    ['newest record', doc.newest ?? 'n/a'],
    [
      'skipped lines',
      doc.skipped === 0
        ? '0'
        : `${doc.skipped.toLocaleString('en-US')}: ${Object.entries(doc.skippedByReason)
            .map(([reason, n]) => `${reason} ${n}`)
            .join(', ')}`,
    ],
  ];
  if (first !== undefined)
    rows.push(['first bad line', `${first.file}:${first.line} (${first.reason}: ${first.detail})`]);
  ctx.io.stdout(renderTable({ head: ['bias store', opened.path], rows, style: s }));
  if (doc.files.plainSegments > 0 || (doc.files.activeBytes ?? 0) > 0) {
    ctx.io.stdout(
      s.dim(
        `Gzip the closed segments (and the active file) with: council store compact${opened.explicit ? ` --input ${opened.path}` : ''}\n`,
      ),
    );
  }
  return 0;
}

async function runCompact(options: StoreCommandOptions, ctx: CommandContext): Promise<number> {
  const minAgeMs = options.minAgeMs ?? defaultMinAgeMs;
  if (!Number.isFinite(minAgeMs) || minAgeMs < 0)
    throw new CliError({
      code: 'USAGE',
      message: `--min-age must be a duration ≥ 0, e.g. 10s or 0; got ${String(minAgeMs)}.`,
    });
  const opened = await openStore(options, ctx);
  const { store, path } = opened;
  const bytesBefore = opened.files.reduce((sum, f) => sum + f.bytes, 0);
  const doc: StoreCompactDocument = {
    kind: 'council-store-compact',
    schemaVersion: 1,
    path,
    exists: opened.files.length > 0,
    closedActiveAs: null,
    compacted: 0,
    compactedBytesBefore: 0,
    compactedBytesAfter: 0,
    leftPlain: 0,
    bytesBefore,
    bytesAfter: bytesBefore,
    records: 0,
    sessions: 0,
    bytesPerSession: null,
  };
  if (!doc.exists) {
    if (options.json) {
      ctx.io.stderr(`council: ${await noStoreYet(path, ctx)} Nothing to compact.\n`);
      ctx.io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      ctx.io.stdout(`${await noStoreYet(path, ctx)} Nothing to compact.\n`);
    }
    return 0;
  }
  const say = (text: string) => ctx.io.stderr(`${text}\n`);
  const activeBytes = opened.files.find((f) => f.active)?.bytes ?? 0;
  if (activeBytes > 0) {
    doc.closedActiveAs = await store.rotate();
    if (doc.closedActiveAs === null)
      say(
        'council: the active file was not closed: another council process is closing it right now. Run compact again in a moment to gzip it.',
      );
    else if (minAgeMs > 0) {
      // A council that opened the active file just before the rotation still writes into the new segment: let it land.
      say(
        `Closed the active file as segment ${doc.closedActiveAs}; waiting ${(minAgeMs / 1000).toFixed(minAgeMs % 1000 === 0 ? 0 : 1)} s in case a running council was writing to it (--min-age 0 skips this when none is)…`,
      );
      await sleep(minAgeMs + 50);
    }
  }
  const result = await store.compact({ minAgeMs });
  const stats = await store.stats();
  const after = summariseFiles(await store.files());
  Object.assign(doc, {
    compacted: result.compacted,
    compactedBytesBefore: result.bytesBefore,
    compactedBytesAfter: result.bytesAfter,
    leftPlain: after.plainSegments,
    bytesAfter: stats.bytes,
    records: stats.records,
    sessions: stats.sessions ?? 0,
    bytesPerSession: perSession(stats.bytes, stats.sessions ?? 0),
  });
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  const lines = [`${s.bold('Bias store')} ${path}`];
  if (doc.closedActiveAs !== null)
    lines.push(`Closed the active file (${formatBytes(activeBytes)}) as segment ${doc.closedActiveAs}.`);
  if (doc.compacted > 0) {
    const share =
      doc.compactedBytesBefore === 0 ? 0 : Math.round((100 * doc.compactedBytesAfter) / doc.compactedBytesBefore);
    lines.push(
      `Compacted ${plural(doc.compacted, 'segment')}: ${formatBytes(doc.compactedBytesBefore)} → ${formatBytes(doc.compactedBytesAfter)} (${share}%).`,
    );
  } else {
    lines.push(
      doc.leftPlain === 0 ? 'Nothing to compact: every closed segment is gzipped already.' : 'Compacted no segment.',
    );
  }
  if (doc.leftPlain > 0) {
    lines.push(
      s.yellow(
        `${plural(doc.leftPlain, 'closed segment')} left plain: changed less than ${minAgeMs / 1000} s ago, so a council may still be writing to it. Run compact again later.`,
      ),
    );
  }
  const onDisk =
    doc.bytesAfter === doc.bytesBefore
      ? formatBytes(doc.bytesAfter)
      : `${formatBytes(doc.bytesBefore)} → ${formatBytes(doc.bytesAfter)}`;
  lines.push(
    `Store: ${onDisk} on disk; ${plural(doc.records, 'record')} of ${plural(doc.sessions, 'session')}` +
      (doc.bytesPerSession === null ? '.' : `, ${formatBytes(doc.bytesPerSession)} a session.`),
  );
  ctx.io.stdout(`${lines.join('\n')}\n`);
  if (stats.skipped > 0) {
    const first = stats.firstBadLines[0];
    say(
      `council: the store holds ${plural(stats.skipped, 'unreadable line')}${first ? ` (first: ${first.file}:${first.line}, ${first.reason})` : ''}; compaction keeps them byte for byte, and readers skip them.`,
    );
  }
  return 0;
}

async function runExport(options: StoreCommandOptions, ctx: CommandContext): Promise<number> {
  const { format, output } = options;
  if (format === undefined)
    throw new CliError({ code: 'USAGE', message: 'council store export needs --format parquet or --format jsonl.' });
  if (output === undefined)
    throw new CliError({
      code: 'USAGE',
      message: 'council store export needs --output DIR: the directory to write the day=YYYY-MM-DD partitions into.',
    });
  const given = options.inputs ?? [];
  const settings = commandSettings(ctx);
  const inputs = given.length > 0 ? given.map((p) => resolve(ctx.cwd, p)) : [settings.files.biasStore];
  checkOutputDirectory({ path: resolve(ctx.cwd, output), flag: '--output', settings });
  const started = performance.now();
  let result;
  try {
    result = await exportBiasRecords({
      inputs,
      cwd: ctx.cwd,
      output,
      format,
      parquet: biasParquet,
      ...(options.rowGroupRows === undefined ? {} : { rowGroupRows: options.rowGroupRows }),
    });
  } catch (error) {
    if (BiasStoreError.isInstance(error)) {
      const message =
        given.length === 0 && error.code === 'IO_ERROR' && error.message.startsWith('No bias records at')
          ? await noStoreYet(inputs[0]!, ctx)
          : error.message;
      throw new CliError({ code: error.code === 'INVALID_OPTION' ? 'USAGE' : 'RUNTIME', message, cause: error });
    }
    throw error;
  }
  const skippedByReason: Partial<Record<SkipReason, number>> = {};
  for (const reason of skipReasons) if (result.reasons[reason] > 0) skippedByReason[reason] = result.reasons[reason];
  const doc: StoreExportDocument = {
    kind: 'council-store-export',
    schemaVersion: 1,
    format,
    output: result.output,
    inputs,
    files: result.files,
    records: result.records,
    partitions: result.partitions,
    bytes: result.partitions.reduce((sum, p) => sum + p.bytes, 0),
    skipped: result.skipped,
    skippedByReason,
    firstBadLines: result.firstBadLines,
    timestampsWithoutZone: result.timestampsWithoutZone,
    removedStaging: result.removedStaging,
    elapsedMs: Math.round(performance.now() - started),
  };
  const say = (text: string) => ctx.io.stderr(`council: ${text}\n`);
  if (doc.timestampsWithoutZone > 0)
    say(
      `${plural(doc.timestampsWithoutZone, 'record')} had a timestamp without a zone; read as UTC${format === 'parquet' ? ' (the Parquet timestamp is that UTC instant)' : ''}.`,
    );
  if (doc.skipped > 0) {
    const first = doc.firstBadLines[0];
    say(
      `skipped ${plural(doc.skipped, 'unreadable line')}${first ? ` (first: ${first.file}:${first.line}, ${first.reason}: ${first.detail})` : ''}; they are not records, and the store keeps them as they are.`,
    );
  }
  if (doc.removedStaging > 0)
    say(`removed ${plural(doc.removedStaging, 'staging directory')} left by an export that did not finish.`);
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const s = ctx.out;
  const seconds = doc.elapsedMs / 1000;
  const days =
    doc.partitions.length === 0
      ? 'no partition (no records)'
      : `${plural(doc.partitions.length, 'partition')}, day=${doc.partitions[0]!.day} … day=${doc.partitions.at(-1)!.day}`;
  ctx.io.stdout(
    `${s.bold('Exported')} ${plural(doc.records, 'record')} from ${plural(doc.files.length, 'file')} as ${format === 'parquet' ? 'Parquet' : 'JSONL'} into ${doc.output}: ${days}, ${formatBytes(doc.bytes)}, ` +
      `in ${seconds.toFixed(1)} s${seconds > 0 ? ` (${Math.round(doc.records / seconds).toLocaleString('en-US')} records/s)` : ''}.\n` +
      s.dim(`Report over it with: council bias-report --input ${doc.output}\n`),
  );
  return 0;
}

/** `council store stats|compact|export`: what the bias store holds, gzipping its closed segments, and exporting it by day. */
export async function runStoreCommand(options: StoreCommandOptions, ctx: CommandContext): Promise<number> {
  if (options.action === 'stats') return runStats(options, ctx);
  if (options.action === 'compact') return runCompact(options, ctx);
  if (options.action === 'export' && options.to === 'clickhouse') {
    return (await import('./store-clickhouse-command.js')).runClickhouseExport(
      { ...options.clickhouse, ...(options.json === undefined ? {} : { json: options.json }) },
      ctx,
    );
  }
  if (options.action === 'export') return runExport(options, ctx);
  if (options.action === 'clickhouse-init')
    return (await import('./store-clickhouse-command.js')).runClickhouseInit(
      { ...options.clickhouse, ...(options.json === undefined ? {} : { json: options.json }) },
      ctx,
    );
  throw new CliError({
    code: 'USAGE',
    message: `Unknown store action "${options.action ?? ''}": use "council store stats", "council store compact", "council store export" or "council store clickhouse-init".`,
  });
}
