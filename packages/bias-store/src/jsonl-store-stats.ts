import { parseIsoTimestamp } from './iso-timestamp.js';
import type { ItemClock } from './jsonl-read-window.js';
import type { StoreLines } from './scan-store-lines.js';
import { drainStore } from './scan-store-lines.js';
import { listSegments } from './segment-files.js';
import type { SkipReport } from './skip-report.js';
import { SkipCounter } from './skip-report.js';
import { zoneWarnings } from './zone-warnings.js';

export interface JsonlStoreStats extends SkipReport {
  records: number;
  /** Distinct sessions, or null when the store has no `sessionOf`. */
  sessions: number | null;
  /** Earliest and latest record time as ISO 8601 UTC, or null (empty store, or no `timeOf`). */
  oldest: string | null;
  newest: string | null;
  /** Bytes on disk over all files (compressed size for compacted segments). */
  bytes: number;
  /** Files: closed segments plus the active file when it exists. */
  segments: number;
  timestampsWithoutZone: number;
  warnings: string[];
}

/** `store.stats()`: one pass over every file, counting records, sessions, the time span and what was skipped. */
export async function jsonlStoreStats<T>(store: {
  lines: StoreLines<T>;
  clock: ItemClock<T>;
}): Promise<JsonlStoreStats> {
  const { timeOf, sessionOf } = store.clock;
  const files = await listSegments(store.lines.path);
  const skips = new SkipCounter();
  const sessionIds = sessionOf === undefined ? null : new Set<string>();
  let records = 0;
  let oldest = Infinity;
  let newest = -Infinity;
  let timestampsWithoutZone = 0;
  await drainStore(store.lines, {
    skip: (bad) => skips.add(bad),
    item: (item) => {
      records++;
      sessionIds?.add(sessionOf!(item));
      if (timeOf === undefined) return;
      const parsed = parseIsoTimestamp(timeOf(item));
      if (parsed === null) return;
      if (!parsed.hasZone) timestampsWithoutZone++;
      oldest = Math.min(oldest, parsed.ms);
      newest = Math.max(newest, parsed.ms);
    },
  });
  return {
    records,
    sessions: sessionIds === null ? null : sessionIds.size,
    oldest: Number.isFinite(oldest) ? new Date(oldest).toISOString() : null,
    newest: Number.isFinite(newest) ? new Date(newest).toISOString() : null,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    segments: files.length,
    timestampsWithoutZone,
    warnings: zoneWarnings(store.lines.path, timestampsWithoutZone),
    ...skips.report(),
  };
}
