import type { BiasMetricRecord } from './bias-metric-record.js';
import { BiasStoreError } from './bias-store-error.js';
import type { SkipReason } from './skip-report.js';

/** One row of a Council Parquet file, as far as a report reads it; one object reused for every row. */
export interface BiasParquetRow {
  sessionId: string;
  reviewerId: string;
  modelId: string;
  /** Epoch milliseconds (UTC). */
  time: number;
  position: number;
  responseLengthChars: number;
  /** NaN when unscored. */
  score: number;
  /** `noRank` when unranked. */
  rankPosition: number;
  positionIsDisplayOrder: boolean;
  councilConfigVersion: string | null;
  queryCategory: string | null;
}

export interface ScanBiasParquetOptions {
  path: string;
  /** A valid row (1-based row number in the file). */
  row: (row: BiasParquetRow, rowNumber: number) => void;
  /** A row that is no bias record, or a damaged file (`corrupt_segment`, at the first row not read). */
  bad: (rowNumber: number, reason: SkipReason, detail: string) => void;
}

/**
 * Parquet, which the store neither reads nor writes itself (it would pull in a Parquet library): what
 * `@council/bias-engines` exports as `biasParquet`, given as the `parquet` option of `readBiasRecords` (Parquet
 * files and export directories as inputs) and of `exportBiasRecords` (`format: 'parquet'`).
 */
export interface BiasParquetSupport {
  /** Streams a Parquet file's rows, each checked as the JSONL reader checks a line; returns the rows in the file. */
  scan: (options: ScanBiasParquetOptions) => Promise<number>;
  /** The line an export stages a record as, for `writePartition` to read back. */
  stageRow: (record: BiasMetricRecord, ms: number) => string;
  /** Writes one day's staged lines as a Parquet file at `temp`, `rowGroupRows` rows per row group. */
  writePartition: (options: { spillFile: string; temp: string; rowGroupRows: number }) => Promise<void>;
}

/** The error for Parquet reaching the store with no `parquet` support given: what to install and pass. */
export function parquetNeedsEngines(options: {
  reader: 'readBiasRecords' | 'exportBiasRecords';
  what: string;
}): BiasStoreError {
  const call =
    options.reader === 'readBiasRecords'
      ? 'readBiasRecords({ inputs, parquet: biasParquet })'
      : "exportBiasRecords({ …, format: 'parquet', parquet: biasParquet })";
  return new BiasStoreError({
    code: 'INVALID_OPTION',
    message: `${options.what}: @council/bias-store reads and writes JSONL only. Install @council/bias-engines and pass its Parquet support: import { biasParquet } from '@council/bias-engines'; ${call}.`,
  });
}
