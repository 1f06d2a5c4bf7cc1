import {
  appendFileSync,
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { BiasMetricRecord } from './bias-metric-record.js';
import { toDiskRecord } from './bias-metric-record.js';
import { biasField } from './bias-record-fields.js';
import type { BiasParquetSupport } from './bias-parquet-support.js';
import { parquetNeedsEngines } from './bias-parquet-support.js';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import { makeDirectory } from './make-directory.js';
import type { SkipReport } from './skip-report.js';
import { streamBiasRecords } from './stream-bias-records.js';
import { fsyncDirectory } from './write-file-atomic.js';

export type BiasExportFormat = 'parquet' | 'jsonl';

const rankKey = biasField('rankPosition').key;

export interface ExportBiasRecordsOptions {
  /** Store files, directories of stores, or globs over file names, as `readBiasRecords` takes them. */
  inputs: readonly string[];
  cwd?: string;
  /** The directory to write `day=YYYY-MM-DD/part-0.<format>` partitions into (created if missing). */
  output: string;
  format: BiasExportFormat;
  /** Writes the Parquet partitions of `format: 'parquet'`: `biasParquet` of `@council/bias-engines` (required for it). */
  parquet?: BiasParquetSupport;
  /** Rows per Parquet row group (default 100,000): the export holds about one row group's records at once. */
  rowGroupRows?: number;
  /** Lines buffered in memory before they are spilled to the staging files (default 16 MiB). */
  spillBytes?: number;
}

export interface BiasExportPartition {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  path: string;
  records: number;
  bytes: number;
}

export interface ExportBiasRecordsResult extends SkipReport {
  output: string;
  format: BiasExportFormat;
  /** Input files read, with their lines. */
  files: { path: string; lines: number }[];
  /** Valid records read, and so written. */
  records: number;
  /** The partitions written (each replaced whole), by day. */
  partitions: BiasExportPartition[];
  /** Records whose timestamp had no zone: read as UTC (a Parquet export stores the instant). */
  timestampsWithoutZone: number;
  /** Staging directories of export processes that died, removed before this one started. */
  removedStaging: number;
}

const stagingPrefix = '.export-';
const dayMs = 86_400_000;

let lastDay = Number.NaN;
let lastDayText = '';

/** `2026-11-24`: the UTC day of an instant (the last one remembered: records come a session, so a day, at a time). */
function utcDay(ms: number): string {
  const day = Math.floor(ms / dayMs);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * dayMs).toISOString().slice(0, 10);
  }
  return lastDayText;
}

/**
 * The canonical compact line of a record: the store's own encoding, except that a record whose position is not
 * known to be display order (older writers) keeps its rank's key absent, since its presence is what says so.
 */
export function canonicalBiasLine(record: BiasMetricRecord): string {
  const disk = toDiskRecord(record) as Record<string, unknown>;
  if (!record.positionIsDisplayOrder && record.rankPosition === null) delete disk[rankKey];
  return JSON.stringify(disk);
}

/** Removes the staging directories of export processes that are gone (a crash, a kill), so they hold no disk. */
function removeDeadStaging(output: string): number {
  let removed = 0;
  for (const name of readdirSync(output)) {
    const m = /^\.export-(\d+)-/.exec(name);
    if (m === null) continue;
    try {
      process.kill(Number(m[1]), 0);
      continue; // a live export (or a pid reused since): not ours to touch
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    rmSync(join(output, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** Lines of each day, buffered, then appended to one staging file a day. */
class DaySpill {
  private readonly pending = new Map<string, string[]>();
  private bytes = 0;
  readonly counts = new Map<string, number>();

  constructor(
    private readonly dir: string,
    private readonly limit: number,
  ) {}

  fileOf(day: string): string {
    return join(this.dir, `${day}.jsonl`);
  }

  add(day: string, line: string): void {
    let lines = this.pending.get(day);
    if (lines === undefined) this.pending.set(day, (lines = []));
    lines.push(line);
    this.counts.set(day, (this.counts.get(day) ?? 0) + 1);
    this.bytes += line.length + 1;
    if (this.bytes >= this.limit) this.flush();
  }

  flush(): void {
    for (const [day, lines] of this.pending) appendFileSync(this.fileOf(day), `${lines.join('\n')}\n`, { mode: 0o600 });
    this.pending.clear();
    this.bytes = 0;
  }
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Gives a staged partition file its place, `dir/part-0.<format>`. A partition directory never exists without its
 * file: a new one is made inside the staging directory, holding the file, and renamed into place whole; an existing
 * one has its file replaced by rename. A kill at any point leaves the partition as it was, or whole.
 */
async function placePartition(options: {
  staged: string;
  staging: string;
  dir: string;
  target: string;
}): Promise<void> {
  const { staged, staging, dir, target } = options;
  if (statSync(dir, { throwIfNoEntry: false }) === undefined) {
    const stagedDir = join(staging, basename(dir));
    makeDirectory(stagedDir);
    renameSync(staged, join(stagedDir, basename(target)));
    await fsyncDirectory(stagedDir);
    renameSync(stagedDir, dir);
    await fsyncDirectory(dirname(dir));
    return;
  }
  renameSync(staged, target);
  await fsyncDirectory(dir);
}

/**
 * `council store export`: every valid bias record of `inputs`, as Parquet or canonical compact JSONL, partitioned by
 * UTC day into `output/day=YYYY-MM-DD/part-0.parquet` (or `.jsonl`). Streamed: records are spilled by day to a staging
 * directory inside `output` (`.export-<pid>-…`), then each day is written there and renamed over its partition's
 * file, so a partition is replaced whole or not at all — a crash leaves only the staging directory, which the next
 * export removes. Days the inputs do not hold are left as they are. Nothing in the inputs is changed.
 */
export async function exportBiasRecords(options: ExportBiasRecordsOptions): Promise<ExportBiasRecordsResult> {
  const { format } = options;
  if (format !== 'parquet' && format !== 'jsonl')
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `exportBiasRecords: format must be "parquet" or "jsonl", got ${String(format)}.`,
    });
  const parquet = options.parquet;
  if (format === 'parquet' && parquet === undefined)
    throw parquetNeedsEngines({ reader: 'exportBiasRecords', what: 'A Parquet export' });
  const rowGroupRows = options.rowGroupRows ?? 100_000;
  if (!Number.isSafeInteger(rowGroupRows) || rowGroupRows < 1)
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `exportBiasRecords: rowGroupRows must be a positive whole number, got ${String(rowGroupRows)}.`,
    });
  const cwd = options.cwd ?? process.cwd();
  const output = resolve(cwd, options.output);
  if (statSync(output, { throwIfNoEntry: false })?.isFile() === true) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The output ${output} is a file: give a directory to write the day=YYYY-MM-DD partitions into.`,
    });
  }
  makeDirectory(output);
  let removedStaging: number;
  let staging: string;
  try {
    removedStaging = removeDeadStaging(output);
    staging = await mkdtemp(join(output, `${stagingPrefix}${process.pid}-`));
  } catch (error) {
    throw ioError({ action: 'write into', path: output, cause: error });
  }
  try {
    const spill = new DaySpill(staging, options.spillBytes ?? 16 << 20);
    const read = await streamBiasRecords({
      inputs: options.inputs,
      cwd,
      // A Parquet export stages each record as a flat JSON array of its column values (cheaper to write and read back).
      onRecord: (record, ms) =>
        spill.add(utcDay(ms), format === 'parquet' ? parquet!.stageRow(record, ms) : canonicalBiasLine(record)),
    });
    spill.flush();
    const partitions: BiasExportPartition[] = [];
    for (const day of [...spill.counts.keys()].sort()) {
      const dir = join(output, `day=${day}`);
      const target = join(dir, `part-0.${format}`);
      const spillFile = spill.fileOf(day);
      let staged = spillFile;
      if (format === 'parquet') {
        staged = join(staging, `${day}.parquet.partial`);
        await parquet!.writePartition({ spillFile, temp: staged, rowGroupRows });
        unlinkSync(spillFile);
      } else {
        fsyncFile(spillFile);
      }
      await placePartition({ staged, staging, dir, target });
      partitions.push({ day, path: target, records: spill.counts.get(day)!, bytes: statSync(target).size });
    }
    return {
      output,
      format,
      files: read.files,
      records: read.records,
      partitions,
      timestampsWithoutZone: read.timestampsWithoutZone,
      removedStaging,
      skipped: read.skipped,
      reasons: read.reasons,
      firstBadLines: read.firstBadLines,
    };
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error;
    throw ioError({ action: 'export bias records into', path: output, cause: error });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
