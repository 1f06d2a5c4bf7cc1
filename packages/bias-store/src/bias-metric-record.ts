import * as z from 'zod';
import { BiasStoreError } from './bias-store-error.js';
import { biasLineParts, biasMetadataApi, biasMetadataKey } from './bias-record-fields.js';
import type { BiasFieldKind, BiasRecordField } from './bias-record-fields.js';
import { describeZodError } from './describe-zod-error.js';
import type { ConsentLevel } from './consent-level.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
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

const nonEmpty = z.string().min(1);
const count = z.number().int().min(0);

const timestampSchema = z.string().refine((value) => parseIsoTimestamp(value) !== null, {
  message: 'expected an ISO 8601 date-time such as 2025-12-17T10:30:00Z',
});

/** A line's value of each kind of field (bias-record-fields.ts), before its nullability. */
const kindSchemas: Record<Exclude<BiasFieldKind, 'flag'>, z.ZodType> = {
  version: z.union([
    z.literal(1),
    z.string().regex(/^1(?:\.\d+){0,2}$/, { message: 'expected 1 or a "1.x.y" version' }),
  ]),
  id: nonEmpty,
  timestamp: timestampSchema,
  consent: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  label: z.string(),
  text: z.string(),
  count,
  score: z.number(),
  hash: z.string().regex(/^[0-9a-f]{16}$/, { message: 'expected 16 lower-case hex characters' }),
};

function fieldSchema(field: BiasRecordField): z.ZodType {
  const schema = kindSchemas[field.kind as Exclude<BiasFieldKind, 'flag'>];
  return field.presence === 'required' ? schema : field.presence === 'nullable' ? schema.nullable() : schema.nullish();
}

/** The snake_case object of a line (what `biasMetricRecordSchema` decodes and encodes). */
export type BiasRecordLine = Record<string, unknown>;

/** The snake_case line on disk (unknown fields are ignored on read), built from the record's fields. */
const diskRecordSchema = z.object(
  Object.fromEntries(
    biasLineParts.map((part): [string, z.ZodType] => {
      if ('field' in part) return [part.field.key, fieldSchema(part.field)];
      // The metadata as written here, or with an alias's key as other writers write it.
      const shape = part.metadata.flatMap((f) => [f.key, ...f.aliases].map((key) => [key, fieldSchema(f)] as const));
      return [biasMetadataKey, z.object(Object.fromEntries(shape)).nullish()];
    }),
  ),
) as unknown as z.ZodType<BiasRecordLine, BiasRecordLine>;

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

function decode(disk: BiasRecordLine): BiasMetricRecord {
  const record: Record<string, unknown> = {};
  let version = '';
  for (const part of biasLineParts) {
    if ('field' in part) {
      const { field } = part;
      const value = disk[field.key];
      if (field.kind === 'version') record[field.api] = version = String(value);
      else record[field.api] = value ?? null;
      continue;
    }
    const meta = disk[biasMetadataKey] as Record<string, unknown> | null | undefined;
    if (meta === null || meta === undefined) {
      record[biasMetadataApi] = null;
      continue;
    }
    const labels: Record<string, unknown> = {};
    for (const field of part.metadata) {
      let value = meta[field.key];
      for (let a = 0; a < field.aliases.length && value == null; a++) value = meta[field.aliases[a]!];
      labels[field.api] = value ?? null;
    }
    record[biasMetadataApi] = labels;
  }
  // Derived: a line that carries rank_position was written with display-order positions, as is any schema ≥ 1.2.0.
  record['positionIsDisplayOrder'] = disk['rank_position'] !== undefined || versionAtLeast(version, 1, 2);
  return record as unknown as BiasMetricRecord;
}

/** The snake_case object of a record, as the store writes it (without validating: the codec's `encode` does that). */
export function toDiskRecord(record: BiasMetricRecord): BiasRecordLine {
  // The one place camelCase becomes snake_case; key order follows ADR-018 v1.1's example (the fields' order).
  const values = record as unknown as Record<string, unknown>;
  const disk: BiasRecordLine = {};
  for (const part of biasLineParts) {
    if ('field' in part) {
      const value = values[part.field.api];
      disk[part.field.key] = part.field.kind === 'version' && value === '1' ? 1 : value;
      continue;
    }
    const meta = values[biasMetadataApi] as Record<string, unknown> | null;
    disk[biasMetadataKey] =
      meta === null ? null : Object.fromEntries(part.metadata.map((f) => [f.key, meta[f.api]] as const));
  }
  return disk;
}

/**
 * The `BiasMetricRecord` codec: `biasMetricRecordSchema.safeDecode(line)` validates a snake_case line
 * and gives the camelCase record; `biasMetricRecordSchema.encode(record)` gives the line's object.
 * Reads schema 1 (integer) and any `1.x.y`; a record of another major version fails here and is
 * skipped (and counted) by the store.
 */
export const biasMetricRecordSchema: z.ZodCodec<
  z.ZodType<BiasRecordLine, BiasRecordLine>,
  z.ZodCustom<BiasMetricRecord, BiasMetricRecord>
> = z.codec(
  diskRecordSchema,
  z.custom<BiasMetricRecord>((value) => typeof value === 'object' && value !== null),
  { decode: (disk) => decode(disk), encode: (record) => toDiskRecord(record) },
);

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0; // as zod's .int()
const hex16 = /^[0-9a-f]{16}$/;
const version1 = /^1(?:\.\d+){0,2}$/;

/** Whether `v` certainly satisfies `kindSchemas[kind]` (a non-null value). */
function fastKind(kind: BiasFieldKind, v: unknown): boolean {
  switch (kind) {
    case 'version':
      return v === 1 || (typeof v === 'string' && version1.test(v));
    case 'id':
      return typeof v === 'string' && v !== '';
    case 'timestamp':
      return typeof v === 'string' && parseIsoTimestamp(v) !== null;
    case 'consent':
      return v === 0 || v === 1 || v === 2 || v === 3 || v === 4;
    case 'label':
    case 'text':
      return typeof v === 'string';
    case 'count':
      return isCount(v);
    case 'score':
      return typeof v === 'number' && Number.isFinite(v);
    case 'hash':
      return typeof v === 'string' && hex16.test(v);
    case 'flag':
      return false;
  }
}

function fastField(field: BiasRecordField, v: unknown): boolean {
  if (field.presence === 'required') return fastKind(field.kind, v);
  if (field.presence === 'nullable') return v === null || fastKind(field.kind, v);
  return v === undefined || v === null || fastKind(field.kind, v);
}

/**
 * A hand-written fast path for reading: returns the record when `raw` certainly satisfies
 * `biasMetricRecordSchema`, or undefined to let the schema decide (and explain). It accepts a subset
 * of what the schema accepts (a property test holds it to that) and decodes identically.
 */
export function decodeBiasMetricRecordFast(raw: Record<string, unknown>): BiasMetricRecord | undefined {
  for (let p = 0; p < biasLineParts.length; p++) {
    const part = biasLineParts[p]!;
    if ('field' in part) {
      if (!fastField(part.field, raw[part.field.key])) return undefined;
      continue;
    }
    const m = raw[biasMetadataKey];
    if (m === undefined || m === null) continue;
    if (typeof m !== 'object' || Array.isArray(m)) return undefined;
    const meta = m as Record<string, unknown>;
    for (const field of part.metadata) {
      if (!fastField(field, meta[field.key])) return undefined;
      for (const alias of field.aliases) if (!fastField(field, meta[alias])) return undefined;
    }
  }
  return decode(raw);
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
