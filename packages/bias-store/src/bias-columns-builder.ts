import type { BiasCountColumn, BiasIdColumn, BiasScoreColumn } from '@council/bias-audit';
import type { BiasRecordColumns } from './bias-record-columns.js';
import { BiasStoreError } from './bias-store-error.js';

/** One record as the builder takes it: ids already interned. Reused by the caller for every record. */
export interface BiasRow {
  session: number;
  reviewer: number;
  candidate: number;
  position: number;
  responseLengthChars: number;
  score: number;
  rankPosition: number;
  time: number;
  configVersion: number;
  queryCategory: number;
  positionIsDisplayOrder: boolean;
}

/** The per-record arrays of `BiasRecordColumns`. */
export interface RecordArrays {
  session: Uint32Array;
  reviewer: BiasIdColumn;
  candidate: BiasIdColumn;
  position: BiasCountColumn;
  responseLengthChars: BiasCountColumn;
  score: BiasScoreColumn;
  rankPosition: Uint32Array;
  time: Float64Array;
  configVersion: BiasIdColumn;
  queryCategory: Uint16Array;
  positionIsDisplayOrder: Uint8Array;
}

type Columns = RecordArrays;
type ColumnName = keyof Columns;
const columnNames: readonly ColumnName[] = [
  'session',
  'reviewer',
  'candidate',
  'position',
  'responseLengthChars',
  'score',
  'rankPosition',
  'time',
  'configVersion',
  'queryCategory',
  'positionIsDisplayOrder',
];

/**
 * How wide the columns whose width a reader may choose are allocated: `ids` for `reviewer`, `candidate` and
 * `configVersion` (8 bits where the window has fewer than 256 names: `idWidth`), `counts` for `position` and
 * `responseLengthChars`, `score` 32 where every score is a 32-bit float exactly. Left out: the widest.
 */
export interface RecordWidths {
  ids?: 8 | 16;
  counts?: 8 | 16 | 32;
  score?: 32 | 64;
}

/** Zeroed per-record arrays for `capacity` records (41 bytes each at the widest): a report read's, and the four only other readers use. */
export function allocateRecordArrays(capacity: number, widths: RecordWidths = {}): RecordArrays {
  return {
    ...allocateReportArrays(capacity, widths),
    session: new Uint32Array(capacity),
    time: new Float64Array(capacity),
    queryCategory: new Uint16Array(capacity),
    positionIsDisplayOrder: new Uint8Array(capacity),
  };
}

/** The per-record arrays a report reads (`BiasColumns` without `session`, `time`, `queryCategory`, `positionIsDisplayOrder`). */
export type ReportRecordArrays = Omit<RecordArrays, 'session' | 'time' | 'queryCategory' | 'positionIsDisplayOrder'>;

/** Zeroed per-record arrays of a report read for `capacity` records (26 bytes each at the widest, 13 at the narrowest). */
export function allocateReportArrays(capacity: number, widths: RecordWidths = {}): ReportRecordArrays {
  const ids = widths.ids === 8 ? Uint8Array : Uint16Array;
  return {
    reviewer: new ids(capacity),
    candidate: new ids(capacity),
    position: countArray(widths.counts ?? 32, capacity),
    responseLengthChars: countArray(widths.counts ?? 32, capacity),
    score: widths.score === 32 ? new Float32Array(capacity) : new Float64Array(capacity),
    rankPosition: new Uint32Array(capacity),
    configVersion: new ids(capacity),
  };
}

/** The width of an id column whose entries are below `count` (`configVersion`'s: the config versions plus one). */
export function idWidth(count: number): 8 | 16 {
  return count <= 0x100 ? 8 : 16;
}

/** Bytes a record takes in the arrays `allocateReportArrays` (`report`) or `allocateRecordArrays` gives for `widths`. */
export function recordBytes(widths: RecordWidths, report: boolean): number {
  const { ids = 16, counts = 32, score = 64 } = widths;
  return (3 * ids + 2 * counts + score + 32) / 8 + (report ? 0 : 4 + 8 + 2 + 1);
}

function countArray(width: 8 | 16 | 32, length: number): BiasCountColumn {
  return width === 8 ? new Uint8Array(length) : width === 16 ? new Uint16Array(length) : new Uint32Array(length);
}

/**
 * `column` if it holds `max`, else a copy of it wide enough to (the input is then spent: the copy replaces it). A
 * reader that does not know its window's largest count starts narrow and widens as it meets one, once or twice.
 */
export function countColumnHolding(column: BiasCountColumn, max: number): BiasCountColumn {
  const width = max <= 0xff ? 8 : max <= 0xffff ? 16 : 32;
  if (width <= column.BYTES_PER_ELEMENT * 8) return column;
  const wider = countArray(width, column.length);
  wider.set(column);
  return wider;
}

/** Whether a 32-bit score column holds `score` exactly (NaN, "not scored", included). */
export const exactInFloat32 = (score: number): boolean => Math.fround(score) === score || Number.isNaN(score);

/** `column` as it is, or as a 64-bit copy where it is 32-bit and a score to come is not exact in 32 bits. */
export function scoreColumnHolding(column: BiasScoreColumn, exact: boolean): BiasScoreColumn {
  if (exact || column instanceof Float64Array) return column;
  return Float64Array.from(column);
}

/**
 * Moves record `i` of every array to `target[i]` (a negative target leaves it out), in place through one scratch
 * buffer viewed as each array's type in turn — a fraction of a second's copy — and returns the arrays cut to `length`.
 */
export function permuteRecordArrays(spec: {
  arrays: RecordArrays;
  target: Int32Array | Uint32Array;
  length: number;
  records: number;
}): RecordArrays {
  const { arrays, target, length, records: n } = spec;
  const scratchBuffer = new ArrayBuffer(length * 8); // one buffer, viewed as each column's type in turn
  const out = { ...arrays };
  for (const name of columnNames) {
    const column = arrays[name];
    const temp = new (column.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => typeof column)(
      scratchBuffer,
      0,
      length,
    );
    for (let i = 0; i < n; i++) if (target[i]! >= 0) temp[target[i]!] = column[i]!;
    column.set(temp);
    (out as Record<ColumnName, Columns[ColumnName]>)[name] = column.subarray(0, length);
  }
  return out;
}

/** What `finish` needs besides the records: the kept sessions, oldest first, and the interned names. */
export interface BiasColumnsLayout {
  /** Per builder session index: its place among the kept sessions, or -1 when it is left out. */
  place: Int32Array;
  sessionIds: readonly string[];
  sessionTime: Float64Array;
  models: readonly string[];
  configVersions: readonly string[];
  queryCategories: readonly string[];
}

/**
 * Collects records into one typed array per field. The arrays are sized up front from an upper bound of the
 * records to come (zero pages cost no memory until written), so they rarely grow; records of sessions that
 * leave the window are dropped in place; and when the records already lie session by session in window
 * order — a store written as councils ran — the finished columns are the same arrays, not a copy.
 */
export class BiasColumnsBuilder {
  private columns: Columns;
  private capacity: number;
  length = 0;

  constructor(capacityHint: number) {
    this.capacity = Math.max(1024, Math.ceil(capacityHint));
    this.columns = allocateRecordArrays(this.capacity);
  }

  add(row: BiasRow): void {
    if (this.length === this.capacity) this.grow();
    const c = this.columns;
    const i = this.length++;
    c.session[i] = row.session;
    c.reviewer[i] = row.reviewer;
    c.candidate[i] = row.candidate;
    c.position[i] = row.position;
    c.responseLengthChars[i] = row.responseLengthChars;
    c.score[i] = row.score;
    c.rankPosition[i] = row.rankPosition;
    c.time[i] = row.time;
    c.configVersion[i] = row.configVersion;
    c.queryCategory[i] = row.queryCategory;
    c.positionIsDisplayOrder[i] = row.positionIsDisplayOrder ? 1 : 0;
  }

  private grow(): void {
    let bigger: Columns;
    try {
      bigger = allocateRecordArrays(Math.ceil(this.capacity * 1.5));
    } catch (error) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `Not enough memory to hold more than ${this.length.toLocaleString('en-US')} records of the window; narrow it (fewer sessions or days, or fewer inputs).`,
        cause: error,
      });
    }
    for (const name of columnNames) bigger[name].set(this.columns[name].subarray(0, this.length));
    this.columns = bigger;
    this.capacity = bigger.session.length;
  }

  /** Keeps only the records whose session `keep` accepts, in order, compacted in place. */
  retain(keep: (session: number) => boolean): void {
    const c = this.columns;
    let w = 0;
    for (let i = 0; i < this.length; i++) {
      if (!keep(c.session[i]!)) continue;
      if (w !== i) for (const name of columnNames) c[name][w] = c[name][i]!;
      w++;
    }
    this.length = w;
  }

  /** The kept records as columns, grouped by session in `layout.place` order, each session's records in read order. */
  finish(layout: BiasColumnsLayout): BiasRecordColumns {
    const c = this.columns;
    const n = this.length;
    const sessions = layout.sessionIds.length;
    const sessionStart = new Uint32Array(sessions + 1);
    // Already in window order, session by session, with nothing left out: the columns are the arrays themselves.
    let inOrder = true;
    let previous = -1;
    for (let i = 0; i < n; i++) {
      const place = layout.place[c.session[i]!]!;
      if (place < 0) inOrder = false;
      else sessionStart[place + 1]!++;
      if (place !== previous) {
        if (place !== previous + 1) inOrder = false;
        previous = place;
      }
    }
    for (let s = 0; s < sessions; s++) sessionStart[s + 1]! += sessionStart[s]!;
    const length = sessionStart[sessions]!;
    let out: Columns;
    if (inOrder) {
      out = { ...c };
      for (const name of columnNames)
        (out as Record<ColumnName, Columns[ColumnName]>)[name] = c[name].subarray(0, length);
    } else {
      // Where each record goes (-1: left out), computed once and used for every column.
      const target = new Int32Array(n);
      const filled = sessionStart.slice(0, sessions);
      for (let i = 0; i < n; i++) {
        const place = layout.place[c.session[i]!]!;
        target[i] = place < 0 ? -1 : filled[place]!++;
      }
      out = permuteRecordArrays({ arrays: c, target, length, records: n });
    }
    for (let s = 0; s < sessions; s++) out.session.fill(s, sessionStart[s], sessionStart[s + 1]);
    this.columns = allocateRecordArrays(0);
    this.capacity = 0;
    this.length = 0;
    return {
      length,
      ...out,
      sessionIds: layout.sessionIds,
      sessionTime: layout.sessionTime,
      sessionStart,
      models: layout.models,
      configVersions: layout.configVersions,
      queryCategories: layout.queryCategories,
    };
  }
}
