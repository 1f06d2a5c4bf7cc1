import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { appendJsonLines } from './append-json-lines.js';
import { defaultMaxLineBytes } from './jsonl-store-settings.js';

/**
 * What the history log checks of a session when it reads a line: its id, its time and the arrays of
 * its three stages. The session itself is the caller's (the CLI keeps `@council/core`'s session without
 * the query text, which never leaves the run).
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
export function fitHistoryLine(entry: HistoryEntry, maxLineBytes: number): { line: string; cutAt: number | null } | null {
  const whole = JSON.stringify(entry);
  if (Buffer.byteLength(whole) <= maxLineBytes) return { line: whole, cutAt: null };
  for (let cutAt = 256 * 1024; cutAt >= 64; cutAt = Math.floor(cutAt / 2)) {
    const line = JSON.stringify(entry, (_key, value: unknown) =>
      typeof value === 'string' && value.length > cutAt ? `${value.slice(0, cutAt)}… [cut for the history log: ${value.length - cutAt} more characters]` : value,
    );
    if (Buffer.byteLength(line) <= maxLineBytes) return { line, cutAt };
  }
  return null;
}

/**
 * Appends entries to the history log (see `appendJsonLines` for the write rules), each on a line of at most
 * `historyMaxLineBytes` (`fitHistoryLine`); returns how many had texts cut to fit, and how many could not be written.
 */
export function appendHistory(path: string, entries: readonly HistoryEntry[]): { cut: number; dropped: number } {
  const items: unknown[] = [];
  const result = { cut: 0, dropped: 0 };
  for (const entry of entries) {
    const fitted = fitHistoryLine(entry, historyMaxLineBytes);
    if (fitted === null) result.dropped++;
    else if (fitted.cutAt === null) items.push(entry);
    else {
      result.cut++;
      items.push(JSON.parse(fitted.line));
    }
  }
  appendJsonLines(path, items);
  return result;
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<HistoryEntry>;
  const s = v.session as Partial<HistorySessionFields> | undefined;
  return (
    typeof v.schema_version === 'string' &&
    v.schema_version.startsWith('1.') &&
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
 * Streams the history log; unreadable lines (torn, invalid, another major version) are skipped and counted.
 * A line is checked for the fields of `HistorySessionFields`, not validated whole: `Session` is what the
 * caller wrote (the CLI: its session type).
 */
export async function readHistory<Session extends HistorySessionFields = HistorySessionFields>(path: string): Promise<HistoryReadResult<Session>> {
  const result: HistoryReadResult<Session> = { entries: [], skipped: 0, firstBadLine: null };
  if (!existsSync(path)) return result;
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) {
    line++;
    if (text.trim() === '') continue;
    let parsed: unknown;
    // The same line limit as the writer: a longer line (written by an older version) is skipped, not parsed.
    if (text.length > historyMaxLineBytes) {
      result.skipped++;
      result.firstBadLine ??= line;
      continue;
    }
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isEntry(parsed)) result.entries.push(parsed as HistoryEntry<Session>);
    else {
      result.skipped++;
      result.firstBadLine ??= line;
    }
  }
  return result;
}
