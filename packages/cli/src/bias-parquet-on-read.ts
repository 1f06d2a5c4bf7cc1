import type { BiasParquetSupport } from '@council/bias-store';
import { CliError } from './cli-error.js';

/**
 * `biasParquet` of `@council/bias-engines` for the store's reader, loaded when the reader scans its first Parquet
 * input: a report over JSONL, the usual input, never loads the engines package (DuckDB's and ClickHouse's readers,
 * hyparquet), which importing `biasParquet` itself would, as the engines load as one module. For reading only: the
 * reader calls `scan` alone, while an export stages rows with the synchronous `stageRow` and takes `biasParquet`.
 */
export const biasParquetOnRead: BiasParquetSupport = {
  scan: async (options) => (await import('@council/bias-engines')).biasParquet.scan(options),
  stageRow: () => {
    throw new CliError({
      code: 'RUNTIME',
      message: 'biasParquetOnRead reads Parquet only; an export takes biasParquet of @council/bias-engines.',
    });
  },
  writePartition: async (options) => (await import('@council/bias-engines')).biasParquet.writePartition(options),
};
