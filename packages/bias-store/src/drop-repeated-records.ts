import type { BiasColumns } from '@council/bias-audit';
import type { BiasRecordColumns } from './bias-record-columns.js';
import { packKeptRecords } from './pack-kept-records.js';

/** Records met twice for one (session, reviewer, reviewed member); each is counted once. */
export interface RepeatedRecords {
  /** Copies identical to a record already read (the same store given twice, or a store merged into another). */
  duplicates: number;
  /** Records that differ from the first one read for the same session, reviewer and reviewed member; the first was kept. */
  conflicts: number;
  /** The first few sessions with a conflict. */
  conflictSessions: string[];
}

/**
 * What a report read leaves out of its columns (`time`, `queryCategory`, `positionIsDisplayOrder`) but the repeats
 * still need: those fields of the records of the sessions that hold a repeat (`sessionsWithRepeats`), since two
 * records are duplicates only when every field agrees, and how many of the window's records are not in display order.
 */
export interface OmittedRecordFields {
  /**
   * Per session of the window: where its records start in the arrays below, or -1 for a session without repeats
   * (`dropRepeatedRecords` then searches only the others).
   */
  sessionOffset: Int32Array;
  time: Float64Array;
  queryCategory: Uint16Array;
  positionIsDisplayOrder: Uint8Array;
  /** The window's records, repeats included, whose `positionIsDisplayOrder` is 0. */
  positionNotDisplayOrder: number;
}

/** The fields `sameRecord` compares beyond the lean columns, and where record `i` of session `s` has them. */
interface RecordFields {
  time: Float64Array;
  queryCategory: Uint16Array;
  positionIsDisplayOrder: Uint8Array;
  at(s: number, i: number): number;
}

function recordFields(columns: BiasColumns, omitted: OmittedRecordFields | undefined): RecordFields {
  if (omitted !== undefined) {
    const { sessionOffset, time, queryCategory, positionIsDisplayOrder } = omitted;
    const { sessionStart } = columns;
    return {
      time,
      queryCategory,
      positionIsDisplayOrder,
      at: (s, i) => {
        if (sessionOffset[s]! < 0)
          throw new Error(
            `drop-repeated-records.ts: session ${columns.sessionIds[s]} has a repeat but its omitted fields were not read (a bug: report it with the inputs).`,
          );
        return sessionOffset[s]! + i - sessionStart[s]!;
      },
    };
  }
  const { time, queryCategory, positionIsDisplayOrder } = columns;
  if (time === undefined || queryCategory === undefined || positionIsDisplayOrder === undefined)
    throw new Error(
      'drop-repeated-records.ts: columns without time, queryCategory or positionIsDisplayOrder need them given apart.',
    );
  return { time, queryCategory, positionIsDisplayOrder, at: (_s, i) => i };
}

/** Whether records `a` and `b` of session `s` agree in every field (`f`: where the fields beyond `c`'s are). */
function sameRecord(c: BiasColumns, f: RecordFields, [s, a, b]: readonly [number, number, number]): boolean {
  const fa = f.at(s, a);
  const fb = f.at(s, b);
  return (
    c.position[a] === c.position[b] &&
    c.responseLengthChars[a] === c.responseLengthChars[b] &&
    Object.is(c.score[a], c.score[b]) &&
    c.rankPosition[a] === c.rankPosition[b] &&
    f.time[fa] === f.time[fb] &&
    c.configVersion[a] === c.configVersion[b] &&
    f.queryCategory[fa] === f.queryCategory[fb] &&
    f.positionIsDisplayOrder[fa] === f.positionIsDisplayOrder[fb]
  );
}

/** What tells a repeat: who reviewed whom, session by session. */
type RepeatColumns = Pick<BiasColumns, 'reviewer' | 'candidate' | 'sessionStart'>;

/**
 * The first record of a repeat in each session: record `i` repeats an earlier record `first` of its session with the
 * same reviewer and reviewed member. `visit` is called for every repeat, session by session, in read order. The sessions
 * are those below `scope.sessions`, but for those `scope.only` marks -1 (known to hold no repeat).
 */
function forEachRepeat(
  columns: RepeatColumns,
  scope: { sessions: number; only?: Int32Array },
  visit: (s: number, first: number, i: number) => void,
): void {
  const { reviewer, candidate, sessionStart } = columns;
  const { sessions, only } = scope;
  const firstOf = new Map<number, number>();
  for (let s = 0; s < sessions; s++) {
    if (only !== undefined && only[s]! < 0) continue;
    const from = sessionStart[s]!;
    const to = sessionStart[s + 1]!;
    const small = to - from <= 64;
    if (!small) firstOf.clear();
    for (let i = from; i < to; i++) {
      let first = -1;
      if (small) {
        // The first earlier record of the pair; a repeat is never the first (it has an earlier record of its pair).
        for (let j = from; j < i; j++) {
          if (reviewer[j] === reviewer[i] && candidate[j] === candidate[i]) {
            first = j;
            break;
          }
        }
      } else {
        const key = reviewer[i]! * 65_536 + candidate[i]!;
        first = firstOf.get(key) ?? -1;
        if (first === -1) firstOf.set(key, i);
      }
      if (first !== -1) visit(s, first, i);
    }
  }
}

/** The sessions (indices below `sessions`, ascending) with two records of one reviewer and reviewed member. */
export function sessionsWithRepeats(columns: RepeatColumns, sessions: number): number[] {
  const found: number[] = [];
  forEachRepeat(columns, { sessions }, (s) => {
    if (found.at(-1) !== s) found.push(s);
  });
  return found;
}

/**
 * Keeps the first record of each (session, reviewer, reviewed member) and counts the others: identical
 * ones as duplicates, different ones as conflicts. The columns are compacted in place. Columns without `time`,
 * `queryCategory` or `positionIsDisplayOrder` (a report read's) come with those fields of their sessions with repeats
 * (`omitted`); `droppedNotDisplayOrder` counts the records dropped whose `positionIsDisplayOrder` is 0.
 */
export function dropRepeatedRecords<C extends BiasColumns = BiasRecordColumns>(
  columns: C,
  omitted?: OmittedRecordFields,
): {
  columns: C;
  repeated: RepeatedRecords;
  droppedNotDisplayOrder: number;
} {
  const repeated: RepeatedRecords = { duplicates: 0, conflicts: 0, conflictSessions: [] };
  const { sessionStart } = columns;
  const sessions = columns.sessionIds.length;
  let drop: Uint8Array | null = null;
  let droppedNotDisplayOrder = 0;
  let fields: RecordFields | undefined;
  // A report read found its sessions with repeats (sessionsWithRepeats) and read their omitted fields: only those are
  // searched again.
  const scope = omitted === undefined ? { sessions } : { sessions, only: omitted.sessionOffset };
  forEachRepeat(columns, scope, (s, first, i) => {
    fields ??= recordFields(columns, omitted);
    drop ??= new Uint8Array(columns.length);
    drop[i] = 1;
    if (fields.positionIsDisplayOrder[fields.at(s, i)] === 0) droppedNotDisplayOrder++;
    if (sameRecord(columns, fields, [s, first, i])) {
      repeated.duplicates++;
    } else {
      repeated.conflicts++;
      const id = columns.sessionIds[s]!;
      if (repeated.conflictSessions.length < 5 && repeated.conflictSessions.at(-1) !== id)
        repeated.conflictSessions.push(id);
    }
  });
  if (drop === null) return { columns, repeated, droppedNotDisplayOrder };
  const dropped: Uint8Array = drop;

  const starts = new Uint32Array(sessions + 1);
  let kept = 0;
  for (let s = 0; s < sessions; s++) {
    starts[s] = kept;
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) if (dropped[i] === 0) kept++;
  }
  starts[sessions] = kept;
  const packed = packKeptRecords(columns, dropped, kept);
  packed.sessionStart = starts;
  return { columns: packed as C, repeated, droppedNotDisplayOrder };
}
