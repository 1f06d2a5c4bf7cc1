// Parquet: `council store export`'s files, read and written through the store's reader and export (`parquet: biasParquet`).
export { biasParquet } from './bias-parquet.js';
export { biasParquetColumns } from './bias-parquet-schema.js';
// The window's records read by DuckDB over JSONL or Parquet (`bias-report --engine duckdb`); @duckdb/node-api is optional.
export { duckdbBiasRead, type DuckdbBiasReadOptions } from './duckdb/bias-read.js';
// ClickHouse: the bias-records table (`council store clickhouse-init`) and loading records into it (`store export --to clickhouse`).
export { createClickhouseBiasTable } from './clickhouse/create-table.js';
export type { CreateClickhouseBiasTableOptions, CreateClickhouseBiasTableResult } from './clickhouse/create-table.js';
export { exportBiasRecordsToClickhouse } from './clickhouse/export-to-clickhouse.js';
export type {
  ExportBiasRecordsToClickhouseOptions,
  ExportBiasRecordsToClickhouseResult,
} from './clickhouse/export-to-clickhouse.js';
export {
  clickhouseBiasColumns,
  createClickhouseBiasTableSql,
  defaultClickhouseBiasTable,
} from './clickhouse/table-sql.js';
// The window's records read from a ClickHouse table (`bias-report --engine clickhouse`).
export { clickhouseBiasRead, type ClickhouseBiasReadOptions } from './clickhouse/bias-read.js';
