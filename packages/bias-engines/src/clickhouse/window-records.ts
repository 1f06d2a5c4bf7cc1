import { BiasStoreError } from '@council/bias-store';
import { settleWindowRecords, byCodeUnits, checkWindowNames, allocateRecordArrays } from '@council/bias-store/internal';
import type { windowNameLimits, SettledWindowRecords, RecordArrays } from '@council/bias-store/internal';
import type { RowBinaryCursor } from './row-binary-stream.js';

/** Names by first meeting; more than the kind's limit is refused. */
class NameIds {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  constructor(private readonly what: keyof typeof windowNameLimits) {}

  of(name: string): number {
    let id = this.index.get(name);
    if (id === undefined) {
      id = this.names.length;
      checkWindowNames(id + 1, this.what);
      this.names.push(name);
      this.index.set(name, id);
    }
    return id;
  }

  /** The names `used` marks, sorted as JS sorts strings, and each name's new index by its old one. */
  sorted(used: Uint8Array): { names: string[]; index: Uint32Array } {
    const names = this.names.filter((_, i) => used[i] === 1).sort(byCodeUnits);
    const index = new Uint32Array(this.names.length);
    for (const [i, name] of names.entries()) index[this.index.get(name)!] = i;
    return { names, index };
  }
}

/**
 * The window's records as the reader's columns, filled one session at a time from the records query's rows
 * (`clickhouseSessionRecordsSql`, which arrive in any order): each session's records go to its place — sessions
 * oldest first, as the window query ranked them — so the columns are allocated once, for the records the window
 * query counted. `finish` drops repeats with the reader's code and names models, config versions and categories
 * in JS's string order.
 */
export class WindowRecords {
  private readonly sessionIds: readonly string[];
  private readonly sessionTime: Float64Array;
  private readonly start: Uint32Array;
  private readonly placeOf = new Map<string, number>();
  private readonly filled: Uint8Array;
  private readonly models = new NameIds('models');
  private readonly configVersions = new NameIds('config versions');
  private readonly queryCategories = new NameIds('query categories');
  /** The records' arrays, each session's at its place. */
  private readonly records: RecordArrays;

  /** `sessionRecords`: each session's records in the window, repeats included (the rows its query returns). */
  constructor(sessions: {
    sessionIds: readonly string[];
    sessionTime: Float64Array;
    sessionRecords: readonly number[];
  }) {
    this.sessionIds = sessions.sessionIds;
    this.sessionTime = sessions.sessionTime;
    const count = this.sessionIds.length;
    this.start = new Uint32Array(count + 1);
    for (let s = 0; s < count; s++) {
      this.start[s + 1] = this.start[s]! + sessions.sessionRecords[s]!;
      this.placeOf.set(this.sessionIds[s]!, s);
    }
    this.filled = new Uint8Array(count);
    this.records = allocateRecordArrays(this.start[count]!);
  }

  /** Reads one row of the records query (every value first: a row cut short by the chunk changes nothing) and places it. */
  addSession(cursor: RowBinaryCursor): void {
    const id = cursor.string();
    const models = cursor.strings();
    const reviewer = cursor.fixedArray(2);
    const n = cursor.count;
    const sameLength = (at: number): number => {
      if (cursor.count !== n)
        throw new Error(
          `clickhouse/window-records.ts: a row of session ${JSON.stringify(id)} has arrays of ${n} and ${cursor.count} values (a bug: report it).`,
        );
      return at;
    };
    const candidate = sameLength(cursor.fixedArray(2));
    const position = sameLength(cursor.fixedArray(4));
    const length = sameLength(cursor.fixedArray(4));
    const score = sameLength(cursor.fixedArray(8));
    const rank = sameLength(cursor.fixedArray(4));
    const time = sameLength(cursor.fixedArray(8));
    const configNames = cursor.strings();
    const config = sameLength(cursor.fixedArray(2));
    const categoryNames = cursor.strings();
    const category = sameLength(cursor.fixedArray(2));
    const pido = sameLength(cursor.fixedArray(1));

    const place = this.placeOf.get(id);
    const expected = place === undefined ? 0 : this.start[place + 1]! - this.start[place]!;
    if (place === undefined || this.filled[place] === 1 || n !== expected) {
      throw tableChanged(
        `session ${JSON.stringify(id)} ${place === undefined ? 'was not in the window' : this.filled[place] === 1 ? 'came twice' : `had ${expected} records in the window, then ${n}`}`,
      );
    }
    this.filled[place] = 1;
    const at = this.start[place]!;
    const modelIds = models.map((name) => this.models.of(name));
    const configIds = configNames.map((name) => this.configVersions.of(name) + 1);
    const categoryIds = categoryNames.map((name) => this.queryCategories.of(name) + 1);
    // Value by value through a DataView (little-endian, as RowBinary): far cheaper than a Buffer copy per array.
    const { view } = cursor;
    const r = this.records;
    for (let i = 0; i < n; i++) {
      const j = at + i;
      r.session[j] = place;
      r.reviewer[j] = modelIds[view.getUint16(reviewer + 2 * i, true)]!;
      r.candidate[j] = modelIds[view.getUint16(candidate + 2 * i, true)]!;
      r.position[j] = view.getUint32(position + 4 * i, true);
      r.responseLengthChars[j] = view.getUint32(length + 4 * i, true);
      r.score[j] = view.getFloat64(score + 8 * i, true);
      r.rankPosition[j] = view.getUint32(rank + 4 * i, true);
      r.time[j] = view.getFloat64(time + 8 * i, true);
      const c = view.getUint16(config + 2 * i, true);
      r.configVersion[j] = c === 0 ? 0 : configIds[c - 1]!;
      const q = view.getUint16(category + 2 * i, true);
      r.queryCategory[j] = q === 0 ? 0 : categoryIds[q - 1]!;
      r.positionIsDisplayOrder[j] = view.getUint8(pido + i);
    }
  }

  /** The columns once every session has come, settled as the reader settles its own (repeats dropped), names sorted. */
  finish(): SettledWindowRecords {
    const missing = this.filled.indexOf(0);
    if (missing !== -1)
      throw tableChanged(`session ${JSON.stringify(this.sessionIds[missing])} had records in the window, then none`);
    const settled = settleWindowRecords(
      {
        length: this.records.session.length,
        ...this.records,
        sessionIds: this.sessionIds,
        sessionTime: this.sessionTime,
        sessionStart: this.start,
        models: this.models.names,
        configVersions: this.configVersions.names,
        queryCategories: this.queryCategories.names,
      },
      0,
    );
    const { columns } = settled;
    const { length, reviewer, candidate, configVersion, queryCategory } = columns;
    const usedModels = new Uint8Array(this.models.names.length);
    const usedConfigs = new Uint8Array(this.configVersions.names.length + 1);
    const usedCategories = new Uint8Array(this.queryCategories.names.length + 1);
    for (let i = 0; i < length; i++) {
      usedModels[reviewer[i]!] = 1;
      usedModels[candidate[i]!] = 1;
      usedConfigs[configVersion[i]!] = 1;
      usedCategories[queryCategory[i]!] = 1;
    }
    const models = this.models.sorted(usedModels);
    const configs = this.configVersions.sorted(usedConfigs.subarray(1));
    const categories = this.queryCategories.sorted(usedCategories.subarray(1));
    for (let i = 0; i < length; i++) {
      reviewer[i] = models.index[reviewer[i]!]!;
      candidate[i] = models.index[candidate[i]!]!;
      if (configVersion[i] !== 0) configVersion[i] = configs.index[configVersion[i]! - 1]! + 1;
      if (queryCategory[i] !== 0) queryCategory[i] = categories.index[queryCategory[i]! - 1]! + 1;
    }
    return {
      ...settled,
      columns: { ...columns, models: models.names, configVersions: configs.names, queryCategories: categories.names },
    };
  }
}

function tableChanged(what: string): BiasStoreError {
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `The ClickHouse table changed while the report read it (${what}): was a load running? Run the report again once it has finished.`,
  });
}
