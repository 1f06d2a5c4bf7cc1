import type { BiasColumns } from '@council/bias-audit';
import { noRank } from './bias-record-columns.js';
import { biasField } from './bias-record-fields.js';
import { packKeptRecords } from './pack-kept-records.js';

/** The rank's key as a line spells it, for the skip report. */
const rankKey = biasField('rankPosition').key;

/** A record of the window whose rank (`rankPosition`) is not a place in its reviewer's ranking of that session. */
export interface OutOfRangeRank {
  sessionId: string;
  reviewerId: string;
  modelId: string;
  rank: number;
  /** The skip report's detail: the rank, how many answers the reviewer ranked in the session, the ranks allowed. */
  detail: string;
}

/** The window's out-of-range ranks: how many, and the first few (window order) for the skip report to place. */
export interface OutOfRangeRanks {
  count: number;
  /** The first `firstOutOfRangeRanks` of them, sessions oldest first, each session's in record order. */
  first: OutOfRangeRank[];
}

/** As many as the skip report shows with their file and line (`SkipCounter` keeps the first 20 bad lines). */
export const firstOutOfRangeRanks = 20;

/**
 * Drops the records whose rank cannot be a place in their reviewer's ranking of the session: with `k` ranked records of
 * one reviewer in one session (repeats already dropped), ranks are 0-based, 0 to k − 1, so a rank of k or more is out of
 * range — the record is invalid, like a record with a bad field, and leaves the window whole (its score too). The
 * reviewer's other records stay, as a ranking of the answers left, as any ranking with a missing line is read; should
 * one of their ranks then be out of range of that smaller ranking, it is dropped in turn, until every rank left is a
 * place among the ranks left. A reviewer with one ranked record in a session is not judged: one rank places nothing
 * (no statistic reads it), and a window by model keeps just the record about that model of every other reviewer's
 * ranking. A session left without records leaves the columns. The columns are compacted in place.
 */
export function dropOutOfRangeRanks<C extends BiasColumns>(
  columns: C,
): {
  columns: C;
  outOfRange: OutOfRangeRanks;
} {
  const outOfRange: OutOfRangeRanks = { count: 0, first: [] };
  const { reviewer, rankPosition: ranks, sessionStart } = columns;
  const sessions = columns.sessionIds.length;
  // Ranked records per reviewer in the session at hand (reset record by record after each session).
  const ranked = new Uint32Array(columns.models.length);
  let drop: Uint8Array | null = null;
  for (let s = 0; s < sessions; s++) {
    const from = sessionStart[s]!;
    const to = sessionStart[s + 1]!;
    for (let i = from; i < to; i++) if (ranks[i] !== noRank) ranked[reviewer[i]!]!++;
    let clean = true;
    for (let i = from; i < to && clean; i++) {
      const k = ranked[reviewer[i]!]!;
      if (k >= 2 && ranks[i] !== noRank && ranks[i]! >= k) clean = false;
    }
    if (!clean) {
      drop ??= new Uint8Array(columns.length);
      judgeSession(columns, { from, to, s, ranked, drop, outOfRange });
    }
    for (let i = from; i < to; i++) ranked[reviewer[i]!] = 0;
  }
  if (drop === null) return { columns, outOfRange };
  return { columns: keepRecords(columns, drop), outOfRange };
}

/**
 * The slow path, for a session with an out-of-range rank (rare): drops such ranks, counts each reviewer's ranks again
 * without them, and goes on until none is left. `ranked` holds the session's counts on entry.
 */
function judgeSession(
  columns: BiasColumns,
  at: { from: number; to: number; s: number; ranked: Uint32Array; drop: Uint8Array; outOfRange: OutOfRangeRanks },
): void {
  const { reviewer, candidate, rankPosition: ranks, models } = columns;
  const { from, to, ranked, drop, outOfRange } = at;
  const sessionId = columns.sessionIds[at.s]!;
  for (let round = 0; ; round++) {
    const dropped: number[] = [];
    for (let i = from; i < to; i++) {
      if (drop[i] === 1 || ranks[i] === noRank) continue;
      const k = ranked[reviewer[i]!]!;
      if (k < 2 || ranks[i]! < k) continue;
      dropped.push(i);
      outOfRange.count++;
      if (outOfRange.first.length < firstOutOfRangeRanks) {
        const setAside = round === 0 ? '' : ' once its out-of-range ranks are set aside';
        outOfRange.first.push({
          sessionId,
          reviewerId: models[reviewer[i]!]!,
          modelId: models[candidate[i]!]!,
          rank: ranks[i]!,
          detail: `${rankKey} ${ranks[i]!} but the reviewer ranked ${k} answers in session ${sessionId}${setAside}: ranks are 0-based, 0–${k - 1}`,
        });
      }
    }
    if (dropped.length === 0) return;
    for (const i of dropped) drop[i] = 1;
    for (const i of dropped) ranked[reviewer[i]!]!--;
  }
}

/** The records `drop` leaves, compacted in place; sessions left without records leave too. */
function keepRecords<C extends BiasColumns>(columns: C, drop: Uint8Array): C {
  const { sessionStart } = columns;
  const sessions = columns.sessionIds.length;
  const starts: number[] = [0];
  const keptSessions: number[] = [];
  let kept = 0;
  for (let s = 0; s < sessions; s++) {
    let n = 0;
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) if (drop[i] === 0) n++;
    if (n === 0) continue;
    keptSessions.push(s);
    kept += n;
    starts.push(kept);
  }
  const packed = packKeptRecords(columns, drop, kept);
  packed.sessionStart = Uint32Array.from(starts);
  if (keptSessions.length === sessions) return packed as C;
  // A session left empty: the others are numbered again, in the same order.
  const newIndex = new Int32Array(sessions).fill(-1);
  keptSessions.forEach((s, n) => (newIndex[s] = n));
  packed.sessionIds = keptSessions.map((s) => columns.sessionIds[s]!);
  packed.sessionTime = Float64Array.from(keptSessions, (s) => columns.sessionTime[s]!);
  const session = packed.session;
  if (session !== undefined) for (let i = 0; i < session.length; i++) session[i] = newIndex[session[i]!]!;
  return packed as C;
}
