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
  reviewer: Uint16Array;
  candidate: Uint16Array;
  position: Uint32Array;
  responseLengthChars: Uint32Array;
  score: Float64Array;
  rankPosition: Uint32Array;
  time: Float64Array;
  configVersion: Uint16Array;
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

/** Zeroed per-record arrays for `capacity` records (41 bytes each): a report read's, and the four only other readers use. */
export function allocateRecordArrays(capacity: number): RecordArrays {
  return {
    ...allocateReportArrays(capacity),
    session: new Uint32Array(capacity),
    time: new Float64Array(capacity),
    queryCategory: new Uint16Array(capacity),
    positionIsDisplayOrder: new Uint8Array(capacity),
  };
}

/** The per-record arrays a report reads (`BiasColumns` without `session`, `time`, `queryCategory`, `positionIsDisplayOrder`). */
export type ReportRecordArrays = Omit<RecordArrays, 'session' | 'time' | 'queryCategory' | 'positionIsDisplayOrder'>;

/** Zeroed per-record arrays of a report read for `capacity` records (26 bytes each). */
export function allocateReportArrays(capacity: number): ReportRecordArrays {
  return {
    reviewer: new Uint16Array(capacity),
    candidate: new Uint16Array(capacity),
    position: new Uint32Array(capacity),
    responseLengthChars: new Uint32Array(capacity),
    score: new Float64Array(capacity),
    rankPosition: new Uint32Array(capacity),
    configVersion: new Uint16Array(capacity),
  };
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
  const scratch = {
    u8: new Uint8Array(scratchBuffer, 0, length),
    u16: new Uint16Array(scratchBuffer, 0, length),
    u32: new Uint32Array(scratchBuffer, 0, length),
    f64: new Float64Array(scratchBuffer, 0, length),
  };
  const out = { ...arrays };
  for (const name of columnNames) {
    const column = arrays[name];
    const temp =
      column instanceof Float64Array
        ? scratch.f64
        : column instanceof Uint32Array
          ? scratch.u32
          : column instanceof Uint16Array
            ? scratch.u16
            : scratch.u8;
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
