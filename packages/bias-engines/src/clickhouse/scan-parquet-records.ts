import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import type { BiasMetricRecord, SkipReason } from '@council/bias-store';
import { biasParquetColumns } from '../bias-parquet-schema.js';
import { BiasStoreError } from '@council/bias-store';
import { biasColumn, ioError } from '@council/bias-store/internal';
import { asNumber, isCount, nonEmpty, parquetRowDetails, parquetVersionProblem } from '../parquet-row-rules.js';

export interface ScanParquetRecordsOptions {
  path: string;
  /** A valid row as the record it was exported from (its time as a UTC ISO string), its instant, its 1-based row. */
  record: (record: BiasMetricRecord, ms: number, rowNumber: number) => void;
  /** A row that is no bias record, or a damaged file (`corrupt_segment`, at the first row not read). */
  bad: (rowNumber: number, reason: SkipReason, detail: string) => void;
}

const columnNames = biasParquetColumns.map((c) => c.name);

function fileBuffer(handle: FileHandle, size: number): AsyncBuffer {
  return {
    byteLength: size,
    async slice(start: number, end = size): Promise<ArrayBuffer> {
      const bytes = new Uint8Array(end - start);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return bytes.buffer;
    },
  };
}

const hex16 = /^[0-9a-f]{16}$/;
const optString = (v: unknown): v is string | null | undefined =>
  v === null || v === undefined || typeof v === 'string';
const maxMs = 8.64e15;

type Row = Record<string, unknown>;

// The columns by the field's API name (bias-store's field table).
const c = biasColumn;

/** The record a row was exported from, or why it is none (the JSONL reader's rules, on the Parquet columns). */
function recordOf(row: Row): BiasMetricRecord | { reason: SkipReason; detail: string } {
  const v = row[c.schemaVersion];
  const versionProblem = parquetVersionProblem(v);
  if (versionProblem !== undefined) return versionProblem;
  const sessionId = row[c.sessionId];
  const reviewerId = row[c.reviewerId];
  const modelId = row[c.modelId];
  if (!nonEmpty(sessionId) || !nonEmpty(reviewerId) || !nonEmpty(modelId))
    return { reason: 'invalid_record', detail: parquetRowDetails.ids };
  const orNull = (value: unknown): number | null => (value === null || value === undefined ? null : asNumber(value));
  const ms = asNumber(row[c.timestamp]);
  const position = asNumber(row[c.position]);
  const length = asNumber(row[c.responseLengthChars]);
  const rank = orNull(row[c.rankPosition]);
  const score = orNull(row[c.scoreValue]);
  const consent = orNull(row[c.consentLevel]);
  const displayOrder = row[c.positionIsDisplayOrder];
  if (
    !Number.isInteger(ms) ||
    Math.abs(ms) > maxMs ||
    !isCount(position) ||
    !isCount(length) ||
    (rank !== null && !isCount(rank)) ||
    (score !== null && !Number.isFinite(score)) ||
    typeof displayOrder !== 'boolean'
  ) {
    return { reason: 'invalid_record', detail: parquetRowDetails.range };
  }
  if (consent !== null && !(Number.isInteger(consent) && consent >= 0 && consent <= 4))
    return { reason: 'invalid_record', detail: parquetRowDetails.consent };
  const category = row[c.category];
  const bucket = row[c.tokenCountBucket];
  const language = row[c.language];
  const scale = row[c.scoreScale];
  const config = row[c.councilConfigVersion];
  const hash = row[c.queryHash];
  if (
    !optString(category) ||
    !optString(bucket) ||
    !optString(language) ||
    !optString(scale) ||
    !optString(config) ||
    !optString(hash)
  ) {
    return { reason: 'invalid_record', detail: parquetRowDetails.strings };
  }
  if (typeof hash === 'string' && !hex16.test(hash))
    return { reason: 'invalid_record', detail: parquetRowDetails.hash };
  const noMetadata = (category ?? null) === null && (bucket ?? null) === null && (language ?? null) === null;
  return {
    schemaVersion: v as string,
    sessionId,
    timestamp: new Date(ms).toISOString(),
    consentLevel: consent as BiasMetricRecord['consentLevel'],
    queryMetadata: noMetadata
      ? null
      : { category: category ?? null, tokenCountBucket: bucket ?? null, language: language ?? null },
    reviewerId,
    modelId,
    position,
    responseLengthChars: length,
    scoreValue: score,
    scoreScale: scale ?? null,
    councilConfigVersion: config ?? null,
    queryHash: hash ?? null,
    rankPosition: rank,
    positionIsDisplayOrder: displayOrder,
  };
}

/**
 * Streams every column of a Parquet file of bias records (as `council store export` writes) back into the records
 * they came from, one row group at a time, pausing (a `yield`) after each group's records so a consumer can hand them
 * on: memory holds one row group. The rebuilt record's time is the instant in UTC (`…Z`, milliseconds), and a record
 * whose three query fields are null has no query metadata, so a record whose line had another zone, or metadata of
 * three nulls, rebuilds to a different canonical line than its JSONL original. A file without the export's columns
 * is an `INVALID_OPTION` error naming the column. Returns the rows in the file.
 */
export async function* scanParquetRecords(options: ScanParquetRecordsOptions): AsyncGenerator<void, number> {
  const { path } = options;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw ioError({ action: 'read', path, cause: error });
  }
  try {
    const file = fileBuffer(handle, (await handle.stat()).size);
    let metadata: FileMetaData;
    try {
      metadata = await parquetMetadataAsync(file);
    } catch (error) {
      options.bad(
        1,
        'corrupt_segment',
        `the Parquet file cannot be read (${(error as Error).message}); none of its rows were read`,
      );
      return 0;
    }
    const present = new Set(metadata.schema.slice(1).map((element) => element.name));
    const missing = columnNames.find((name) => !present.has(name));
    if (missing !== undefined) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `${path} is a Parquet file but not an export of bias records: it has no column ${missing}. Give the Parquet files council store export writes (or their directory).`,
      });
    }
    const parsers = {
      timestampFromMilliseconds: (v: bigint) => Number(v),
      timestampFromMicroseconds: (v: bigint) => Math.floor(Number(v) / 1000),
      timestampFromNanoseconds: (v: bigint) => Math.floor(Number(v / 1000n) / 1000),
    };
    let groupStart = 0;
    for (const group of metadata.row_groups) {
      const rows = Number(group.num_rows);
      let objects: Row[];
      try {
        objects = (await parquetReadObjects({
          file,
          metadata,
          columns: columnNames,
          rowStart: groupStart,
          rowEnd: groupStart + rows,
          parsers,
        })) as Row[];
      } catch (error) {
        options.bad(
          groupStart + 1,
          'corrupt_segment',
          `the Parquet file is damaged from about row ${groupStart + 1} (${(error as Error).message}); the rows before it were read`,
        );
        return groupStart;
      }
      for (let i = 0; i < objects.length; i++) {
        const record = recordOf(objects[i]!);
        if ('reason' in record) options.bad(groupStart + i + 1, record.reason, record.detail);
        else options.record(record, Date.parse(record.timestamp), groupStart + i + 1);
      }
      groupStart += rows;
      yield;
    }
    return groupStart;
  } finally {
    await handle.close();
  }
}
