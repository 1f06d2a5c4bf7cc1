import { hash } from 'node:crypto';
import type { BiasMetricRecord, SkipReport } from '@council/bias-store';
import { BiasStoreError, canonicalBiasLine, defaultMaxLineBytes } from '@council/bias-store';
import { biasRecordVisitor, resolveBiasInputs, scanJsonlChunks, SkipCounter } from '@council/bias-store/internal';
import { BiasRowBinaryWriter } from './bias-row-binary.js';
import { checkClickhouseBiasTable } from './check-bias-table.js';
import type { ClickhouseConnection } from './client.js';
import { openClickhouse } from './client.js';
import { RecordKeySet } from './record-key-set.js';
import { scanParquetRecords } from './scan-parquet-records.js';
import { clickhouseBiasColumns, clickhouseBiasTableName } from './table-sql.js';

export interface ExportBiasRecordsToClickhouseOptions {
  /** Store files, directories of stores, Parquet exports, or globs over file names, as `readBiasRecords` takes them. */
  inputs: readonly string[];
  cwd?: string;
  /** The server's HTTP interface, e.g. `http://127.0.0.1:8123` (a user and password go in it: `http://user:pw@host:8123`). */
  url: string;
  /** Default `council_bias_records`; it must exist (`createClickhouseBiasTable`, `council store clickhouse-init`). */
  table?: string;
  database?: string;
  /** Records per INSERT (default 50,000; at most 1,000,000): each is applied whole, and memory holds about two batches. */
  batchRows?: number;
  /** Lines longer than this are skipped (default the store's, 1 MiB). */
  maxLineBytes?: number;
}

export interface ExportBiasRecordsToClickhouseResult extends SkipReport {
  /** The server, without its user and password. */
  url: string;
  table: string;
  /** Input files read, with their lines (a Parquet file's: its rows). */
  files: { path: string; lines: number }[];
  /** Valid records read; each has an `ord` (0, 1, 2… in this order). */
  records: number;
  /** Records sent to the server: all but `duplicates`. */
  inserted: number;
  /** Records identical to one read before in this load (same key), not sent again: the row keeps the first one's `ord`. */
  duplicates: number;
  /** INSERTs made. */
  batches: number;
  /** Records whose timestamp had no zone: read as UTC (the table stores the instant). */
  timestampsWithoutZone: number;
}

const columnNames = clickhouseBiasColumns.map((c) => c.name);
/** ClickHouse splits an INSERT into parts of max_insert_block_size rows (1,048,576 by default): a batch stays below. */
const maxBatchRows = 1_000_000;

/** Records encoded into batches of exactly `batchRows`; full batches wait in `ready` until the reader pauses. */
class BatchLoader {
  private writer = new BiasRowBinaryWriter();
  private readonly ready: Buffer[] = [];
  private readonly seen = new RecordKeySet();
  private inFlight: Promise<void> = Promise.resolve();
  ord = 0;
  duplicates = 0;
  batches = 0;

  constructor(
    private readonly connection: ClickhouseConnection,
    private readonly table: string,
    private readonly batchRows: number,
  ) {}

  add(record: BiasMetricRecord, ms: number): void {
    const ord = this.ord++;
    const key = hash('sha256', canonicalBiasLine(record), 'hex');
    // A copy read again in this load is not sent: ReplacingMergeTree would keep the later copy, and its larger ord
    // could put it behind a conflicting record read in between, where the reader keeps the first one read.
    if (!this.seen.add(key)) {
      this.duplicates++;
      return;
    }
    this.writer.add(key, ord, record, ms);
    if (this.writer.rows === this.batchRows) this.ready.push(this.writer.take());
  }

  /**
   * Sends the full batches (and, with `all`, the last partial one), one INSERT each, in read order, and one at a time:
   * the last one sent is left running while the reader reads on (the server's work overlaps Council's), and is
   * awaited, with any failure, before the next is sent or when `all` asks for the end.
   */
  async flush(all = false): Promise<void> {
    if (all && this.writer.rows > 0) this.ready.push(this.writer.take());
    for (let rows = this.ready.shift(); rows !== undefined; rows = this.ready.shift()) {
      await this.inFlight;
      this.inFlight = this.connection.insertRowBinary({ table: this.table, columns: columnNames, rows }).then(() => {
        this.batches++;
      });
      // Awaited on the next flush; until then a failure must not count as unhandled.
      this.inFlight.catch(() => undefined);
    }
    if (all) await this.inFlight;
  }
}

/**
 * `council store export --to clickhouse`: streams every valid bias record of `inputs` (JSONL stores, plain or gzip, and
 * Parquet exports, in the order `readBiasRecords` reads them) into the ClickHouse bias-records table, `batchRows` records
 * per INSERT. Each row carries `record_key` (SHA-256 of the record's canonical compact JSONL line) and `ord` (its place
 * in this load's read order). Idempotent: the table is a ReplacingMergeTree keyed by record, so loading the same
 * records again leaves the same rows (once merged, or read with FINAL); a load killed midway leaves whole batches,
 * and running it again completes them. Unreadable lines are skipped and reported with file and line, as
 * `exportBiasRecords` does. Memory holds about two batches (one being sent while the next is read), one read chunk (or
 * Parquet row group), and 12–24 bytes a record for the keys already read.
 */
export async function exportBiasRecordsToClickhouse(
  options: ExportBiasRecordsToClickhouseOptions,
): Promise<ExportBiasRecordsToClickhouseResult> {
  const batchRows = options.batchRows ?? 50_000;
  if (!Number.isSafeInteger(batchRows) || batchRows < 1 || batchRows > maxBatchRows) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `exportBiasRecordsToClickhouse: batchRows must be a whole number from 1 to 1,000,000 (ClickHouse applies an INSERT whole only up to its max_insert_block_size, 1,048,576 rows by default), got ${String(batchRows)}.`,
    });
  }
  const table = clickhouseBiasTableName(options);
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  const files = await resolveBiasInputs(options.inputs, options.cwd ?? process.cwd());
  const connection = await openClickhouse({ url: options.url });
  try {
    await checkClickhouseBiasTable(connection, table);
    const loader = new BatchLoader(connection, table, batchRows);
    const skips = new SkipCounter();
    const read: { path: string; lines: number }[] = [];
    let timestampsWithoutZone = 0;
    for (const { storePath, file, parquet } of files) {
      const chunks =
        parquet === true
          ? scanParquetRecords({
              path: file.path,
              record: (record, ms) => loader.add(record, ms),
              bad: (row, reason, detail) => skips.add({ file: file.path, line: row, reason, detail }),
            })
          : scanJsonlChunks({
              storePath,
              file,
              maxLineBytes,
              visitor: biasRecordVisitor({
                path: file.path,
                maxLineBytes,
                skips,
                record: (record, time) => {
                  if (!time.hasZone) timestampsWithoutZone++;
                  loader.add(record, time.ms);
                },
              }),
            });
      for (;;) {
        const step = await chunks.next();
        await loader.flush();
        if (step.done === true) {
          read.push({ path: file.path, lines: step.value });
          break;
        }
      }
    }
    await loader.flush(true);
    return {
      url: connection.url,
      table,
      files: read,
      records: loader.ord,
      inserted: loader.ord - loader.duplicates,
      duplicates: loader.duplicates,
      batches: loader.batches,
      timestampsWithoutZone,
      ...skips.report(),
    };
  } finally {
    await connection.close();
  }
}
