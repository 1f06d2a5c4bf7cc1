import type * as z from 'zod';
import { appendLines } from './append-lines.js';
import type { JsonlCompactOptions, JsonlCompactResult } from './compact-segments.js';
import { compactSegments, compactStore } from './compact-segments.js';
import { lineDecoder } from './decode-jsonl-line.js';
import { encodeJsonlItems } from './encode-jsonl-items.js';
import type { JsonlCursor } from './jsonl-cursor.js';
import type { JsonlEntry } from './jsonl-entry.js';
import type { JsonlReadOptions } from './jsonl-read-window.js';
import { resolveJsonlStoreSettings } from './jsonl-store-settings.js';
import type { JsonlStoreStats } from './jsonl-store-stats.js';
import { jsonlStoreStats } from './jsonl-store-stats.js';
import type { JsonlReadResult } from './read-jsonl-store.js';
import { readJsonlStore } from './read-jsonl-store.js';
import { rotateActiveFile, rotateNow } from './rotate-active-file.js';
import { scanStoreEntries } from './scan-store-lines.js';
import type { SegmentFile } from './segment-files.js';
import { listSegments } from './segment-files.js';

export interface JsonlStoreOptions<T> {
  /** The active file, e.g. `~/.llm-council/bias_metrics.jsonl`. Closed segments live beside it. */
  path: string;
  /**
   * Maps a line's JSON value to an item (`safeDecode`) and back (`encode`). A plain `z.object` works
   * (its encode validates); a `z.codec` maps snake_case on disk to camelCase items in one place.
   */
  schema: z.ZodType<T>;
  /** When the active file reaches this size it is closed as a segment and a new one begins. Default 64 MiB. */
  segmentBytes?: number;
  /** Longest line accepted on write and on read (longer lines are skipped, never buffered whole). Default 1 MiB. */
  maxLineBytes?: number;
  /** fsync after every append (default false; `append(items, { fsync })` overrides it). */
  fsync?: boolean;
  /** Skip (and count as `unsupported_version`) records whose `field` holds another major version than `major`. */
  version?: { field: string; major: number };
  /** The item's ISO 8601 time; enables time windows, `oldest`/`newest` and oldest-first order. */
  timeOf?: (item: T) => string;
  /** The item's session; enables a read's `sessions` and the session count. */
  sessionOf?: (item: T) => string;
  /**
   * Optional fast path for reading: returns the item when the line's object certainly satisfies
   * `schema` (decoded as the schema would), or undefined to let the schema decide and explain.
   */
  fastDecode?: (raw: Record<string, unknown>) => T | undefined;
  /** Rules past the schema for writing: returns why an item may not be written, or undefined. */
  checkWrite?: (item: T) => string | undefined;
  /**
   * For tests and tuning: how old (ms) a `*.rotate.lock` must be before another process takes it over as left by a
   * dead rotator. Default 30,000. Rotation is safe without the lock (it only saves work), so 0 — every lock stale,
   * several rotators at once — loses nothing; the stress test runs that way.
   */
  rotationLockStaleMs?: number;
}

/**
 * Lines validated and serialised for one append, written later by `appendPrepared` — for a caller that writes several
 * files as one unit (a session saved whole, `saveSessionWhole`), which must know every line before it writes any.
 */
export interface PreparedAppend {
  /** The store's active file. */
  path: string;
  /** The lines, each ending with a newline. */
  data: Buffer;
  /** How many lines (items) `data` holds. */
  records: number;
  /** The store's `segmentBytes`. */
  segmentBytes: number;
  /** The store's `rotationLockStaleMs`. */
  lockStaleMs: number;
}

/** Appends prepared lines to their store as `append` does (one O_APPEND write, whole or absent, rotation and compaction). */
export function appendPrepared(
  prepared: PreparedAppend,
  options: { fsync: boolean },
): Promise<{ records: number; bytes: number }> {
  const { path, segmentBytes, lockStaleMs } = prepared;
  if (prepared.records === 0) return Promise.resolve({ records: 0, bytes: 0 });
  return appendLines({
    path,
    data: prepared.data,
    records: prepared.records,
    fsync: options.fsync,
    segmentBytes,
    rotate: (minBytes) => rotateActiveFile({ path, minBytes, lockStaleMs }),
    afterRotation: () => compactSegments({ path, minAgeMs: 0 }),
  });
}

export interface JsonlStore<T> {
  readonly path: string;
  /**
   * Validates and serialises `items`, then writes them as whole lines in one `write` on an O_APPEND
   * descriptor (so concurrent writers never interleave). Starts with a newline when a crash left the
   * file without one. Writes nothing at all (not even a directory) for an empty list.
   */
  append(items: readonly T[], options?: { fsync?: boolean }): Promise<{ records: number; bytes: number }>;
  /** Validates and serialises `items` as `append` would (throwing `INVALID_RECORD` alike), for `appendPrepared` later. */
  prepare(items: readonly T[]): PreparedAppend;
  /** Streams every file and returns the windowed items plus what was skipped. */
  read(options?: JsonlReadOptions): Promise<JsonlReadResult<T>>;
  /** Streams entries (items and skips) in file order, from a cursor; for consumers that resume, such as an uploader. */
  scan(options?: { from?: JsonlCursor }): AsyncGenerator<JsonlEntry<T>>;
  stats(): Promise<JsonlStoreStats>;
  /** Closes the active file as a segment now, if it holds anything. Returns the new segment's number, or null. */
  rotate(): Promise<number | null>;
  /**
   * Gzips the closed segments no writer can still write (verified before the plain file is removed); reads span them
   * transparently. An append that rotates the active file does this too, after its write.
   */
  compact(options?: JsonlCompactOptions): Promise<JsonlCompactResult>;
  /** The files of the store in read order. */
  files(): Promise<SegmentFile[]>;
}

/**
 * An append-only JSONL store: whole-line atomic appends, streaming reads that skip and count bad
 * lines with their line numbers, size-based segments, gzip compaction of closed segments.
 * It never rewrites a line in place.
 */
export function createJsonlStore<T>(options: JsonlStoreOptions<T>): JsonlStore<T> {
  const { path, segmentBytes, maxLineBytes, lockStaleMs } = resolveJsonlStoreSettings(options);
  const lines = { path, maxLineBytes, decode: lineDecoder(options) };
  const clock = { path, timeOf: options.timeOf, sessionOf: options.sessionOf };
  const prepare = (items: readonly T[]): PreparedAppend => ({
    path,
    data:
      items.length === 0
        ? Buffer.alloc(0)
        : encodeJsonlItems(items, { path, schema: options.schema, maxLineBytes, checkWrite: options.checkWrite }),
    records: items.length,
    segmentBytes,
    lockStaleMs,
  });
  return {
    path,
    append: async (items, appendOptions) => {
      if (items.length === 0) return { records: 0, bytes: 0 };
      return appendPrepared(prepare(items), { fsync: appendOptions?.fsync ?? options.fsync ?? false });
    },
    prepare,
    read: (readOptions) => readJsonlStore({ lines, clock }, readOptions),
    scan: (scanOptions) => scanStoreEntries(lines, scanOptions?.from),
    stats: () => jsonlStoreStats({ lines, clock }),
    rotate: () => rotateNow({ path, lockStaleMs }),
    compact: (compactOptions) => compactStore(path, compactOptions),
    files: () => listSegments(path),
  };
}
