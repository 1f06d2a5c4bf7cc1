import * as z from 'zod';
import { BiasStoreError } from './bias-store-error.js';
import { biasLineParts, biasMetadataKey } from './bias-record-fields.js';
import type { BiasFieldKind, BiasRecordField } from './bias-record-fields.js';
import { describeZodError } from './describe-zod-error.js';
import type { ConsentLevel } from './consent-level.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { majorOf } from './major-version.js';
import { queryCategories } from './query-category.js';
import type { QueryMetadata } from './query-metadata.js';
import { tokenCountBuckets } from './token-count-bucket.js';

/** The `schema_version` this package writes (ADR-018 v1.1). */
export const biasSchemaVersion = '1.1.0';

/**
 * One reviewer's view of one candidate in one session (ADR-018 v1.1), in the camelCase of the
 * TypeScript API. On disk it is the snake_case line that `biasMetricRecordSchema` maps to and from.
 */
export interface BiasMetricRecord {
  /** `"1.1.0"` when written here; `"1"` for ADR-018 v1 records (integer 1 on disk); any `"1.x.y"` when read. */
  schemaVersion: string;
  sessionId: string;
  /** ISO 8601; always with a zone when written here. Zone-less values read from older files mean UTC. */
  timestamp: string;
  /** The consent level the record was written under; null for v1 records, which predate consent. */
  consentLevel: ConsentLevel | null;
  /** What the record says about the query (never the query); null when the writer had none (v1 records). */
  queryMetadata: QueryMetadata | null;
  /** The reviewing member (`reviewer_id`). */
  reviewerId: string;
  /** The reviewed member (`model_id`). */
  modelId: string;
  /** 0-based position the response was *shown* in to this reviewer (display order, never its rank). */
  position: number;
  responseLengthChars: number;
  /** The score given, or null when the reviewer ranked without scoring (never a fake 0). */
  scoreValue: number | null;
  /** The scale of `scoreValue`, e.g. `"1-10"`. */
  scoreScale: string | null;
  councilConfigVersion: string | null;
  /** 16 hex characters at consent level 4 only; null otherwise. */
  queryHash: string | null;
  /** Extension: 0-based place of the candidate in this reviewer's ranking, or null. */
  rankPosition: number | null;
  /**
   * Derived on read, never stored: whether `position` is known to be display order. True for records
   * written here (they carry `rank_position`) and for schema ≥ 1.2.0 (the Python implementation's
   * `position_is_display_order` fix); false for older records without `rank_position`, whose
   * `position` may hold the reviewer's ranking index instead.
   */
  positionIsDisplayOrder: boolean;
}

/**
 * A line's value of each kind of field (bias-record-fields.ts), before its nullability. Built with the codec on its first
 * use (see `biasMetricRecordSchema`), not at module load.
 */
function kindSchemas(): Record<Exclude<BiasFieldKind, 'flag'>, z.ZodType> {
  const nonEmpty = z.string().min(1);
  return {
    version: z.union([
      z.literal(1),
      z.string().regex(/^1(?:\.\d+){0,2}$/, { message: 'expected 1 or a "1.x.y" version' }),
    ]),
    id: nonEmpty,
    timestamp: z.string().refine((value) => parseIsoTimestamp(value) !== null, {
      message: 'expected an ISO 8601 date-time such as 2025-12-17T10:30:00Z',
    }),
    consent: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
    label: z.string(),
    text: z.string(),
    count: z.number().int().min(0),
    score: z.number(),
    hash: z.string().regex(/^[0-9a-f]{16}$/, { message: 'expected 16 lower-case hex characters' }),
  };
}

function fieldSchema(kinds: ReturnType<typeof kindSchemas>, field: BiasRecordField): z.ZodType {
  const schema = kinds[field.kind as Exclude<BiasFieldKind, 'flag'>];
  return field.presence === 'required' ? schema : field.presence === 'nullable' ? schema.nullable() : schema.nullish();
}

/**
 * The snake_case object of a line, as the schema reads it (unknown keys aside) and `toDiskRecord` writes it. The hand-written
 * paths below (this type, `decode`, `toDiskRecord`, `decodeBiasMetricRecordFast`) run for every record a store reads or
 * writes, so they name the fields rather than loop over the table; bias-metric-record.test.ts holds them to the table.
 */
export type BiasRecordLine = {
  schema_version: 1 | string;
  session_id: string;
  timestamp: string;
  consent_level?: ConsentLevel | null | undefined;
  query_metadata?:
    | {
        category?: string | null | undefined;
        token_count_bucket?: string | null | undefined;
        token_bucket?: string | null | undefined;
        language?: string | null | undefined;
      }
    | null
    | undefined;
  reviewer_id: string;
  model_id: string;
  position: number;
  response_length_chars: number;
  score_value: number | null;
  score_scale?: string | null | undefined;
  council_config_version?: string | null | undefined;
  query_hash?: string | null | undefined;
  rank_position?: number | null | undefined;
};

/** The snake_case line on disk (unknown fields are ignored on read), built from the record's fields. */
function diskRecordSchema(): z.ZodType<BiasRecordLine, BiasRecordLine> {
  const kinds = kindSchemas();
  return z.object(
    Object.fromEntries(
      biasLineParts.map((part): [string, z.ZodType] => {
        if ('field' in part) return [part.field.key, fieldSchema(kinds, part.field)];
        // The metadata as written here, or with an alias's key as other writers write it.
        const shape = part.metadata.flatMap((f) =>
          [f.key, ...f.aliases].map((key) => [key, fieldSchema(kinds, f)] as const),
        );
        return [biasMetadataKey, z.object(Object.fromEntries(shape)).nullish()];
      }),
    ),
  ) as unknown as z.ZodType<BiasRecordLine, BiasRecordLine>;
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

function decode(disk: BiasRecordLine): BiasMetricRecord {
  const version = String(disk.schema_version);
  const meta = disk.query_metadata;
  return {
    schemaVersion: version,
    sessionId: disk.session_id,
    timestamp: disk.timestamp,
    consentLevel: disk.consent_level ?? null,
    queryMetadata:
      meta === null || meta === undefined
        ? null
        : {
            category: meta.category ?? null,
            tokenCountBucket: meta.token_count_bucket ?? meta.token_bucket ?? null,
            language: meta.language ?? null,
          },
    reviewerId: disk.reviewer_id,
    modelId: disk.model_id,
    position: disk.position,
    responseLengthChars: disk.response_length_chars,
    scoreValue: disk.score_value,
    scoreScale: disk.score_scale ?? null,
    councilConfigVersion: disk.council_config_version ?? null,
    queryHash: disk.query_hash ?? null,
    rankPosition: disk.rank_position ?? null,
    positionIsDisplayOrder: disk.rank_position !== undefined || versionAtLeast(version, 1, 2),
  };
}

/** The snake_case object of a record, as the store writes it (without validating: the codec's `encode` does that). */
export function toDiskRecord(record: BiasMetricRecord): BiasRecordLine {
  // The one place camelCase becomes snake_case; key order follows ADR-018 v1.1's example.
  return {
    schema_version: record.schemaVersion === '1' ? 1 : record.schemaVersion,
    session_id: record.sessionId,
    timestamp: record.timestamp,
    consent_level: record.consentLevel,
    query_metadata:
      record.queryMetadata === null
        ? null
        : {
            category: record.queryMetadata.category,
            token_count_bucket: record.queryMetadata.tokenCountBucket,
            language: record.queryMetadata.language,
          },
    reviewer_id: record.reviewerId,
    model_id: record.modelId,
    position: record.position,
    response_length_chars: record.responseLengthChars,
    score_value: record.scoreValue,
    score_scale: record.scoreScale,
    council_config_version: record.councilConfigVersion,
    query_hash: record.queryHash,
    rank_position: record.rankPosition,
  };
}

/**
 * The `BiasMetricRecord` codec: `biasMetricRecordSchema.safeDecode(line)` validates a snake_case line
 * and gives the camelCase record; `biasMetricRecordSchema.encode(record)` gives the line's object.
 * Reads schema 1 (integer) and any `1.x.y`; a record of another major version fails here and is
 * skipped (and counted) by the store.
 *
 * Built on its first use (`z.lazy`), not at module load: a read whose every line takes the fast path
 * (`decodeBiasMetricRecordFast`) never needs it, and building zod's ~40 schemas here cost every cold
 * `council bias-report` a few milliseconds. It decodes, encodes and explains exactly as the codec inside it.
 */
export const biasMetricRecordSchema: z.ZodLazy<
  z.ZodCodec<z.ZodType<BiasRecordLine, BiasRecordLine>, z.ZodCustom<BiasMetricRecord, BiasMetricRecord>>
> = z.lazy(() =>
  z.codec(
    diskRecordSchema(),
    z.custom<BiasMetricRecord>((value) => typeof value === 'object' && value !== null),
    {
      decode: (disk) => decode(disk),
      encode: (record) => toDiskRecord(record),
    },
  ),
);

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0; // as zod's .int()
const isOptString = (v: unknown): v is string | null | undefined =>
  v === undefined || v === null || typeof v === 'string';
const hex16 = /^[0-9a-f]{16}$/;
const version1 = /^1(?:\.\d+){0,2}$/;

/**
 * A hand-written fast path for reading: returns the record when `raw` certainly satisfies
 * `biasMetricRecordSchema`, or undefined to let the schema decide (and explain). It accepts a subset
 * of what the schema accepts (a property test holds it to that) and decodes identically.
 */
export function decodeBiasMetricRecordFast(raw: Record<string, unknown>): BiasMetricRecord | undefined {
  const v = raw.schema_version;
  if (!(v === 1 || (typeof v === 'string' && version1.test(v)))) return undefined;
  if (typeof raw.session_id !== 'string' || raw.session_id === '') return undefined;
  if (typeof raw.timestamp !== 'string' || parseIsoTimestamp(raw.timestamp) === null) return undefined;
  const c = raw.consent_level;
  if (!(c === undefined || c === null || c === 0 || c === 1 || c === 2 || c === 3 || c === 4)) return undefined;
  const m = raw.query_metadata;
  if (m !== undefined && m !== null) {
    if (typeof m !== 'object' || Array.isArray(m)) return undefined;
    const meta = m as Record<string, unknown>;
    if (
      !isOptString(meta.category) ||
      !isOptString(meta.token_count_bucket) ||
      !isOptString(meta.token_bucket) ||
      !isOptString(meta.language)
    )
      return undefined;
  }
  if (typeof raw.reviewer_id !== 'string' || raw.reviewer_id === '') return undefined;
  if (typeof raw.model_id !== 'string' || raw.model_id === '') return undefined;
  if (!isCount(raw.position) || !isCount(raw.response_length_chars)) return undefined;
  const score = raw.score_value;
  if (!(score === null || (typeof score === 'number' && Number.isFinite(score)))) return undefined;
  if (!isOptString(raw.score_scale) || !isOptString(raw.council_config_version)) return undefined;
  const h = raw.query_hash;
  if (!(h === undefined || h === null || (typeof h === 'string' && hex16.test(h)))) return undefined;
  const r = raw.rank_position;
  if (!(r === undefined || r === null || isCount(r))) return undefined;
  return decode(raw as unknown as BiasRecordLine);
}

/** Why a record may not be written, or undefined when it may: the rules past the schema. */
export function biasRecordWriteProblem(record: BiasMetricRecord): string | undefined {
  if (record.schemaVersion !== biasSchemaVersion) return `schema_version must be "${biasSchemaVersion}" on write`;
  if (record.consentLevel === null || record.consentLevel === 0)
    return 'consent_level must be 1–4 on write: at 0 (OFF) nothing is written';
  const parsed = parseIsoTimestamp(record.timestamp);
  if (parsed === null || !parsed.hasZone) return 'timestamp must be ISO 8601 with a zone (e.g. 2025-12-17T10:30:00Z)';
  if (record.queryHash !== null && record.consentLevel !== 4)
    return 'query_hash is only written at consent level 4 (RESEARCH)';
  // query_metadata holds labels derived from the query, never its text: only the known labels are written.
  const meta = record.queryMetadata;
  if (meta !== null) {
    if (meta.category !== null && !(queryCategories as readonly string[]).includes(meta.category))
      return `query_metadata.category must be one of ${queryCategories.join(', ')} or null`;
    if (meta.tokenCountBucket !== null && !(tokenCountBuckets as readonly string[]).includes(meta.tokenCountBucket))
      return `query_metadata.token_count_bucket must be one of ${tokenCountBuckets.join(', ')} or null`;
    if (meta.language !== null && !/^(?:[a-z]{2}|und)$/.test(meta.language))
      return 'query_metadata.language must be an ISO 639-1 code or und, or null';
  }
  if (!record.positionIsDisplayOrder) return 'position must be display order (positionIsDisplayOrder: true)';
  return undefined;
}

/**
 * A line of a later major version, which the readers skip (`unsupported_version`) and count by major: its major and the
 * skip's detail; undefined for a version they read, or none at all (the schema then decides).
 */
export function foreignBiasRecordVersion(raw: Record<string, unknown>): { major: number; detail: string } | undefined {
  const version = raw.schema_version;
  const major = majorOf(version);
  if (major === null || major < 2) return undefined;
  const shown = JSON.stringify(version);
  return {
    major,
    detail: `schema_version ${shown.length > 24 ? `${shown.slice(0, 24)}…` : shown} has major version ${major}; this reader understands major 1 (a newer Council wrote it: upgrade to read it)`,
  };
}

/** Validates one on-disk (snake_case) record; returns the error instead of throwing. */
export function safeParseBiasMetricRecord(
  line: unknown,
): { success: true; value: BiasMetricRecord } | { success: false; error: BiasStoreError } {
  const result = biasMetricRecordSchema.safeDecode(line as BiasRecordLine);
  if (result.success) return { success: true, value: result.data };
  return {
    success: false,
    error: new BiasStoreError({
      code: 'INVALID_RECORD',
      message: `Not a bias metric record (${describeZodError(result.error)}).`,
      cause: result.error,
    }),
  };
}

/** Validates one on-disk (snake_case) record; throws a `BiasStoreError` (`INVALID_RECORD`). */
export function parseBiasMetricRecord(line: unknown): BiasMetricRecord {
  const result = safeParseBiasMetricRecord(line);
  if (!result.success) throw result.error;
  return result.value;
}
