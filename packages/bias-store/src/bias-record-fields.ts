import type { BiasMetricRecord } from './bias-metric-record.js';
import { noRank } from './bias-record-columns.js';
import type { QueryMetadata } from './query-metadata.js';

/**
 * What a field holds. The kind decides the field's check on every path that judges a record (the zod schema, the fast
 * paths, DuckDB's SQL, the Parquet scanners) and, with its nullability, its type in each engine:
 * - `version`: the integer 1 or a `"1"`, `"1.x"`, `"1.x.y"` string (a later major version is refused by its own reason);
 * - `id`: a non-empty string;
 * - `timestamp`: ISO 8601 text on a line (`parseIsoTimestamp`), an instant (UTC milliseconds) in a column;
 * - `consent`: one of the integers 0–4;
 * - `label`, `text`: a string (a label is one of `query_metadata`'s);
 * - `count`: a whole number, at least 0 and below `noRank` (the reader's columns are 32-bit; see `biasRecordCountProblem`);
 * - `score`: a finite number;
 * - `hash`: 16 lower-case hex characters;
 * - `flag`: a boolean the reader derives (`positionIsDisplayOrder`): stored in columns, ignored on a line.
 */
export type BiasFieldKind =
  'version' | 'id' | 'timestamp' | 'consent' | 'label' | 'text' | 'count' | 'score' | 'hash' | 'flag';

/**
 * Whether a line must carry the field: `required` (present, never null), `nullable` (present, may be null), `nullish`
 * (may be absent or null) or `derived` (never required; computed on read). In a column, all but `required` and `derived`
 * may be null.
 */
export type BiasFieldPresence = 'required' | 'nullable' | 'nullish' | 'derived';

/** A field's name in the API: a `BiasMetricRecord` field, or a `QueryMetadata` label for the fields in the metadata. */
export type BiasFieldApi = Exclude<keyof BiasMetricRecord, 'queryMetadata'> | keyof QueryMetadata;

/** A Parquet column's type (hyparquet's `SchemaElement` without its name and repetition). */
export interface BiasParquetType {
  readonly type: 'BYTE_ARRAY' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN';
  readonly converted_type?: 'UTF8' | 'UINT_32';
  readonly logical_type?: { readonly type: 'TIMESTAMP'; readonly isAdjustedToUTC: true; readonly unit: 'MILLIS' };
}

/** One field of the bias record (ADR-018 v1.1, plus the derived `position_is_display_order`). */
export interface BiasRecordField {
  /** Its column in Parquet, DuckDB and ClickHouse; `query_metadata`'s labels are flattened as `query_<key>`. */
  readonly column: string;
  /** Its key on a JSONL line: top-level, or inside `query_metadata` when `inMetadata`. */
  readonly key: string;
  readonly inMetadata: boolean;
  /** Other keys read as this one when it is absent (older or other writers); never written. */
  readonly aliases: readonly string[];
  /** Its name in `BiasMetricRecord` (or, when `inMetadata`, in `QueryMetadata`). */
  readonly api: BiasFieldApi;
  readonly kind: BiasFieldKind;
  readonly presence: BiasFieldPresence;
  readonly parquet: BiasParquetType;
  /** ClickHouse's type of a value (`Nullable(…)` is added when the column may be null); `clickhouseColumn` its name there. */
  readonly clickhouse: string;
  readonly clickhouseColumn: string;
}

const utf8 = { type: 'BYTE_ARRAY', converted_type: 'UTF8' } as const;
const uint32 = { type: 'INT32', converted_type: 'UINT_32' } as const;

type FieldRow = [
  column: string,
  api: BiasFieldApi,
  kind: BiasFieldKind,
  presence: BiasFieldPresence,
  parquet: BiasParquetType,
  clickhouse: string,
  more?: { key?: string; inMetadata?: true; aliases?: readonly string[]; clickhouseColumn?: string },
];

// The record, once, in the order ADR-018 v1.1's example writes it (a line's key order; the columns' order). Parquet
// types: unsigned counts carry the converted type UINT_32 alone (hyparquet-writer 0.17.0 writes the INTEGER logical type
// in a form DuckDB 1.5 refuses); ClickHouse 18.16 has no DateTime64, so the instant is epoch milliseconds there.
const rows: readonly FieldRow[] = [
  ['schema_version', 'schemaVersion', 'version', 'required', utf8, 'String'],
  ['session_id', 'sessionId', 'id', 'required', utf8, 'String'],
  [
    'timestamp',
    'timestamp',
    'timestamp',
    'required',
    { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } },
    'Int64',
    { clickhouseColumn: 'timestamp_ms' },
  ],
  ['consent_level', 'consentLevel', 'consent', 'nullish', { type: 'INT32' }, 'Int32'],
  ['query_category', 'category', 'label', 'nullish', utf8, 'String', { key: 'category', inMetadata: true }],
  [
    'query_token_count_bucket',
    'tokenCountBucket',
    'label',
    'nullish',
    utf8,
    'String',
    // The Python implementation writes `token_bucket`.
    { key: 'token_count_bucket', inMetadata: true, aliases: ['token_bucket'] },
  ],
  ['query_language', 'language', 'label', 'nullish', utf8, 'String', { key: 'language', inMetadata: true }],
  ['reviewer_id', 'reviewerId', 'id', 'required', utf8, 'String'],
  ['model_id', 'modelId', 'id', 'required', utf8, 'String'],
  ['position', 'position', 'count', 'required', uint32, 'UInt32'],
  ['response_length_chars', 'responseLengthChars', 'count', 'required', uint32, 'UInt32'],
  ['score_value', 'scoreValue', 'score', 'nullable', { type: 'DOUBLE' }, 'Float64'],
  ['score_scale', 'scoreScale', 'text', 'nullish', utf8, 'String'],
  ['council_config_version', 'councilConfigVersion', 'text', 'nullish', utf8, 'String'],
  ['query_hash', 'queryHash', 'hash', 'nullish', utf8, 'String'],
  ['rank_position', 'rankPosition', 'count', 'nullish', uint32, 'UInt32'],
  // Written by the Python implementation from schema 1.2.0 on; a line's value is ignored (its version says the same).
  ['position_is_display_order', 'positionIsDisplayOrder', 'flag', 'derived', { type: 'BOOLEAN' }, 'UInt8'],
];

/**
 * The bias record's fields, in the order a line and a Parquet file hold them: the one description of the record that the
 * zod schema, the canonical line, the Parquet columns, the ClickHouse table and its RowBinary codec, and DuckDB's SQL are
 * derived from (and that the fast line parser is checked against by its test). Adding a field: a row here and the field
 * in `BiasMetricRecord`.
 */
export const biasRecordFields: readonly BiasRecordField[] = rows.map(
  ([column, api, kind, presence, parquet, clickhouse, more]): BiasRecordField => ({
    column,
    key: more?.key ?? column,
    inMetadata: more?.inMetadata ?? false,
    aliases: more?.aliases ?? [],
    api,
    kind,
    presence,
    parquet,
    clickhouse,
    clickhouseColumn: more?.clickhouseColumn ?? column,
  }),
);

/** The object that holds the `inMetadata` fields: its key on a line, and its name in `BiasMetricRecord`. */
export const biasMetadataKey = 'query_metadata';
export const biasMetadataApi = 'queryMetadata';

/** What a line holds, in the order it is written: a field, or the metadata object with its fields. */
export type BiasLinePart = { readonly field: BiasRecordField } | { readonly metadata: readonly BiasRecordField[] };

const metadataFields = biasRecordFields.filter((f) => f.inMetadata);
const allLineParts = biasRecordFields.flatMap((field): BiasLinePart[] => {
  if (!field.inMetadata) return [{ field }];
  return field === metadataFields[0] ? [{ metadata: metadataFields }] : [];
});

/** The parts of a line the schema reads (every field but the derived ones), in the order this package writes them. */
export const biasLineParts: readonly BiasLinePart[] = allLineParts.filter(
  (part) => !('field' in part) || part.field.presence !== 'derived',
);

/** The keys a line may hold at its top level, in the order this package writes them (a derived field's key included). */
export const biasLineKeys: readonly string[] = allLineParts.map((part) =>
  'field' in part ? part.field.key : biasMetadataKey,
);

/** The keys the metadata object may hold: each field's, followed by its aliases. */
export const biasMetadataKeys: readonly string[] = metadataFields.flatMap((f) => [f.key, ...f.aliases]);

/** Whether a column of this field may hold null (Parquet OPTIONAL, ClickHouse Nullable). */
export const isNullableColumn = (field: BiasRecordField): boolean =>
  field.presence === 'nullable' || field.presence === 'nullish';

/** The field whose API name is `api` (a top-level field unless `inMetadata`); throws for a name the table lacks. */
export function biasField(api: BiasFieldApi): BiasRecordField {
  const field = biasRecordFields.find((f) => f.api === api);
  if (field === undefined) throw new Error(`The bias record has no field ${api}.`);
  return field;
}

/**
 * The column names by API name (`biasColumn.sessionId` is `"session_id"`): how code that queries an engine names a
 * column without writing it out.
 */
export const biasColumn = Object.fromEntries(biasRecordFields.map((f) => [f.api, f.column])) as Readonly<
  Record<BiasFieldApi, string>
>;

/**
 * The one acceptance rule past the schema: a record's counts (every `count` field: `position`, `responseLengthChars`,
 * `rankPosition`) must be below `noRank` (4,294,967,295), which the reader's 32-bit columns hold as "not ranked".
 * Returns the skip's detail (reason `invalid_record`), or undefined when the record fits. Every reader and exporter of
 * whole records skips by this rule (the fast line parser and the engines' SQL apply it to a count as they read it).
 */
export function biasRecordCountProblem(record: BiasMetricRecord): string | undefined {
  if (record.position >= noRank || (record.rankPosition ?? 0) >= noRank || record.responseLengthChars >= noRank)
    return 'position, rank_position or response_length_chars is 4,294,967,295 or more';
  return undefined;
}
