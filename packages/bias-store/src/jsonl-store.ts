import type { z } from 'zod';
import { appendLines } from './append-lines.js';
import { BiasStoreError } from './bias-store-error.js';
import type { JsonlCompactOptions, JsonlCompactResult } from './compact-segments.js';
import { compactSegments } from './compact-segments.js';
import { lineDecoder } from './decode-jsonl-line.js';
import { describeZodError, isZodError } from './describe-zod-error.js';
import { ioError } from './io-error.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import type { JsonlCursor } from './jsonl-cursor.js';
import type { JsonlEntry } from './jsonl-entry.js';
import { rotateActiveFile } from './rotate-active-file.js';
import type { StoreSink } from './scan-store-lines.js';
import { drainStore, scanStoreEntries } from './scan-store-lines.js';
import type { SegmentFile } from './segment-files.js';
import { listSegments } from './segment-files.js';
import type { SkipReport } from './skip-report.js';
import { SkipCounter } from './skip-report.js';

export type { JsonlCompactOptions, JsonlCompactResult } from './compact-segments.js';
export type { BadLine, SkipReason, SkipReport } from './skip-report.js';
export { skipReasons } from './skip-report.js';
export type { JsonlEntry } from './jsonl-entry.js';

export interface JsonlReadOptions {
  /** Keep the last N sessions, ranked by each session's latest record (needs `sessionOf` and `timeOf`). */
  maxSessions?: number;
  /** Keep records from the last N days before `now` (needs `timeOf`). */
  maxDays?: number;
  /** Keep records at or after this time (needs `timeOf`). */
  since?: Date | string;
  /** Keep records at or before this time (needs `timeOf`). */
  until?: Date | string;
  /** The clock for `maxDays`; default the current time. */
  now?: Date;
}

export interface JsonlReadResult<T> extends SkipReport {
  /** Oldest first when the store knows time (`timeOf`), else in file order. */
  items: T[];
  /** Records whose timestamp had no zone; they were read as UTC. */
  timestampsWithoutZone: number;
  /** Human-readable warnings, e.g. about zone-less timestamps; empty when all is well. */
  warnings: string[];
}

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
  /** The item's session; enables `maxSessions` and the session count. */
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

export interface JsonlStore<T> {
  readonly path: string;
  /**
   * Validates and serialises `items`, then writes them as whole lines in one `write` on an O_APPEND
   * descriptor (so concurrent writers never interleave). Starts with a newline when a crash left the
   * file without one. Writes nothing at all (not even a directory) for an empty list.
   */
  append(items: readonly T[], options?: { fsync?: boolean }): Promise<{ records: number; bytes: number }>;
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

function toMs(value: Date | string, name: string): number {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `read: ${name} is an invalid Date.` });
    return ms;
  }
  const parsed = parseIsoTimestamp(value);
  if (parsed === null) {
    throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `read: ${name} ${JSON.stringify(value.slice(0, 40))} is not an ISO 8601 date-time (e.g. 2025-12-17T10:30:00Z).` });
  }
  return parsed.ms;
}

/**
 * An append-only JSONL store: whole-line atomic appends, streaming reads that skip and count bad
 * lines with their line numbers, size-based segments, gzip compaction of closed segments.
 * It never rewrites a line in place.
 */
export function createJsonlStore<T>(options: JsonlStoreOptions<T>): JsonlStore<T> {
  const path = options.path;
  const schema = options.schema;
  if (typeof path !== 'string' || path.trim() === '') {
    throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: 'createJsonlStore: path must be the path of a file, e.g. ~/.llm-council/bias_metrics.jsonl.' });
  }
  const zoneWarnings = (count: number): string[] =>
    count === 0 ? [] : [`${count} record${count === 1 ? '' : 's'} in ${path} had a timestamp without a zone; read as UTC.`];
  const segmentBytes = options.segmentBytes ?? 64 * 1024 * 1024;
  const maxLineBytes = options.maxLineBytes ?? 1024 * 1024;
  const lockStaleMs = options.rotationLockStaleMs ?? 30_000;
  if (!Number.isFinite(lockStaleMs) || lockStaleMs < 0) {
    throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `createJsonlStore: rotationLockStaleMs must be a number of milliseconds ≥ 0; got ${String(lockStaleMs)}.` });
  }
  for (const [name, value] of [
    ['segmentBytes', segmentBytes],
    ['maxLineBytes', maxLineBytes],
  ] as const) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `createJsonlStore: ${name} must be a positive integer number of bytes.` });
    }
  }

  function serialise(items: readonly T[]): Buffer {
    const lines: string[] = [];
    items.forEach((item, index) => {
      const problem = options.checkWrite?.(item);
      if (problem !== undefined) {
        throw new BiasStoreError({ code: 'INVALID_RECORD', message: `Item ${index} cannot be written to ${path}: ${problem}. Nothing was written.` });
      }
      let encoded: unknown;
      try {
        encoded = schema.encode(item);
      } catch (error) {
        const what = isZodError(error) ? describeZodError(error) : 'it cannot be encoded';
        throw new BiasStoreError({ code: 'INVALID_RECORD', message: `Item ${index} cannot be written to ${path}: ${what}. Nothing was written.`, cause: error });
      }
      const line = JSON.stringify(encoded);
      if (line === undefined) {
        throw new BiasStoreError({ code: 'INVALID_RECORD', message: `Item ${index} cannot be written to ${path}: it has no JSON form. Nothing was written.` });
      }
      const bytes = Buffer.byteLength(line);
      if (bytes > maxLineBytes) {
        throw new BiasStoreError({
          code: 'INVALID_RECORD',
          message: `Item ${index} cannot be written to ${path}: its line is ${bytes} bytes, over maxLineBytes (${maxLineBytes}). Nothing was written.`,
        });
      }
      lines.push(line);
    });
    return Buffer.from(`${lines.join('\n')}\n`);
  }

  const lines = { path, maxLineBytes, decode: lineDecoder(options) };
  const drain = (sink: StoreSink<T>): Promise<void> => drainStore(lines, sink);
  const scan = (scanOptions?: { from?: JsonlCursor }): AsyncGenerator<JsonlEntry<T>> => scanStoreEntries(lines, scanOptions?.from);

  const rotate = (minBytes: number): Promise<number | null> => rotateActiveFile({ path, minBytes, lockStaleMs });

  async function append(items: readonly T[], appendOptions?: { fsync?: boolean }): Promise<{ records: number; bytes: number }> {
    if (items.length === 0) return { records: 0, bytes: 0 };
    return appendLines({
      path,
      data: serialise(items),
      records: items.length,
      fsync: appendOptions?.fsync ?? options.fsync ?? false,
      segmentBytes,
      rotate,
      afterRotation: () => compactSegments({ path, minAgeMs: 0 }),
    });
  }

  function requireAccessor<K extends 'timeOf' | 'sessionOf'>(name: K, option: string): NonNullable<JsonlStoreOptions<T>[K]> {
    const fn = options[name];
    if (fn === undefined) {
      throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `read: ${option} needs a store created with ${name}; ${path} has none.` });
    }
    return fn;
  }

  async function read(readOptions: JsonlReadOptions = {}): Promise<JsonlReadResult<T>> {
    const { maxSessions, maxDays } = readOptions;
    if (maxSessions !== undefined && (!Number.isInteger(maxSessions) || maxSessions < 1)) {
      throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `read: maxSessions must be a positive integer, got ${String(maxSessions)}.` });
    }
    if (maxDays !== undefined && (!Number.isFinite(maxDays) || maxDays <= 0)) {
      throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `read: maxDays must be a positive number, got ${String(maxDays)}.` });
    }
    const windowed = maxSessions !== undefined || maxDays !== undefined || readOptions.since !== undefined || readOptions.until !== undefined;
    const timeOf = windowed ? requireAccessor('timeOf', 'a time window') : options.timeOf;
    const sessionOf = maxSessions !== undefined ? requireAccessor('sessionOf', 'maxSessions') : undefined;
    const now = readOptions.now === undefined ? Date.now() : toMs(readOptions.now, 'now');
    let lower = -Infinity;
    if (maxDays !== undefined) lower = now - maxDays * 86_400_000;
    if (readOptions.since !== undefined) lower = Math.max(lower, toMs(readOptions.since, 'since'));
    const upper = readOptions.until === undefined ? Infinity : toMs(readOptions.until, 'until');

    const skips = new SkipCounter();
    let timestampsWithoutZone = 0;
    // Items that pass the time window, with their time; grouped by session when maxSessions is set.
    const keptItems: T[] = [];
    const keptTimes: number[] = [];
    const keep = (item: T, ms: number): void => {
      keptItems.push(item);
      keptTimes.push(ms);
    };
    const sessions = new Map<string, { latest: number; items: { item: T; ms: number }[] }>();
    const dropped = new Map<string, number>(); // sessions pruned from memory: their latest time
    const pruneAt = maxSessions === undefined ? Infinity : Math.max(4 * maxSessions, 1024);

    const prune = (): void => {
      const latest = [...sessions.entries()].sort((a, b) => b[1].latest - a[1].latest || (a[0] < b[0] ? -1 : 1));
      for (const [id, session] of latest.slice(maxSessions)) {
        sessions.delete(id);
        dropped.set(id, session.latest);
      }
    };

    // The first pass counts skips and zone-less times; a second pass (`only`) just collects returning sessions.
    const sinkFor = (firstPass: boolean, only?: Set<string>): StoreSink<T> => ({
      skip: (bad) => {
        if (firstPass) skips.add(bad);
      },
      item: (item, file, line) => accept({ item, file, line, firstPass, only }),
    });
    const accept = ({ item, file, line, firstPass, only }: { item: T; file: string; line: number; firstPass: boolean; only: Set<string> | undefined }): void => {
      let ms = 0;
      if (timeOf !== undefined) {
        const parsed = parseIsoTimestamp(timeOf(item));
        if (parsed === null) {
          if (firstPass) skips.add({ reason: 'invalid_record', detail: 'its time is not an ISO 8601 date-time', file, line });
          return;
        }
        if (!parsed.hasZone && firstPass) timestampsWithoutZone++;
        ms = parsed.ms;
        if (ms < lower || ms > upper) return;
      }
      if (sessionOf === undefined) {
        keep(item, ms);
        return;
      }
      const id = sessionOf(item);
      if (only !== undefined) {
        if (only.has(id)) keep(item, ms);
        return;
      }
      const droppedLatest = dropped.get(id);
      if (droppedLatest !== undefined) {
        dropped.set(id, Math.max(droppedLatest, ms));
        return;
      }
      let session = sessions.get(id);
      if (session === undefined) {
        session = { latest: ms, items: [] };
        sessions.set(id, session);
        if (sessions.size > pruneAt) prune();
        if (!sessions.has(id)) {
          dropped.set(id, Math.max(dropped.get(id) ?? ms, ms));
          return;
        }
      }
      session.items.push({ item: item, ms });
      if (ms > session.latest) session.latest = ms;
    };

    await drain(sinkFor(true));

    if (maxSessions !== undefined) {
      const ranked = [...[...sessions.entries()].map(([id, s]) => [id, s.latest] as const), ...dropped.entries()].sort(
        (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
      );
      const chosen = ranked.slice(0, maxSessions).map(([id]) => id);
      const missing = new Set(chosen.filter((id) => !sessions.has(id)));
      for (const id of chosen) for (const k of sessions.get(id)?.items ?? []) keep(k.item, k.ms);
      // A session pruned early that later turned out to be among the last N: read its records again.
      if (missing.size > 0) await drain(sinkFor(false, missing));
    }
    let items = keptItems;
    if (timeOf !== undefined && !keptTimes.every((ms, i) => i === 0 || keptTimes[i - 1]! <= ms)) {
      const order = keptItems.map((_, i) => i).sort((a, b) => keptTimes[a]! - keptTimes[b]! || a - b); // ties keep file order
      items = order.map((i) => keptItems[i]!);
    }
    return { items, ...skips.report(), timestampsWithoutZone, warnings: zoneWarnings(timestampsWithoutZone) };
  }

  async function stats(): Promise<JsonlStoreStats> {
    const files = await listSegments(path);
    const skips = new SkipCounter();
    const sessionIds = options.sessionOf === undefined ? null : new Set<string>();
    let records = 0;
    let oldest = Infinity;
    let newest = -Infinity;
    let timestampsWithoutZone = 0;
    await drain({
      skip: (bad) => skips.add(bad),
      item: (item) => {
        records++;
        sessionIds?.add(options.sessionOf!(item));
        if (options.timeOf !== undefined) {
          const parsed = parseIsoTimestamp(options.timeOf(item));
          if (parsed === null) return;
          if (!parsed.hasZone) timestampsWithoutZone++;
          oldest = Math.min(oldest, parsed.ms);
          newest = Math.max(newest, parsed.ms);
        }
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
      warnings: zoneWarnings(timestampsWithoutZone),
      ...skips.report(),
    };
  }

  async function compact(compactOptions?: JsonlCompactOptions): Promise<JsonlCompactResult> {
    const minAgeMs = compactOptions?.minAgeMs ?? 0;
    if (!Number.isFinite(minAgeMs) || minAgeMs < 0) {
      throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `compact({ minAgeMs }) must be a number of milliseconds ≥ 0; got ${String(minAgeMs)}.` });
    }
    return compactSegments({ path, minAgeMs });
  }

  return {
    path,
    append,
    read,
    scan,
    stats,
    rotate: async () => {
      try {
        return await rotate(1);
      } catch (error) {
        if (BiasStoreError.isInstance(error)) throw error;
        throw ioError({ action: 'close a segment of', path, cause: error });
      }
    },
    compact,
    files: () => listSegments(path),
  };
}
