import { parquetRead } from 'hyparquet';
import type { FileMetaData, SchemaElement } from 'hyparquet';
import { BiasStoreError, noRank } from '@council/bias-store';
import type { BiasParquetRow, ScanBiasParquetOptions } from '@council/bias-store';
import { biasColumn, biasField } from '@council/bias-store/internal';
import type { BiasFieldKind } from '@council/bias-store/internal';
import {
  asNumber,
  isCount,
  nonEmpty,
  parquetReportFields,
  parquetRowDetails,
  parquetVersionProblem,
} from './parquet-row-rules.js';
import { damagedFromRow, openParquetFile, rowGroupRead } from './open-parquet-file.js';

/** The physical types accepted for a column of each kind of field (Council's, and what DuckDB's COPY writes for them). */
const physicalTypes: Record<BiasFieldKind, readonly string[]> = {
  version: ['BYTE_ARRAY'],
  id: ['BYTE_ARRAY'],
  label: ['BYTE_ARRAY'],
  text: ['BYTE_ARRAY'],
  hash: ['BYTE_ARRAY'],
  timestamp: ['INT64'],
  consent: ['INT32', 'INT64'],
  count: ['INT32', 'INT64'],
  score: ['DOUBLE', 'FLOAT', 'INT32', 'INT64'],
  flag: ['BOOLEAN'],
};
/** The columns a report reads, and the physical types accepted for each. */
const wanted: Record<string, readonly string[]> = Object.fromEntries(
  parquetReportFields.map((api) => [biasColumn[api], physicalTypes[biasField(api).kind]]),
);
const columnNames = Object.keys(wanted);
const timestampColumn = biasColumn.timestamp;

/** The text columns a report reads (stored as BYTE_ARRAY), in the order of `wanted`. */
export const biasParquetTextColumns: readonly string[] = columnNames.filter((name) =>
  wanted[name]!.includes('BYTE_ARRAY'),
);

/** Why the file's schema cannot be read as bias records, or undefined (the words of the `INVALID_OPTION` error). */
export function biasParquetSchemaProblem(metadata: FileMetaData): string | undefined {
  const top = new Map<string, SchemaElement>();
  for (const element of metadata.schema.slice(1)) top.set(element.name, element);
  for (const name of columnNames) {
    const element = top.get(name);
    if (element === undefined) return `it has no column ${name}`;
    if (element.type === undefined || !wanted[name]!.includes(element.type))
      return `its column ${name} is ${element.type ?? 'a group'}, not ${wanted[name]!.join(' or ')}`;
  }
  const unit = top.get(timestampColumn)!.logical_type;
  const converted = top.get(timestampColumn)!.converted_type;
  if (!(unit?.type === 'TIMESTAMP' || converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS'))
    return `its column ${timestampColumn} is no TIMESTAMP`;
  return undefined;
}

/**
 * Streams the rows of a Parquet file of bias records (as `council store export` writes, or any file with its
 * columns and types) one row group at a time, so memory holds one row group's columns. Each row is checked as the
 * JSONL reader checks a line (major version 1, non-empty ids, counts below 4,294,967,295, a finite score or null);
 * a file without the columns is an `INVALID_OPTION` error naming the column. Returns the rows in the file.
 */
export async function scanBiasParquet(options: ScanBiasParquetOptions): Promise<number> {
  const { path } = options;
  const opened = await openParquetFile(path, options.bad);
  if (opened === undefined) return 0;
  const { handle, metadata } = opened;
  try {
    const problem = biasParquetSchemaProblem(metadata);
    if (problem !== undefined) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `${path} is a Parquet file but not one of bias records: ${problem}. Give bias-report the Parquet files council store export writes (or their directory).`,
      });
    }
    const row: BiasParquetRow = {
      sessionId: '',
      reviewerId: '',
      modelId: '',
      time: 0,
      position: 0,
      responseLengthChars: 0,
      score: 0,
      rankPosition: 0,
      positionIsDisplayOrder: true,
      councilConfigVersion: null,
      queryCategory: null,
    };
    let groupStart = 0;
    for (const group of metadata.row_groups) {
      const rows = Number(group.num_rows);
      const data = new Map<string, unknown[]>(columnNames.map((name) => [name, new Array<unknown>(rows)]));
      try {
        await parquetRead({
          ...rowGroupRead(opened, { columns: columnNames, groupStart, rows }),
          onChunk: ({ columnName, columnData, rowStart }) => {
            const target = data.get(columnName)!;
            for (let i = 0; i < columnData.length; i++) {
              const at = rowStart + i - groupStart;
              if (at >= 0 && at < rows) target[at] = columnData[i];
            }
          },
        });
      } catch (error) {
        return damagedFromRow({ groupStart, error, bad: options.bad });
      }
      const [version, session, time, reviewer, model, position, length, score, rank, displayOrder, config, category] =
        columnNames.map((name) => data.get(name)!);
      for (let i = 0; i < rows; i++) {
        const rowNumber = groupStart + i + 1;
        const versionProblem = parquetVersionProblem(version![i]);
        if (versionProblem !== undefined) {
          options.bad(rowNumber, versionProblem.reason, versionProblem.detail);
          continue;
        }
        const s = session![i];
        const r = reviewer![i];
        const m = model![i];
        if (!nonEmpty(s) || !nonEmpty(r) || !nonEmpty(m)) {
          options.bad(rowNumber, 'invalid_record', parquetRowDetails.ids);
          continue;
        }
        const ms = asNumber(time![i]);
        const p = asNumber(position![i]);
        const len = asNumber(length![i]);
        const rk = rank![i] === null || rank![i] === undefined ? null : asNumber(rank![i]);
        const sc = score![i] === null || score![i] === undefined ? null : asNumber(score![i]);
        const d = displayOrder![i];
        const c = config![i];
        const q = category![i];
        if (
          !Number.isFinite(ms) ||
          !isCount(p) ||
          !isCount(len) ||
          (rk !== null && !isCount(rk)) ||
          (sc !== null && !Number.isFinite(sc)) ||
          typeof d !== 'boolean'
        ) {
          options.bad(rowNumber, 'invalid_record', parquetRowDetails.range);
          continue;
        }
        if (
          !(c === null || c === undefined || typeof c === 'string') ||
          !(q === null || q === undefined || typeof q === 'string')
        ) {
          options.bad(rowNumber, 'invalid_record', parquetRowDetails.reportStrings);
          continue;
        }
        row.sessionId = s;
        row.reviewerId = r;
        row.modelId = m;
        row.time = ms;
        row.position = p;
        row.responseLengthChars = len;
        row.score = sc ?? Number.NaN;
        row.rankPosition = rk ?? noRank;
        row.positionIsDisplayOrder = d;
        row.councilConfigVersion = c ?? null;
        row.queryCategory = q ?? null;
        options.row(row, rowNumber);
      }
      groupStart += rows;
    }
    return groupStart;
  } finally {
    await handle.close();
  }
}
