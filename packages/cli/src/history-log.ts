import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CouncilSession } from '@council/core';
import { appendJsonLines } from './append-json-lines.js';

/** A session as the history log keeps it: everything but the query text, which never leaves the run. */
export type HistorySession = Omit<CouncilSession, 'query'>;

/** One line of `$LLM_COUNCIL_HOME/history.jsonl`. */
export interface HistoryEntry {
  schema_version: '1.0.0';
  /** The executable's version that wrote it. */
  council_version: string;
  /** True when every member was a simulated model. */
  simulated: boolean;
  /** ADR-018 v1.1 query metadata (category, token bucket, language): never the text. */
  query_metadata: { category: string | null; token_count_bucket: string | null; language: string | null } | null;
  session: HistorySession;
}

export interface HistoryReadResult {
  entries: HistoryEntry[];
  skipped: number;
  firstBadLine: number | null;
}

/** Appends entries to the history log (see `appendJsonLines` for the write rules). */
export function appendHistory(path: string, entries: readonly HistoryEntry[]): void {
  appendJsonLines(path, entries);
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<HistoryEntry>;
  const s = v.session as Partial<HistorySession> | undefined;
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

/** Streams the history log; unreadable lines (torn, invalid, another major version) are skipped and counted. */
export async function readHistory(path: string): Promise<HistoryReadResult> {
  const result: HistoryReadResult = { entries: [], skipped: 0, firstBadLine: null };
  if (!existsSync(path)) return result;
  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) {
    line++;
    if (text.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (isEntry(parsed)) result.entries.push(parsed);
    else {
      result.skipped++;
      result.firstBadLine ??= line;
    }
  }
  return result;
}
