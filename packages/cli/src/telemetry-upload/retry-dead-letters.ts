import { dirname, join } from 'node:path';
import type { DeadLetterEntry, JsonlCursor, TelemetryOutboxPaths } from '@council/bias-store';
import {
  createJsonlStore,
  createTelemetryOutboxStore,
  deadLetterEntrySchema,
  openTelemetryOutbox,
  readCursorFile,
  startCursor,
  writeCursorFile,
} from '@council/bias-store';
import type { TelemetryEvent } from '@council/core';
import { telemetryEventSchema } from '@council/core';
import { omitUndefined } from '../omit-undefined.js';
import { asUploadError } from './as-upload-error.js';
import { classifyOutboxEvent } from './classify-outbox-event.js';
import { readUploadStart } from './read-upload-start.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';
import { acquireUploadLock } from './upload-lock.js';

/**
 * `telemetry/dead-letter.cursor`: how far `retry-dead` has read the dead-letter file (`{"segment","offset","line"}`),
 * beside the file. The dead-letter file itself is append-only and never rewritten: this cursor is what moves.
 */
export function deadLetterCursorPath(deadLetter: string): string {
  return `${deadLetter.endsWith('.jsonl') ? deadLetter.slice(0, -'.jsonl'.length) : deadLetter}.cursor`;
}

export interface RetryDeadLettersOptions {
  paths: TelemetryOutboxPaths;
  /** Read and report; append nothing, move nothing, take no lock. */
  dryRun?: boolean;
  now?: () => number;
}

export interface RetryDeadLettersSummary {
  dryRun: boolean;
  /** Dead-letter lines read past the dead-letter cursor. */
  read: number;
  /** Events appended to the outbox again (in a dry run: that would be). */
  queued: number;
  /** Events already waiting in the outbox (queued by an earlier retry-dead, or never sent): not added twice. */
  alreadyQueued: number;
  /** Later dead letters of an event already counted above (the same event dead-lettered more than once): queued once. */
  repeated: number;
  /** Dead letters that are not queued again, counted by why. */
  notRetried: { why: string; count: number }[];
  /** The dead-letter cursor file. */
  cursor: string;
  /** Why the run stopped, if it did; nothing was moved then. */
  error: TelemetryUploadError | null;
}

/** Why a dead letter is not queued again, or the event to queue. */
function judge(letter: DeadLetterEntry): { event: TelemetryEvent } | { why: string } {
  if (letter.refused_by === 'uploader') {
    return {
      why: 'set aside by the uploader before sending (consent 0-1, an unreadable line, another schema version or a misfit): it would be set aside again',
    };
  }
  if (letter.event === null) return { why: 'the dead letter holds no event to send' };
  const decision = classifyOutboxEvent(letter.event);
  if (decision.kind === 'send') return { event: decision.event };
  return {
    why: `the event cannot be sent as it is (${decision.kind === 'violation' ? 'a field above its consent level' : 'it does not fit the event schema'})`,
  };
}

/** The ids of the events still waiting in the outbox, from its sent cursor on. */
async function pendingEventIds(paths: TelemetryOutboxPaths): Promise<Set<string>> {
  const outbox = openTelemetryOutbox(paths);
  const ids = new Set<string>();
  for await (const entry of outbox.scan(await readUploadStart(outbox))) {
    if (entry.kind === 'item' && typeof entry.item.event_id === 'string') ids.add(entry.item.event_id);
  }
  return ids;
}

/** The dead-letter cursor, refused when it points past the end of the file (replaced or cut short): reading on would skip dead letters. */
async function readDeadLetterStart(
  store: { files(): Promise<{ segment: number; bytes: number; compressed: boolean }[]> },
  cursorPath: string,
  deadLetter: string,
): Promise<JsonlCursor> {
  const cursor = (await readCursorFile(cursorPath)) ?? startCursor;
  if (cursor.segment === 0 && cursor.offset === 0) return cursor;
  const files = await store.files();
  const file = files.find((f) => f.segment === cursor.segment);
  const last = files.at(-1);
  const beyond =
    last === undefined ||
    (file === undefined ? cursor.segment > last.segment : !file.compressed && cursor.offset > file.bytes);
  if (beyond) {
    throw new TelemetryUploadError({
      code: 'INVALID_CURSOR',
      message: `${cursorPath} points past the end of ${deadLetter}: the dead-letter file was replaced or cut short since retry-dead last ran. Nothing was queued. To consider every dead letter in it again, delete ${cursorPath} and run again (events queued twice are stored once: council-cloud recognises them by event_id).`,
    });
  }
  return cursor;
}

/**
 * `retry-dead`: queues again, at the end of the outbox, the events council-cloud refused (as they were sent),
 * from the dead-letter cursor on, then moves that cursor past what it read. In that order, and skipping events
 * already waiting in the outbox, so a crash between the two queues nothing twice; and since each event's
 * `event_id` is its idempotency key, an event council-cloud already holds is recognised, not stored again.
 * Events the uploader set aside itself are not queued (they would be set aside again). Holds the upload lock.
 */
export async function retryDeadLetters(options: RetryDeadLettersOptions): Promise<RetryDeadLettersSummary> {
  const { paths } = options;
  const dryRun = options.dryRun ?? false;
  const cursorPath = deadLetterCursorPath(paths.deadLetter);
  const summary: RetryDeadLettersSummary = {
    dryRun,
    read: 0,
    queued: 0,
    alreadyQueued: 0,
    repeated: 0,
    notRetried: [],
    cursor: cursorPath,
    error: null,
  };
  const lock = dryRun
    ? null
    : await acquireUploadLock({
        path: join(dirname(paths.outbox), 'upload.lock'),
        ...omitUndefined({ now: options.now }),
      }).catch((error: unknown) => {
        summary.error = asUploadError(error);
        return undefined;
      });
  if (lock === undefined) return summary;
  try {
    const letters = createJsonlStore({ path: paths.deadLetter, schema: deadLetterEntrySchema });
    const from = await readDeadLetterStart(letters, cursorPath, paths.deadLetter);
    const pending = await pendingEventIds(paths);
    const seen = new Set<string>();
    const toQueue: TelemetryEvent[] = [];
    const why = new Map<string, number>();
    const notRetried = (reason: string) => why.set(reason, (why.get(reason) ?? 0) + 1);
    let to = from;
    for await (const entry of letters.scan({ from })) {
      // A torn last line (a write cut short): leave it, as the uploader leaves one in the outbox.
      if (entry.kind === 'skip' && entry.reason === 'torn_line' && entry.next.offset === entry.offset) break;
      summary.read++;
      to = entry.next;
      if (entry.kind === 'skip') {
        notRetried(`an unreadable dead-letter line (${entry.reason})`);
        continue;
      }
      const verdict = judge(entry.item);
      if ('why' in verdict) {
        notRetried(verdict.why);
        continue;
      }
      const id = verdict.event.event_id;
      if (seen.has(id)) summary.repeated++;
      else if (pending.has(id)) summary.alreadyQueued++;
      else toQueue.push(verdict.event);
      seen.add(id);
    }
    summary.notRetried = [...why].map(([reason, count]) => ({ why: reason, count }));
    if (dryRun) summary.queued = toQueue.length;
    else if (summary.read > 0) {
      // The outbox first (fsynced), then the cursor: a crash between them leaves the events queued and the
      // cursor behind, and the next run finds them waiting in the outbox and does not queue them again.
      await createTelemetryOutboxStore<TelemetryEvent>(paths.outbox, telemetryEventSchema).append(toQueue, {
        fsync: true,
      });
      summary.queued = toQueue.length;
      await writeCursorFile(cursorPath, to);
    }
  } catch (error) {
    summary.error = asUploadError(error);
  } finally {
    await lock?.release();
  }
  return summary;
}
