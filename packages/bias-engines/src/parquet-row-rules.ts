import { noRank } from '@council/bias-store';
import type { SkipReason } from '@council/bias-store';
import { biasColumn, biasRecordFields, majorOf } from '@council/bias-store/internal';
import type { BiasFieldApi } from '@council/bias-store/internal';

/**
 * The JSONL reader's rules on a Parquet row's columns, for the two Parquet readers (`scanBiasParquet`, which keeps
 * what a report reads, and ClickHouse's `scanParquetRecords`, which rebuilds whole records): the checks, and the skip
 * details, whose column names come from bias-store's field table.
 */

export const asNumber = (v: unknown): number =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number.NaN;
/** A count as the reader's 32-bit columns hold it: whole, at least 0, below `noRank` (as `biasRecordCountProblem`). */
export const isCount = (v: number): boolean => Number.isSafeInteger(v) && v >= 0 && v < noRank;
export const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

const version1 = /^1(?:\.\d+){0,2}$/;

/**
 * The fields a report reads from a Parquet file, in the order a missing column is named: the columns `scanBiasParquet`
 * requires and judges, and DuckDB's Parquet scan with it. A field added to the table and not here is neither required
 * nor judged, so the exports written before it stay readable.
 */
export const parquetReportFields: readonly BiasFieldApi[] = [
  'schemaVersion',
  'sessionId',
  'timestamp',
  'reviewerId',
  'modelId',
  'position',
  'responseLengthChars',
  'scoreValue',
  'rankPosition',
  'positionIsDisplayOrder',
  'councilConfigVersion',
  'category',
];

/** `a, b and c` (or `… or c`). */
const listed = (names: readonly string[], last: 'and' | 'or'): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
const columns = (apis: readonly BiasFieldApi[]): string[] => apis.map((api) => biasColumn[api]);

/** Why a row's version is not one this reader reads (a later major version, or no version), or undefined. */
export function parquetVersionProblem(v: unknown): { reason: SkipReason; detail: string } | undefined {
  if (typeof v === 'string' && version1.test(v)) return undefined;
  const major = majorOf(v);
  if (major !== null && major >= 2)
    return {
      reason: 'unsupported_version',
      detail: `${biasColumn.schemaVersion} ${JSON.stringify(v)} has major version ${major}; this reader understands major 1 (a newer Council wrote it: upgrade to read it)`,
    };
  return { reason: 'invalid_record', detail: `${biasColumn.schemaVersion}: expected 1 or a "1.x.y" version` };
}

/** The skip details (reason `invalid_record`) of the rules past the version, each naming the columns it checks. */
export const parquetRowDetails = {
  ids: `${listed(
    biasRecordFields.filter((f) => f.kind === 'id').map((f) => f.column),
    'and',
  )} must be non-empty strings`,
  range: `${listed(
    columns(['timestamp', 'position', 'responseLengthChars', 'rankPosition', 'scoreValue', 'positionIsDisplayOrder']),
    'or',
  )} is missing or out of range`,
  reportStrings: `${listed(columns(['councilConfigVersion', 'category']), 'and')} must be strings or null`,
  consent: `${biasColumn.consentLevel} must be 0, 1, 2, 3, 4 or null`,
  strings: `${listed(
    biasRecordFields.filter((f) => f.kind === 'label' || f.kind === 'text' || f.kind === 'hash').map((f) => f.column),
    'and',
  )} must be strings or null`,
  hash: `${biasColumn.queryHash}: expected 16 lower-case hex characters`,
} as const;
