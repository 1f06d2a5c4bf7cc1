import type * as Duckdb from '@duckdb/node-api';
import type { BiasColumns } from '@council/bias-audit';
import { parquetMetadataAsync } from 'hyparquet';
import type { FileMetaData } from 'hyparquet';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BiasStoreError } from '@council/bias-store';
import {
  biasColumn,
  settleWindowRecords,
  checkWindowOptions,
  reportOutOfRangeRanks,
  resolveBiasInputs,
} from '@council/bias-store/internal';
import type { EngineWindowOptions, ReadBiasRecordsResult } from '@council/bias-store';
import type { BiasInputFile } from '@council/bias-store/internal';
import { biasParquet } from '../bias-parquet.js';
import { biasParquetSchemaProblem, biasParquetTextColumns } from '../scan-bias-parquet.js';
import { reconcileLines } from './reconcile-lines.js';
import type { Reconciled, ScannedFile } from './reconcile-lines.js';
import { duckdbScanStatements } from './record-sql.js';
import { loadDuckdb } from './load-duckdb.js';
import { streamWindowRecords } from './window-columns.js';
import type { StreamedReportRecords, StreamedWindowRecords } from './window-columns.js';
import type { WindowCounts } from './window-sql.js';
import { applyWindow } from './window-sql.js';

export interface DuckdbBiasReadOptions extends EngineWindowOptions {
  /** Store files, directories of stores, Parquet exports, or globs over file names, as `readBiasRecords` takes them. */
  inputs: readonly string[];
  cwd?: string;
  /** DuckDB's worker threads (default: DuckDB's, one per core). */
  threads?: number;
  /**
   * `'report'`: the columns the statistics read, without `session`, `time`, `queryCategory` and
   * `positionIsDisplayOrder` (26 bytes a record at most instead of 41: 300 MB less at 20 M records); every count,
   * warning and kept record as with `'all'` (the default), which gives every column as `readBiasRecords` does. Either
   * way the ids, positions, lengths and scores come as narrow as the window's values allow (`BiasIdColumn`,
   * `BiasCountColumn`, `BiasScoreColumn`): a report read of a usual council takes 14 bytes a record.
   */
  columns?: 'all' | 'report';
}

/** The reader's default longest line (`readBiasRecords`' maxLineBytes). */
const maxLineBytes = 1024 * 1024;

/**
 * The bias report's records read by an embedded DuckDB: it reads the inputs once by SQL (`record-sql.ts`), the lines
 * are reconciled with the reader's own code (`reconcile-lines.ts`: line counts, skipped lines with the reader's reasons
 * and details, and whatever DuckDB's parser reads otherwise than JSON.parse), the window is applied (`window-sql.ts`)
 * and the window's records come back as the reader's columns (`window-columns.ts`), whose repeats the reader's own code
 * drops (`settle-window-records.ts`). The result is `readBiasRecords`' for the same inputs and options: every count
 * with the same value, and the same records in the same order.
 */
export async function duckdbBiasRead(
  options: DuckdbBiasReadOptions & { columns: 'report' },
): Promise<ReadBiasRecordsResult<BiasColumns>>;
export async function duckdbBiasRead(options: DuckdbBiasReadOptions): Promise<ReadBiasRecordsResult>;
export async function duckdbBiasRead(options: DuckdbBiasReadOptions): Promise<ReadBiasRecordsResult<BiasColumns>> {
  const report = options.columns === 'report';
  const window = checkWindowOptions(options, 'readBiasRecords');
  const inputs = await resolveBiasInputs(options.inputs, options.cwd ?? process.cwd());
  const jsOwned = await parquetFilesDuckdbCannotRead(inputs);

  const { DuckDBInstance } = await loadDuckdb();
  // DuckDB spills what does not fit in memory to `.tmp` in the working directory unless told otherwise: a report run
  // from a project would leave hundreds of MB there. It spills into a directory of its own, removed afterwards.
  const spill = await mkdtemp(join(tmpdir(), 'council-duckdb-'));
  const instance = await DuckDBInstance.create(':memory:', {
    temp_directory: spill,
    // What a query freed goes back to the system when it ends (DuckDB's defaults, 128 MB and 512 MB, keep it for the
    // next query of a long-lived database): here the window's columns grow beside DuckDB as the records stream in, so
    // memory DuckDB no longer uses is the peak's. 1,000,000 sessions: 150 MB less at the read's peak, the same CPU.
    allocator_flush_threshold: '32MB',
    allocator_bulk_deallocation_flush_threshold: '32MB',
    ...(options.threads === undefined ? {} : { threads: String(options.threads) }),
  });
  const connection = await instance.connect();
  let read: { reconciled: Reconciled; counts: WindowCounts; streamed: StreamedWindowRecords | StreamedReportRecords };
  try {
    const { view } = await scanInputs(connection, inputs, jsOwned);
    const reconciled = await reconcileLines({ inputs, jsOwned, ...(await scanAccount(connection)), maxLineBytes });
    await correctScan(connection, reconciled, view);
    const counts = await applyWindow(connection, window);
    // The records come back in any order (streamWindowRecords puts each in its place): DuckDB need not keep the files' order.
    await connection.run('SET preserve_insertion_order = false');
    const streamed = report
      ? await streamWindowRecords(connection, counts.windowRecords, 'report')
      : await streamWindowRecords(connection, counts.windowRecords);
    read = { reconciled, counts, streamed };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(spill, { recursive: true, force: true });
  }
  const { reconciled, counts } = read;
  // Finished here, DuckDB closed: what it held while the records streamed in is freed first.
  const complete = read.streamed.complete();
  const settled =
    'omitted' in complete
      ? settleWindowRecords(complete.columns, counts.timestampsWithoutZone, complete.omitted)
      : settleWindowRecords(complete, counts.timestampsWithoutZone);
  // Out-of-range ranks are invalid records, placed by the reader's own scan for them (rare), as readBiasRecords does.
  const { outOfRangeRanks, ...kept } = settled;
  const skips = await reportOutOfRangeRanks({
    skips: reconciled.skips.report(),
    outOfRange: outOfRangeRanks,
    inputs,
    maxLineBytes,
    parquet: biasParquet,
  });
  return {
    files: reconciled.files,
    lines: reconciled.lines,
    records: counts.records - outOfRangeRanks.count,
    sessions: counts.sessions,
    excluded: counts.excluded,
    foreignMajors: reconciled.foreignMajors,
    timestampsWithoutZone: counts.timestampsWithoutZone,
    skipped: skips.skipped,
    reasons: skips.reasons,
    firstBadLines: skips.firstBadLines,
    ...kept,
  };
}

/**
 * Builds `scan`. DuckDB refuses some files the reader reads line by line (a JSON object broken over two lines stops its
 * scan): such a file, named in DuckDB's error, is left to the reader's code and the scan run again without it.
 */
async function scanInputs(
  connection: Duckdb.DuckDBConnection,
  inputs: readonly BiasInputFile[],
  jsOwned: Set<number>,
): Promise<{ view: boolean }> {
  const files = inputs.map((f) => ({ path: f.file.path, parquet: f.parquet === true }));
  for (;;) {
    // Parquet alone is read again where it is used (a scan of the files is faster than copying 2.5 M rows into a table);
    // JSONL is parsed once, into a table.
    const view = files.every((f, i) => f.parquet || jsOwned.has(i));
    try {
      for (const statement of duckdbScanStatements(files, jsOwned, { view })) await connection.run(statement);
      if (view) await connection.run('SELECT count(*) FROM scan'); // a view is only read when used: read it once here, where a failure names its file
      return { view };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const culprit = files.findIndex((f, i) => !jsOwned.has(i) && message.includes(`"${f.path}"`));
      if (culprit === -1) {
        throw new BiasStoreError({
          code: 'IO_ERROR',
          message: `DuckDB could not read the bias records (${message}). Check the inputs, or run bias-report without --engine duckdb.`,
          cause: error,
        });
      }
      jsOwned.add(culprit);
    }
  }
}

/** What `scan` holds per input (rows, first `ord`) and the rows SQL did not accept. */
async function scanAccount(
  connection: Duckdb.DuckDBConnection,
): Promise<{ scanned: Map<number, ScannedFile>; unaccepted: Map<number, Map<number, number>> }> {
  const scanned = new Map<number, ScannedFile>();
  const unaccepted = new Map<number, Map<number, number>>();
  // One pass: per input, its rows, its first ord, and the rows SQL did not accept (few).
  const sql = 'SELECT file, count(*), min(ord), list([ord, status]) FILTER (WHERE status <> 0) FROM scan GROUP BY file';
  for (const [file, rows, firstOrd, rejected] of (await connection.runAndReadAll(sql)).getRowsJS()) {
    scanned.set(Number(file), { rows: Number(rows), firstOrd: Number(firstOrd) });
    const pairs = (rejected ?? []) as unknown[][];
    if (pairs.length > 0)
      unaccepted.set(Number(file), new Map(pairs.map(([ord, status]) => [Number(ord), Number(status)])));
  }
  return { scanned, unaccepted };
}

/** Makes `scan` hold exactly the reader's records: drops the rows the reader decided otherwise, adds the records it read. */
async function correctScan(connection: Duckdb.DuckDBConnection, reconciled: Reconciled, view: boolean): Promise<void> {
  await connection.run(
    'CREATE OR REPLACE TEMP TABLE scan_fix (ord BIGINT, file INTEGER, session VARCHAR, ms DOUBLE, zoned BOOLEAN, reviewer VARCHAR, candidate VARCHAR, position DOUBLE, len DOUBLE, score DOUBLE, rank DOUBLE, config VARCHAR, category VARCHAR, pido BOOLEAN, drop_only BOOLEAN)',
  );
  if (reconciled.remove.length === 0 && reconciled.add.length === 0 && reconciled.removeFrom.length === 0) return;
  const appender = await connection.createAppender('scan_fix', 'main', 'temp');
  const orNull = <T>(value: T | null, append: (v: T) => void): void =>
    value === null ? appender.appendNull() : append(value);
  for (const ord of reconciled.remove) {
    appender.appendBigInt(BigInt(ord));
    for (let i = 0; i < 13; i++) appender.appendNull();
    appender.appendBoolean(true);
    appender.endRow();
  }
  for (const { ord, file, record: r } of reconciled.add) {
    appender.appendBigInt(BigInt(ord));
    appender.appendInteger(file);
    appender.appendVarchar(r.session);
    appender.appendDouble(r.ms);
    appender.appendBoolean(r.zoned);
    appender.appendVarchar(r.reviewer);
    appender.appendVarchar(r.candidate);
    appender.appendDouble(r.position);
    appender.appendDouble(r.len);
    orNull(r.score, (v) => appender.appendDouble(v));
    orNull(r.rank, (v) => appender.appendDouble(v));
    orNull(r.config, (v) => appender.appendVarchar(v));
    orNull(r.category, (v) => appender.appendVarchar(v));
    appender.appendBoolean(r.pido);
    appender.appendBoolean(false);
    appender.endRow();
  }
  appender.closeSync();
  const fixes =
    'SELECT ord, file, 0, session, ms, zoned, reviewer, candidate, position, len, score, rank, config, category, pido FROM scan_fix WHERE NOT drop_only';
  if (view) {
    // Parquet rows SQL accepts are the reader's (a row it rejects but the reader accepts has thrown): only files the
    // reader's code read add records.
    if (reconciled.remove.length > 0 || reconciled.removeFrom.length > 0)
      throw new Error('duckdb/bias-read.ts: Parquet rows to remove from scan (a bug: report it with the inputs).');
    await connection.run('ALTER VIEW scan RENAME TO scan_files');
    await connection.run(`CREATE TEMP VIEW scan AS SELECT * FROM scan_files UNION ALL ${fixes}`);
    return;
  }
  await connection.run('DELETE FROM scan WHERE ord IN (SELECT ord FROM scan_fix)');
  for (const { file, ord } of reconciled.removeFrom)
    await connection.run(`DELETE FROM scan WHERE file = ${file} AND ord >= ${ord}`);
  await connection.run(`INSERT INTO scan ${fixes}`);
}

/** Why a Parquet file's schema cannot be read as bias records (scan-bias-parquet.ts's check, in its words), or undefined. */
function schemaProblem(metadata: FileMetaData): string | undefined {
  const problem = biasParquetSchemaProblem(metadata);
  if (problem !== undefined) return problem;
  const top = new Map(metadata.schema.slice(1).map((element) => [element.name, element]));
  // Text columns without their UTF8 annotation are bytes to the reader (never a valid row) but text to DuckDB.
  for (const name of biasParquetTextColumns) {
    const element = top.get(name)!;
    if (element.converted_type !== 'UTF8' && element.logical_type?.type !== 'STRING') return 'text';
  }
  const timestamp = top.get(biasColumn.timestamp)!;
  if (timestamp.logical_type?.type === 'TIMESTAMP' && timestamp.logical_type.unit === 'NANOS') return 'nanoseconds';
  return undefined;
}

/**
 * The Parquet inputs DuckDB would read otherwise than the reader — a damaged footer, text columns stored as bytes,
 * nanosecond timestamps — left to the reader's scanner; a file that is no bias export is the reader's error.
 */
async function parquetFilesDuckdbCannotRead(inputs: readonly BiasInputFile[]): Promise<Set<number>> {
  const owned = new Set<number>();
  for (let i = 0; i < inputs.length; i++) {
    const { file, parquet } = inputs[i]!;
    if (parquet !== true) continue;
    let metadata: FileMetaData;
    try {
      const handle = await open(file.path, 'r');
      try {
        const size = (await handle.stat()).size;
        metadata = await parquetMetadataAsync({
          byteLength: size,
          slice: async (start: number, end = size) => {
            const bytes = new Uint8Array(end - start);
            await handle.read(bytes, 0, bytes.length, start);
            return bytes.buffer;
          },
        });
      } finally {
        await handle.close();
      }
    } catch {
      owned.add(i);
      continue;
    }
    const problem = schemaProblem(metadata);
    if (problem === 'text' || problem === 'nanoseconds') owned.add(i);
    else if (problem !== undefined) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `${file.path} is a Parquet file but not one of bias records: ${problem}. Give bias-report the Parquet files council store export writes (or their directory).`,
      });
    }
  }
  return owned;
}
