import type { SchemaElement } from 'hyparquet';
import type { BiasMetricRecord } from '@council/bias-store';

/**
 * The Parquet columns of an exported bias record, in file order: ADR-018 v1.1's fields, with `query_metadata`
 * flattened into three columns, the timestamp as a UTC instant, and `position_is_display_order` (derived on read
 * from a JSONL line, so stored here). The one place the types are chosen; the README's "Team scale" table lists them.
 * Unsigned counts carry the converted type UINT_32 alone: hyparquet-writer 0.17.0 writes the INTEGER logical type in a
 * form DuckDB 1.5 refuses ("TProtocolException: Invalid data").
 */
export const biasParquetColumns = [
  { name: 'schema_version', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'session_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  {
    name: 'timestamp',
    type: 'INT64',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
    repetition_type: 'REQUIRED',
  },
  { name: 'consent_level', type: 'INT32', repetition_type: 'OPTIONAL' },
  { name: 'query_category', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'query_token_count_bucket', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'query_language', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'reviewer_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'model_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'position', type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' },
  { name: 'response_length_chars', type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' },
  { name: 'score_value', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'score_scale', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'council_config_version', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'query_hash', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'rank_position', type: 'INT32', converted_type: 'UINT_32', repetition_type: 'OPTIONAL' },
  { name: 'position_is_display_order', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
] as const satisfies readonly SchemaElement[];

export type BiasParquetColumnName = (typeof biasParquetColumns)[number]['name'];

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

/** A record's values in `biasParquetColumns` order (`ms`: its instant); what an export stages for a Parquet partition. */
export function biasParquetRow(record: BiasMetricRecord, ms: number): unknown[] {
  const meta = record.queryMetadata;
  return [
    record.schemaVersion,
    record.sessionId,
    ms,
    record.consentLevel,
    meta?.category ?? null,
    meta?.tokenCountBucket ?? null,
    meta?.language ?? null,
    record.reviewerId,
    record.modelId,
    record.position,
    record.responseLengthChars,
    record.scoreValue,
    record.scoreScale,
    record.councilConfigVersion,
    record.queryHash,
    record.rankPosition,
    record.positionIsDisplayOrder,
  ];
}
