import { BiasStoreError } from '@council/bias-store';

/** The table `council store clickhouse-init` creates and `store export --to clickhouse` loads, unless told otherwise. */
export const defaultClickhouseBiasTable = 'council_bias_records';

/**
 * The table's columns, in table order, with their ClickHouse types: the Parquet export's columns
 * (`bias-parquet-schema.ts`) plus `record_key` and `ord`, the time as epoch milliseconds (18.16 has no DateTime64).
 * The one place these names and types are written down for ClickHouse; README "Team scale" shows the DDL.
 */
export const clickhouseBiasColumns = [
  // Lowercase hex SHA-256 of the record's canonical compact JSONL line (`canonicalBiasLine`, as store export writes it).
  { name: 'record_key', type: 'String' },
  // The record's place in the read order of the load that inserted it (0, 1, 2… over the load's inputs).
  { name: 'ord', type: 'UInt64' },
  { name: 'schema_version', type: 'String' },
  { name: 'session_id', type: 'String' },
  { name: 'timestamp_ms', type: 'Int64' },
  { name: 'consent_level', type: 'Nullable(Int32)' },
  { name: 'query_category', type: 'Nullable(String)' },
  { name: 'query_token_count_bucket', type: 'Nullable(String)' },
  { name: 'query_language', type: 'Nullable(String)' },
  { name: 'reviewer_id', type: 'String' },
  { name: 'model_id', type: 'String' },
  { name: 'position', type: 'UInt32' },
  { name: 'response_length_chars', type: 'UInt32' },
  { name: 'score_value', type: 'Nullable(Float64)' },
  { name: 'score_scale', type: 'Nullable(String)' },
  { name: 'council_config_version', type: 'Nullable(String)' },
  { name: 'query_hash', type: 'Nullable(String)' },
  { name: 'rank_position', type: 'Nullable(UInt32)' },
  { name: 'position_is_display_order', type: 'UInt8' },
] as const;

export type ClickhouseBiasColumnName = (typeof clickhouseBiasColumns)[number]['name'];

/**
 * The sorting key: one row per record after merges (ReplacingMergeTree collapses rows with equal keys, and the key
 * ends with `record_key`), the rows of a session together. No PARTITION BY: a session's rows and a record's copies stay
 * in one partition, which is what lets the engine collapse copies, and the map reads every row anyway.
 */
export const clickhouseBiasSortingKey = 'session_id, reviewer_id, model_id, record_key';

const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,191}$/;

/** A table or database name, checked to be a plain identifier (so it is never quoted, escaped or injected). */
export function checkClickhouseIdentifier(name: string, what: 'table' | 'database'): string {
  if (typeof name !== 'string' || !identifier.test(name)) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The ClickHouse ${what} name ${JSON.stringify(name)} is not a plain identifier: use letters, digits and underscores, not starting with a digit (e.g. ${what === 'table' ? defaultClickhouseBiasTable : 'analytics'}).`,
    });
  }
  return name;
}

/** `database.table` (or `table`, in the connection's database), both names checked. */
export function clickhouseBiasTableName(options: { table?: string; database?: string }): string {
  const table = checkClickhouseIdentifier(options.table ?? defaultClickhouseBiasTable, 'table');
  return options.database === undefined ? table : `${checkClickhouseIdentifier(options.database, 'database')}.${table}`;
}

/** The CREATE TABLE statement of the bias-records table (`name`: a name from `clickhouseBiasTableName`). */
export function createClickhouseBiasTableSql(name: string): string {
  const columns = clickhouseBiasColumns.map((c) => `  ${c.name} ${c.type}`).join(',\n');
  return `CREATE TABLE IF NOT EXISTS ${name}\n(\n${columns}\n)\nENGINE = ReplacingMergeTree\nORDER BY (${clickhouseBiasSortingKey})`;
}
