import type { BiasRecordColumns } from './bias-record-columns.js';

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

const chunkSize = 1 << 16;

class Chunk {
  length = 0;
  session = new Uint32Array(chunkSize);
  reviewer = new Uint16Array(chunkSize);
  candidate = new Uint16Array(chunkSize);
  position = new Uint32Array(chunkSize);
  responseLengthChars = new Uint32Array(chunkSize);
  score = new Float64Array(chunkSize);
  rankPosition = new Uint32Array(chunkSize);
  time = new Float64Array(chunkSize);
  configVersion = new Uint16Array(chunkSize);
  queryCategory = new Uint16Array(chunkSize);
  positionIsDisplayOrder = new Uint8Array(chunkSize);
}

type ColumnName = Exclude<keyof Chunk, 'length'>;
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
 * Collects records into fixed-size chunks of typed arrays (no array ever doubles and copies), drops the
 * records of sessions that leave the window, and finally lays the kept records out session by session.
 */
export class BiasColumnsBuilder {
  private chunks: Chunk[] = [];
  private tail: Chunk | null = null;

  get length(): number {
    let n = 0;
    for (const chunk of this.chunks) n += chunk.length;
    return n;
  }

  add(row: BiasRow): void {
    let chunk = this.tail;
    if (chunk === null || chunk.length === chunkSize) {
      chunk = new Chunk();
      this.chunks.push(chunk);
      this.tail = chunk;
    }
    const i = chunk.length++;
    chunk.session[i] = row.session;
    chunk.reviewer[i] = row.reviewer;
    chunk.candidate[i] = row.candidate;
    chunk.position[i] = row.position;
    chunk.responseLengthChars[i] = row.responseLengthChars;
    chunk.score[i] = row.score;
    chunk.rankPosition[i] = row.rankPosition;
    chunk.time[i] = row.time;
    chunk.configVersion[i] = row.configVersion;
    chunk.queryCategory[i] = row.queryCategory;
    chunk.positionIsDisplayOrder[i] = row.positionIsDisplayOrder ? 1 : 0;
  }

  /** Keeps only the records whose session `keep` accepts, in order, packed into as few chunks as they need. */
  retain(keep: (session: number) => boolean): void {
    let out: Chunk | null = null;
    const packed: Chunk[] = [];
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length; i++) {
        if (!keep(chunk.session[i]!)) continue;
        if (out === null || out.length === chunkSize) {
          out = new Chunk();
          packed.push(out);
        }
        const j = out.length++;
        for (const name of columnNames) out[name][j] = chunk[name][i]!;
      }
    }
    this.chunks = packed;
    this.tail = out;
  }

  /** The kept records as columns, grouped by session in `layout.place` order, each session's records in read order. */
  finish(layout: BiasColumnsLayout): BiasRecordColumns {
    const sessions = layout.sessionIds.length;
    const sessionStart = new Uint32Array(sessions + 1);
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length; i++) {
        const place = layout.place[chunk.session[i]!]!;
        if (place >= 0) sessionStart[place + 1]!++;
      }
    }
    for (let s = 0; s < sessions; s++) sessionStart[s + 1]! += sessionStart[s]!;
    const length = sessionStart[sessions]!;
    // Where each record goes (-1: left out), computed once and used for every column.
    const target = new Int32Array(this.length);
    const filled = sessionStart.slice(0, sessions);
    let k = 0;
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.length; i++, k++) {
        const place = layout.place[chunk.session[i]!]!;
        target[k] = place >= 0 ? filled[place]!++ : -1;
      }
    }
    const column = <A extends Chunk[ColumnName]>(name: ColumnName, make: (n: number) => A): A => {
      const values = make(length);
      let at = 0;
      for (const chunk of this.chunks) {
        const source = chunk[name];
        for (let i = 0; i < chunk.length; i++, at++) {
          const to = target[at]!;
          if (to >= 0) values[to] = source[i]!;
        }
        // Free each source column once copied, so the peak is the chunks plus one column, not twice the data.
        (chunk as Record<ColumnName, Chunk[ColumnName]>)[name] = make(0);
      }
      return values;
    };
    const session = new Uint32Array(length);
    for (let s = 0; s < sessions; s++) session.fill(s, sessionStart[s], sessionStart[s + 1]);
    const columns: BiasRecordColumns = {
      length,
      session,
      reviewer: column('reviewer', (n) => new Uint16Array(n)),
      candidate: column('candidate', (n) => new Uint16Array(n)),
      position: column('position', (n) => new Uint32Array(n)),
      responseLengthChars: column('responseLengthChars', (n) => new Uint32Array(n)),
      score: column('score', (n) => new Float64Array(n)),
      rankPosition: column('rankPosition', (n) => new Uint32Array(n)),
      time: column('time', (n) => new Float64Array(n)),
      configVersion: column('configVersion', (n) => new Uint16Array(n)),
      queryCategory: column('queryCategory', (n) => new Uint16Array(n)),
      positionIsDisplayOrder: column('positionIsDisplayOrder', (n) => new Uint8Array(n)),
      sessionIds: layout.sessionIds,
      sessionTime: layout.sessionTime,
      sessionStart,
      models: layout.models,
      configVersions: layout.configVersions,
      queryCategories: layout.queryCategories,
    };
    this.chunks = [];
    this.tail = null;
    return columns;
  }
}
