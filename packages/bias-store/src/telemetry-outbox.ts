import * as z from 'zod';
import { readCursorFile, writeCursorFile } from './cursor-file.js';
import type { DeadLetterEntry } from './dead-letter-entry.js';
import { deadLetterEntrySchema } from './dead-letter-entry.js';
import type { JsonlCursor } from './jsonl-cursor.js';
import { startCursor } from './jsonl-cursor.js';
import type { JsonlEntry } from './jsonl-entry.js';
import type { JsonlStore } from './jsonl-store.js';
import { createJsonlStore } from './jsonl-store.js';
import { describeCursorOverrun } from './outbox-cursor.js';

/** The three files of the telemetry outbox (`councilPaths(home)` gives them under `<home>/telemetry/`). */
export interface TelemetryOutboxPaths {
  /** `telemetry/outbox.jsonl` (append-only; never rewritten here). */
  outbox: string;
  /** `telemetry/sent.cursor`: how far the outbox has been handled. */
  cursor: string;
  /** `telemetry/dead-letter.jsonl`: outbox lines that will not be sent, with the reason. */
  deadLetter: string;
}

/** The outbox as its consumer (the uploader) sees it: read from the cursor, commit dead letters and a new cursor. */
export interface TelemetryOutbox {
  readonly paths: TelemetryOutboxPaths;
  /** The saved cursor, or the start when there is none yet. Throws a `BiasStoreError` (`INVALID_CURSOR`, `IO_ERROR`). */
  readCursor(): Promise<JsonlCursor>;
  /** Where `cursor` points past the end of the outbox, said for a message; null when it fits (see `describeCursorOverrun`). */
  cursorOverrun(cursor: JsonlCursor): Promise<string | null>;
  /**
   * The outbox's entries from `from`, each line as a plain object (judging an event is the caller's: a
   * line that breaks the rules must be seen, not skipped as invalid); unreadable lines and other major
   * `schema_version`s come as skips.
   */
  scan(from: JsonlCursor): AsyncGenerator<JsonlEntry<Record<string, unknown>>>;
  /**
   * Appends `letters` to the dead-letter file (fsynced), then moves the cursor to `to` (atomically). In
   * that order: a crash between the two repeats a dead-letter line, never loses one.
   */
  commit(letters: readonly DeadLetterEntry[], to: JsonlCursor): Promise<void>;
  /** Readable lines still queued past `from`. */
  countPending(from: JsonlCursor): Promise<number>;
}

// Any JSON object; z.custom checks without copying each line.
const looseObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

/**
 * The outbox file (`telemetry/outbox.jsonl`) as a store, opened the one way every writer and reader
 * opens it: lines of another major `schema_version` are skipped as `unsupported_version`. The schema
 * is the caller's, since the event schema lives in `@council/core` (which this package does not
 * import): the session writer and `council telemetry status` pass it, the uploader reads plain objects.
 */
export function createTelemetryOutboxStore<T>(path: string, schema: z.ZodType<T>): JsonlStore<T> {
  return createJsonlStore({ path, schema, version: { field: 'schema_version', major: 1 } });
}

/** Opens the telemetry outbox with its cursor and dead-letter file. Nothing is read or created until a method is called. */
export function openTelemetryOutbox(paths: TelemetryOutboxPaths): TelemetryOutbox {
  const outbox = createTelemetryOutboxStore(paths.outbox, looseObject);
  const deadLetter = createJsonlStore({ path: paths.deadLetter, schema: deadLetterEntrySchema });
  return {
    paths,
    readCursor: async () => (await readCursorFile(paths.cursor)) ?? startCursor,
    cursorOverrun: async (cursor) =>
      cursor.segment === 0 && cursor.offset === 0 ? null : describeCursorOverrun(await outbox.files(), cursor),
    scan: (from) => outbox.scan({ from }),
    commit: async (letters, to) => {
      if (letters.length > 0) await deadLetter.append(letters, { fsync: true });
      await writeCursorFile(paths.cursor, to);
    },
    countPending: async (from) => {
      let count = 0;
      for await (const entry of outbox.scan({ from })) if (entry.kind === 'item') count++;
      return count;
    },
  };
}
