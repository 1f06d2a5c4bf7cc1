import type { BiasParquetSupport } from '@council/bias-store';
import { biasParquetRow } from './bias-parquet-schema.js';

/**
 * Parquet for the store's reader and export: `readBiasRecords({ inputs, parquet: biasParquet })` reads Parquet files
 * and export directories, `exportBiasRecords({ …, format: 'parquet', parquet: biasParquet })` writes them. The Parquet
 * reader and writer load on first use, so a caller that passes this and reads only JSONL never loads them.
 */
export const biasParquet: BiasParquetSupport = {
  scan: async (options) => (await import('./scan-bias-parquet.js')).scanBiasParquet(options),
  // A Parquet export stages each record as a flat JSON array of its column values (cheaper to write and read back).
  stageRow: (record, ms) => JSON.stringify(biasParquetRow(record, ms)),
  writePartition: async (options) => (await import('./write-parquet-partition.js')).writeParquetPartition(options),
};
