import { parquetReadObjects } from 'hyparquet';
import type { BiasMetricRecord, SkipReason } from '@council/bias-store';
import { biasParquetColumns } from '../bias-parquet-schema.js';
import { BiasStoreError } from '@council/bias-store';
import { biasColumn, biasMetadataApi, biasRecordFields } from '@council/bias-store/internal';
import type { BiasFieldKind, BiasRecordField } from '@council/bias-store/internal';
import { asNumber, isCount, nonEmpty, parquetRowDetails, parquetVersionProblem } from '../parquet-row-rules.js';
import { damagedFromRow, openParquetFile, rowGroupRead } from '../open-parquet-file.js';

export interface ScanParquetRecordsOptions {
  path: string;
  /** A valid row as the record it was exported from (its time as a UTC ISO string), its instant, its 1-based row. */
  record: (record: BiasMetricRecord, ms: number, rowNumber: number) => void;
  /** A row that is no bias record, or a damaged file (`corrupt_segment`, at the first row not read). */
  bad: (rowNumber: number, reason: SkipReason, detail: string) => void;
}

const columnNames = biasParquetColumns.map((c) => c.name);

const hex16 = /^[0-9a-f]{16}$/;
const maxMs = 8.64e15;

type Row = Record<string, unknown>;

/**
 * The rules a row's columns must keep, in the order they are judged: the first a row breaks names its skip. Each field
 * keeps its kind's rule (as the JSONL reader's schema): the version its own, ids, then the range of the time, counts,
 * score and flag, the consent level, the strings, and last a hash's form.
 */
const ruleOf: Record<BiasFieldKind, number> = {
  version: 0,
  id: 1,
  timestamp: 2,
  count: 2,
  score: 2,
  flag: 2,
  consent: 3,
  label: 4,
  text: 4,
  hash: 4,
};
const hashForm = 5;
const ruleDetails = [
  '',
  parquetRowDetails.ids,
  parquetRowDetails.range,
  parquetRowDetails.consent,
  parquetRowDetails.strings,
  parquetRowDetails.hash,
];
const metadataFields = biasRecordFields.filter((f) => f.inMetadata);

/** What `valueOf` returns for a value that breaks its field's rule. */
const broken = Symbol('broken');

/** A field's value as the record holds it, from its column, or `broken`. */
function valueOf(field: BiasRecordField, value: unknown): unknown {
  switch (field.kind) {
    case 'version':
      return value;
    case 'id':
      return nonEmpty(value) ? value : broken;
    case 'timestamp': {
      const ms = asNumber(value);
      return Number.isInteger(ms) && Math.abs(ms) <= maxMs ? new Date(ms).toISOString() : broken;
    }
    case 'flag':
      return typeof value === 'boolean' ? value : broken;
    case 'label':
    case 'text':
    case 'hash':
      return value === null || value === undefined ? null : typeof value === 'string' ? value : broken;
    case 'count':
    case 'score':
    case 'consent': {
      const number = value === null || value === undefined ? null : asNumber(value);
      if (number === null) return field.presence === 'required' ? broken : null;
      if (field.kind === 'count') return isCount(number) ? number : broken;
      if (field.kind === 'score') return Number.isFinite(number) ? number : broken;
      return Number.isInteger(number) && number >= 0 && number <= 4 ? number : broken;
    }
  }
}

/**
 * The record a row was exported from, or why it is none (the JSONL reader's rules, on the Parquet columns): each field
 * read from its column by bias-store's field table, the time as a UTC instant, and no query metadata when its labels
 * are all null.
 */
function recordOf(row: Row): BiasMetricRecord | { reason: SkipReason; detail: string } {
  const versionProblem = parquetVersionProblem(row[biasColumn.schemaVersion]);
  if (versionProblem !== undefined) return versionProblem;
  const record: Record<string, unknown> = {};
  let firstBroken = ruleDetails.length;
  for (const field of biasRecordFields) {
    const value = valueOf(field, row[field.column]);
    if (value === broken) {
      firstBroken = Math.min(firstBroken, ruleOf[field.kind]);
      continue;
    }
    if (field.kind === 'hash' && value !== null && !hex16.test(value as string))
      firstBroken = Math.min(firstBroken, hashForm);
    if (!field.inMetadata) {
      record[field.api] = value;
    } else if (field === metadataFields[0]) {
      // The metadata's place in the record, filled below.
      record[biasMetadataApi] = null;
    }
  }
  if (firstBroken < ruleDetails.length) return { reason: 'invalid_record', detail: ruleDetails[firstBroken]! };
  const labels = metadataFields.map((f) => (row[f.column] as string | null | undefined) ?? null);
  if (labels.some((label) => label !== null))
    record[biasMetadataApi] = Object.fromEntries(metadataFields.map((f, i) => [f.api, labels[i]]));
  return record as unknown as BiasMetricRecord;
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
  const opened = await openParquetFile(path, options.bad);
  if (opened === undefined) return 0;
  const { handle, metadata } = opened;
  try {
    const present = new Set(metadata.schema.slice(1).map((element) => element.name));
    const missing = columnNames.find((name) => !present.has(name));
    if (missing !== undefined) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `${path} is a Parquet file but not an export of bias records: it has no column ${missing}. Give the Parquet files council store export writes (or their directory).`,
      });
    }
    let groupStart = 0;
    for (const group of metadata.row_groups) {
      const rows = Number(group.num_rows);
      let objects: Row[];
      try {
        objects = (await parquetReadObjects(rowGroupRead(opened, { columns: columnNames, groupStart, rows }))) as Row[];
      } catch (error) {
        return damagedFromRow({ groupStart, error, bad: options.bad });
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
