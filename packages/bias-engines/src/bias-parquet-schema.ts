import type { SchemaElement } from 'hyparquet';
import type { BiasMetricRecord } from '@council/bias-store';
import { biasRecordFields, isNullableColumn } from '@council/bias-store/internal';

/**
 * The Parquet columns of an exported bias record, in file order: the record's fields (`biasRecordFields` of
 * @council/bias-store, where their types are chosen), with the query metadata flattened into its labels' columns,
 * the timestamp as a UTC instant, and `positionIsDisplayOrder` (derived on read from a JSONL line, so stored here).
 * A column is OPTIONAL when the field may be null. The README's "Team scale" table lists them.
 */
export const biasParquetColumns: readonly SchemaElement[] = biasRecordFields.map((field): SchemaElement => ({
  name: field.column,
  ...field.parquet,
  repetition_type: isNullableColumn(field) ? 'OPTIONAL' : 'REQUIRED',
}));

/** The whole file schema: the root, then the columns. */
export function biasParquetSchema(): SchemaElement[] {
  return [
    { name: 'root', num_children: biasParquetColumns.length },
    ...biasParquetColumns.map((c): SchemaElement => ({ ...c })),
  ];
}

/** Key-value metadata every export carries, so a reader can tell Council's files (and their layout) from others. */
export const biasParquetLayoutKey = 'council.bias_records';
export const biasParquetLayoutVersion = '1';

type ParquetValue = (record: BiasMetricRecord, ms: number) => unknown;

// How each column's value is taken from a record, in column order: the instant, a label of its query metadata, or a field.
const values = biasRecordFields.map((field): ParquetValue => {
  if (field.kind === 'timestamp') return (_, ms) => ms;
  const api = field.api;
  if (field.inMetadata) return (record) => (record.queryMetadata as Record<string, unknown> | null)?.[api] ?? null;
  return (record) => (record as unknown as Record<string, unknown>)[api];
});

/** A record's values in `biasParquetColumns` order (`ms`: its instant); what an export stages for a Parquet partition. */
export function biasParquetRow(record: BiasMetricRecord, ms: number): unknown[] {
  const row = new Array<unknown>(values.length);
  for (let i = 0; i < values.length; i++) row[i] = values[i]!(record, ms);
  return row;
}
