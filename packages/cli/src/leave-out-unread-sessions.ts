import { noRank } from '@council/bias-audit';
import type { BiasColumns, BiasIdColumn } from '@council/bias-audit';

/** Sessions of a window that hold no judgement: every record has neither a score nor a rank. */
export interface UnreadSessions {
  /** How many sessions were left out. */
  sessions: number;
  /** Their records, left out with them. */
  records: number;
  /** Their ids, oldest first. */
  sessionIds: string[];
}

/**
 * Leaves out of a window the sessions none of whose reviews could be read. Such a session's records are how a
 * review that gave no ranking was recorded before Council stopped writing them (`observationsFromSession`: one
 * record per answer shown, `score_value` null and `rank_position` null, since the text parser found neither): they
 * measure nothing, yet a report would count the session, and over sessions like these alone say "No bias flag
 * raised". A session with one score or one rank is kept whole. Returns the columns unchanged when nothing is left
 * out; otherwise a copy without those sessions, whose lists of models, config versions and query categories keep
 * only the entries still used (in their order), as a reader of a store without those sessions would give them.
 */
export function leaveOutUnreadSessions(columns: BiasColumns): { columns: BiasColumns; unread: UnreadSessions } {
  const { score, rankPosition, sessionStart } = columns;
  const sessionCount = columns.sessionIds.length;
  const unreadIds: string[] = [];
  let unreadRecords = 0;
  const keep = new Uint8Array(sessionCount);
  for (let s = 0; s < sessionCount; s++) {
    const from = sessionStart[s]!;
    const to = sessionStart[s + 1]!;
    let judged = to === from;
    for (let i = from; i < to && !judged; i++) judged = !Number.isNaN(score[i]!) || rankPosition[i] !== noRank;
    if (judged) {
      keep[s] = 1;
    } else {
      unreadIds.push(columns.sessionIds[s]!);
      unreadRecords += to - from;
    }
  }
  const unread: UnreadSessions = { sessions: unreadIds.length, records: unreadRecords, sessionIds: unreadIds };
  if (unreadIds.length === 0) return { columns, unread };

  const length = columns.length - unreadRecords;
  const keptSessions = sessionCount - unreadIds.length;
  const sessionIds: string[] = [];
  const sessionTime = new Float64Array(keptSessions);
  const starts = new Uint32Array(keptSessions + 1);
  // Each kept column as wide as the reader made it.
  const copy = <A extends Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array>(values: A): A => {
    const out = new (values.constructor as new (n: number) => A)(length);
    let w = 0;
    for (let s = 0; s < sessionCount; s++) {
      if (keep[s] === 0) continue;
      const part = values.subarray(sessionStart[s], sessionStart[s + 1]);
      out.set(part, w);
      w += part.length;
    }
    return out;
  };
  const session = columns.session === undefined ? undefined : new Uint32Array(length);
  let k = 0;
  for (let s = 0; s < sessionCount; s++) {
    if (keep[s] === 0) continue;
    sessionIds.push(columns.sessionIds[s]!);
    sessionTime[k] = columns.sessionTime[s]!;
    starts[k + 1] = starts[k]! + (sessionStart[s + 1]! - sessionStart[s]!);
    session?.fill(k, starts[k], starts[k + 1]);
    k++;
  }
  const reviewer = copy(columns.reviewer);
  const candidate = copy(columns.candidate);
  const configVersion = copy(columns.configVersion);
  const models = keepUsed(columns.models, [reviewer, candidate], 0);
  const configVersions = keepUsed(columns.configVersions, [configVersion], 1);
  // Columns without the per-record query category (an engine's report read) keep the window's list as it was: nothing
  // then reads it (the statistics never do).
  const queryCategory = columns.queryCategory === undefined ? undefined : copy(columns.queryCategory);
  const queryCategories =
    queryCategory === undefined ? columns.queryCategories : keepUsed(columns.queryCategories, [queryCategory], 1);
  const { time, positionIsDisplayOrder } = columns;
  return {
    columns: {
      length,
      reviewer,
      candidate,
      position: copy(columns.position),
      responseLengthChars: copy(columns.responseLengthChars),
      score: copy(columns.score),
      rankPosition: copy(columns.rankPosition),
      configVersion,
      ...(session === undefined ? {} : { session }),
      ...(time === undefined ? {} : { time: copy(time) }),
      ...(queryCategory === undefined ? {} : { queryCategory }),
      ...(positionIsDisplayOrder === undefined ? {} : { positionIsDisplayOrder: copy(positionIsDisplayOrder) }),
      sessionIds,
      sessionTime,
      sessionStart: starts,
      models,
      configVersions,
      queryCategories,
    },
    unread,
  };
}

/**
 * The entries of `names` that `indices` still use, in their order; rewrites `indices` in place to the new positions.
 * `offset` is 1 for columns where 0 means none and `n` means `names[n - 1]`.
 */
function keepUsed(names: readonly string[], indices: readonly BiasIdColumn[], offset: 0 | 1): string[] {
  const used = new Uint8Array(names.length);
  for (const column of indices) for (const index of column) if (index >= offset) used[index - offset] = 1;
  const to = new Uint16Array(names.length);
  const kept: string[] = [];
  names.forEach((name, i) => {
    if (used[i] === 0) return;
    to[i] = kept.length;
    kept.push(name);
  });
  for (const column of indices) {
    for (let i = 0; i < column.length; i++) if (column[i]! >= offset) column[i] = to[column[i]! - offset]! + offset;
  }
  return kept;
}

/** One sentence for the reports: `2 sessions left out: no review could be read (ids a, b).` (at most ten ids, then how many more). */
export function describeUnreadSessions(unread: UnreadSessions): string {
  const shown = unread.sessionIds.slice(0, 10).join(', ');
  const more = unread.sessionIds.length > 10 ? `, and ${unread.sessionIds.length - 10} more` : '';
  return `${unread.sessions} session${unread.sessions === 1 ? '' : 's'} left out: no review could be read (ids ${shown}${more}).`;
}
