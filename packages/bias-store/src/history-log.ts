import type { PreparedAppend } from './jsonl-store.js';
import { appendPrepared } from './jsonl-store.js';
import { defaultMaxLineBytes } from './jsonl-store-settings.js';
import { scanJsonlLines } from './scan-jsonl-lines.js';
import { listSegments } from './segment-files.js';

/**
 * What the history log checks of a session when it reads a line: its id, its time and the arrays of
 * its three stages. The session itself is the caller's (the CLI keeps `@council/core`'s session without
 * its query field; the question, when kept, is the entry's own `question`).
 */
export interface HistorySessionFields {
  sessionId: string;
  timestamp: string;
  stage1: readonly unknown[];
  stage2: readonly unknown[];
  leaderboard: readonly unknown[];
}

/** One line of `$LLM_COUNCIL_HOME/history.jsonl`. */
export interface HistoryEntry<Session extends HistorySessionFields = HistorySessionFields> {
  schema_version: '1.0.0';
  /** The executable's version that wrote it. */
  council_version: string;
  /** True when every member was a simulated model. */
  simulated: boolean;
  /** ADR-018 v1.1 query metadata (category, token bucket, language): never the text. */
  query_metadata: { category: string | null; token_count_bucket: string | null; language: string | null } | null;
  /**
   * The user's question, kept in this local log by default so the history can show and search it (issue 30); absent
   * when the user turned it off (`history_questions: false`) and in lines written before. It never enters bias
   * records, contributions, telemetry or logs: those are built from the session, not from this line.
   */
  question?: string;
  session: Session;
}

export interface HistoryReadResult<Session extends HistorySessionFields = HistorySessionFields> {
  entries: HistoryEntry<Session>[];
  skipped: number;
  firstBadLine: number | null;
}

/** The history log's longest line: the bias store's (1 MiB). A longer line is neither written nor read. */
export const historyMaxLineBytes: number = defaultMaxLineBytes;

/**
 * An entry as a line of at most `maxLineBytes`: whole when it fits, else with every string longer than some
 * length cut to it (and marked), the length halved until the line fits; null when even 64 characters are too many.
 */
export function fitHistoryLine(
  entry: HistoryEntry,
  maxLineBytes: number,
): { line: string; cutAt: number | null } | null {
  const whole = JSON.stringify(entry);
  if (Buffer.byteLength(whole) <= maxLineBytes) return { line: whole, cutAt: null };
  for (let cutAt = 256 * 1024; cutAt >= 64; cutAt = Math.floor(cutAt / 2)) {
    const line = JSON.stringify(entry, (_key, value: unknown) =>
      typeof value === 'string' && value.length > cutAt
        ? `${value.slice(0, cutAt)}… [cut for the history log: ${value.length - cutAt} more characters]`
        : value,
    );
    if (Buffer.byteLength(line) <= maxLineBytes) return { line, cutAt };
  }
  return null;
}

/**
 * The history log is never closed as a segment by size (it stays one `history.jsonl` for the user); only an append that
 * failed and had to take its bytes back closes it (see `append-lines.ts`), and `readHistory` reads such segments too.
 */
const historySegmentBytes = Number.MAX_SAFE_INTEGER;

/**
 * Entries as the lines of one append to the history log, each of at most `historyMaxLineBytes` (`fitHistoryLine`):
 * the prepared append (`appendPrepared`), how many entries had texts cut to fit, and how many could not be written.
 */
export function prepareHistory(
  path: string,
  entries: readonly HistoryEntry[],
): { prepared: PreparedAppend; cut: number; dropped: number } {
  const lines: string[] = [];
  let cut = 0;
  let dropped = 0;
  for (const entry of entries) {
    const fitted = fitHistoryLine(entry, historyMaxLineBytes);
    if (fitted === null) dropped++;
    else {
      if (fitted.cutAt !== null) cut++;
      lines.push(fitted.line);
    }
  }
  const data = lines.length === 0 ? Buffer.alloc(0) : Buffer.from(`${lines.join('\n')}\n`);
  return {
    prepared: { path, data, records: lines.length, segmentBytes: historySegmentBytes, lockStaleMs: 30_000 },
    cut,
    dropped,
  };
}

/**
 * Appends entries to the history log in one `write` on an O_APPEND descriptor (file 0600, directory 0700), whole or
 * absent, as the bias store appends (`appendPrepared`): starting with a newline when a crash left the last line torn; a
 * short write completed or taken back; a FIFO, device, directory or symbolic link at the path refused. Each entry is a
 * line of at most `historyMaxLineBytes` (`fitHistoryLine`); returns how many had texts cut to fit, and how many could
 * not be written.
 */
export async function appendHistory(
  path: string,
  entries: readonly HistoryEntry[],
  options: { fsync?: boolean } = {},
): Promise<{ cut: number; dropped: number }> {
  const { prepared, cut, dropped } = prepareHistory(path, entries);
  await appendPrepared(prepared, { fsync: options.fsync ?? false });
  return { cut, dropped };
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<HistoryEntry>;
  const s = v.session as Partial<HistorySessionFields> | undefined;
  return (
    typeof v.schema_version === 'string' &&
    v.schema_version.startsWith('1.') &&
    (v.question === undefined || typeof v.question === 'string') &&
    typeof s === 'object' &&
    s !== null &&
    typeof s.sessionId === 'string' &&
    typeof s.timestamp === 'string' &&
    Array.isArray(s.stage1) &&
    Array.isArray(s.stage2) &&
    Array.isArray(s.leaderboard)
  );
}

/**
 * Streams the history log (and the segments a failed append may have closed, oldest first); unreadable lines (torn,
 * invalid, over-long, another major version) are skipped and counted. A line is checked for the fields of
 * `HistorySessionFields`, not validated whole: `Session` is what the caller wrote (the CLI: its session type). A missing
 * file is empty; a FIFO, device or directory at the path is an `IO_ERROR` (never waited on).
 */
export async function readHistory<Session extends HistorySessionFields = HistorySessionFields>(
  path: string,
): Promise<HistoryReadResult<Session>> {
  const result: HistoryReadResult<Session> = { entries: [], skipped: 0, firstBadLine: null };
  const bad = (line: number): void => {
    result.skipped++;
    result.firstBadLine ??= line;
  };
  for (const file of await listSegments(path)) {
    await scanJsonlLines({
      storePath: path,
      file,
      // The same line limit as the writer: a longer line (written by an older version) is skipped, not parsed.
      maxLineBytes: historyMaxLineBytes,
      visitor: {
        line: ({ buf, start, end, line }) => {
          const text = buf.toString('utf8', start, end);
          if (text.trim() === '') return;
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          if (isEntry(parsed)) result.entries.push(parsed as HistoryEntry<Session>);
          else bad(line);
        },
        tooLong: ({ line }) => bad(line),
        corrupt: ({ line }) => bad(line),
      },
    });
  }
  return result;
}
