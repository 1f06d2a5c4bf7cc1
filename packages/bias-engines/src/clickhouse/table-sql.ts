import { BiasStoreError } from '@council/bias-store';
import { biasColumn, biasRecordFields, isNullableColumn } from '@council/bias-store/internal';

/** The table `council store clickhouse-init` creates and `store export --to clickhouse` loads, unless told otherwise. */
export const defaultClickhouseBiasTable = 'council_bias_records';

/**
 * The table's columns, in table order, with their ClickHouse types: `record_key` and `ord`, then the record's fields
 * (`biasRecordFields` of @council/bias-store, where their types are chosen: the Parquet export's columns, the time as
 * epoch milliseconds since 18.16 has no DateTime64), `Nullable` where the field may be null. README "Team scale" shows
 * the DDL.
 */
export const clickhouseBiasColumns: readonly { readonly name: string; readonly type: string }[] = [
  // Lowercase hex SHA-256 of the record's canonical compact JSONL line (`canonicalBiasLine`, as store export writes it).
  { name: 'record_key', type: 'String' },
  // The record's place in the read order of the load that inserted it (0, 1, 2… over the load's inputs).
  { name: 'ord', type: 'UInt64' },
  ...biasRecordFields.map((field) => ({
    name: field.clickhouseColumn,
    type: isNullableColumn(field) ? `Nullable(${field.clickhouse})` : field.clickhouse,
  })),
];

/**
 * The sorting key: one row per record after merges (ReplacingMergeTree collapses rows with equal keys, and the key
 * ends with `record_key`), the rows of a session together. No PARTITION BY: a session's rows and a record's copies stay
 * in one partition, which is what lets the engine collapse copies, and the map reads every row anyway.
 */
export const clickhouseBiasSortingKey = `${biasColumn.sessionId}, ${biasColumn.reviewerId}, ${biasColumn.modelId}, record_key`;

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
