import type { BiasRecordColumns } from './bias-record-columns.js';

/** Records met twice for one (session, reviewer, reviewed member); each is counted once. */
export interface RepeatedRecords {
  /** Copies identical to a record already read (the same store given twice, or a store merged into another). */
  duplicates: number;
  /** Records that differ from the first one read for the same session, reviewer and reviewed member; the first was kept. */
  conflicts: number;
  /** The first few sessions with a conflict. */
  conflictSessions: string[];
}

function sameRecord(c: BiasRecordColumns, a: number, b: number): boolean {
  return (
    c.position[a] === c.position[b] &&
    c.responseLengthChars[a] === c.responseLengthChars[b] &&
    Object.is(c.score[a], c.score[b]) &&
    c.rankPosition[a] === c.rankPosition[b] &&
    c.time[a] === c.time[b] &&
    c.configVersion[a] === c.configVersion[b] &&
    c.queryCategory[a] === c.queryCategory[b] &&
    c.positionIsDisplayOrder[a] === c.positionIsDisplayOrder[b]
  );
}

/**
 * Keeps the first record of each (session, reviewer, reviewed member) and counts the others: identical
 * ones as duplicates, different ones as conflicts. The columns are compacted in place.
 */
export function dropRepeatedRecords(columns: BiasRecordColumns): {
  columns: BiasRecordColumns;
  repeated: RepeatedRecords;
} {
  const repeated: RepeatedRecords = { duplicates: 0, conflicts: 0, conflictSessions: [] };
  const { reviewer, candidate, sessionStart } = columns;
  const sessions = columns.sessionIds.length;
  let drop: Uint8Array | null = null;
  const firstOf = new Map<number, number>();
  for (let s = 0; s < sessions; s++) {
    const from = sessionStart[s]!;
    const to = sessionStart[s + 1]!;
    const small = to - from <= 64;
    if (!small) firstOf.clear();
    for (let i = from; i < to; i++) {
      let first = -1;
      if (small) {
        for (let j = from; j < i; j++) {
          if (reviewer[j] === reviewer[i] && candidate[j] === candidate[i] && (drop === null || drop[j] === 0)) {
            first = j;
            break;
          }
        }
      } else {
        const key = reviewer[i]! * 65_536 + candidate[i]!;
        first = firstOf.get(key) ?? -1;
        if (first === -1) firstOf.set(key, i);
      }
      if (first === -1) continue;
      drop ??= new Uint8Array(columns.length);
      drop[i] = 1;
      if (sameRecord(columns, first, i)) {
        repeated.duplicates++;
      } else {
        repeated.conflicts++;
        const id = columns.sessionIds[s]!;
        if (repeated.conflictSessions.length < 5 && repeated.conflictSessions.at(-1) !== id)
          repeated.conflictSessions.push(id);
      }
    }
  }
  if (drop === null) return { columns, repeated };

  const starts = new Uint32Array(sessions + 1);
  let kept = 0;
  for (let s = 0; s < sessions; s++) {
    starts[s] = kept;
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) if (drop[i] === 0) kept++;
  }
  starts[sessions] = kept;
  const pack = <A extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(values: A): A => {
    let w = 0;
    for (let i = 0; i < values.length; i++) if (drop[i] === 0) values[w++] = values[i]!;
    return values.subarray(0, w) as A;
  };
  return {
    columns: {
      ...columns,
      length: kept,
      session: pack(columns.session),
      reviewer: pack(columns.reviewer),
      candidate: pack(columns.candidate),
      position: pack(columns.position),
      responseLengthChars: pack(columns.responseLengthChars),
      score: pack(columns.score),
      rankPosition: pack(columns.rankPosition),
      time: pack(columns.time),
      configVersion: pack(columns.configVersion),
      queryCategory: pack(columns.queryCategory),
      positionIsDisplayOrder: pack(columns.positionIsDisplayOrder),
      sessionStart: starts,
    },
    repeated,
  };
}
