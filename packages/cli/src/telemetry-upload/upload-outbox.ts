import type { DeadLetterEntry, JsonlCursor, JsonlEntry, TelemetryOutboxPaths } from '@council/bias-store';
import { BiasStoreError, openTelemetryOutbox } from '@council/bias-store';
import type { TelemetryEvent } from '@council/core';
import { backoffDelay } from './backoff-delay.js';
import { classifyOutboxEvent } from './classify-outbox-event.js';
import { fieldsAboveConsent } from './event-consent.js';
import type { IngestClient, IngestOutcome } from './ingest-client.js';
import { maxEventsPerBatch } from './ingest-contract.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';

export interface UploadOutboxOptions {
  paths: TelemetryOutboxPaths;
  /** Where batches go; unused (may be null) with `dryRun`. */
  client: IngestClient | null;
  /** Print the batches instead of sending them: no request, no cursor move, no dead-letter write. */
  dryRun?: boolean;
  /** Receives each batch body a dry run would send. */
  onDryRunBatch?: (body: { events: TelemetryEvent[] }) => void;
  /** Events per request, 1 to 100; default 100. */
  batchSize?: number;
  /** Stop after this many events were handed to council-cloud. */
  maxEvents?: number;
  /** The user's current consent level, when known: events queued at a higher level are sent reduced to it. */
  consentCeiling?: number;
  /** Attempts per batch before giving up for this run; default 5. */
  maxAttempts?: number;
  /** The longest single wait this run accepts; a longer `Retry-After` ends the run with its time as the next retry. Default 60 s. */
  maxWaitMs?: number;
  /** Backoff base and cap, in ms (defaults 500 and 30 000). */
  backoff?: { baseMs?: number; maxMs?: number };
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Called after each commit (the lock's heartbeat). */
  onCommit?: () => Promise<void> | void;
  /** One line of progress per retry, for the terminal. Never holds event content. */
  onNotice?: (text: string) => void;
}

export interface UploadSummary {
  dryRun: boolean;
  /** Events council-cloud took (in a dry run: would be sent). */
  sent: number;
  /** Events council-cloud refused (dead-lettered with its reason). */
  rejected: number;
  /** Outbox lines the uploader set aside itself (consent 0–1, bad lines, unknown schema versions), dead-lettered. */
  setAside: number;
  /** Events sent with fields removed because the current consent is lower than when they were queued. */
  reduced: number;
  /** Requests that got a 2xx answer. */
  batches: number;
  /** Events still queued after this run; null when the run stopped before it could tell (an unreadable or unfitting cursor). */
  remaining: number | null;
  /** An incomplete last line (a write in flight or interrupted) was left where it is. */
  incompleteTail: boolean;
  /** When to try again (ISO 8601), when the run stopped on a retryable failure. */
  nextRetryAt: string | null;
  /** Why the run stopped early, if it did. */
  error: TelemetryUploadError | null;
}

interface Item {
  entry: JsonlEntry<Record<string, unknown>>;
  /** Set for items that go to the dead-letter file when committed. */
  deadLetter?: Omit<DeadLetterEntry, 'dead_lettered_at' | 'outbox_segment' | 'outbox_line'>;
  event?: TelemetryEvent;
}

function sameCursor(a: JsonlCursor, b: { segment: number; offset: number }): boolean {
  return a.segment === b.segment && a.offset === b.offset;
}

function where(entry: JsonlEntry<unknown>): string {
  return `${entry.file} line ${entry.line}`;
}

function asUploadError(error: unknown): TelemetryUploadError {
  if (TelemetryUploadError.isInstance(error)) return error;
  if (BiasStoreError.isInstance(error)) return new TelemetryUploadError({ code: 'IO_ERROR', message: error.message, cause: error });
  throw error;
}

/**
 * Drains the outbox from the cursor: validates every event against the schema and its own consent
 * level, sends batches, and after each 2xx dead-letters the refused events and moves the cursor
 * atomically. Retryable failures (408, 429, 5xx, network, timeout) are retried with backoff that
 * honours `Retry-After`; a 400 splits the batch to isolate the bad events; 401/403 stop at once.
 * Returns a summary; expected failures are in `summary.error`, never thrown.
 */
export async function uploadOutbox(options: UploadOutboxOptions): Promise<UploadSummary> {
  const dryRun = options.dryRun ?? false;
  const batchSize = options.batchSize ?? maxEventsPerBatch;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > maxEventsPerBatch) {
    throw new RangeError(`batchSize must be an integer from 1 to ${maxEventsPerBatch}.`);
  }
  const client = options.client;
  if (!dryRun && client === null) throw new TypeError('uploadOutbox needs a client unless dryRun is set.');
  const maxEvents = options.maxEvents ?? Infinity;
  const maxAttempts = options.maxAttempts ?? 5;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const notice = options.onNotice ?? (() => undefined);

  // Lines come as plain objects, judged by `classifyOutboxEvent`: a consent violation must stop the upload, not be skipped as invalid.
  const outbox = openTelemetryOutbox(options.paths);

  const summary: UploadSummary = {
    dryRun,
    sent: 0,
    rejected: 0,
    setAside: 0,
    reduced: 0,
    batches: 0,
    remaining: 0,
    incompleteTail: false,
    nextRetryAt: null,
    error: null,
  };

  let cursor: JsonlCursor;
  try {
    cursor = await outbox.readCursor();
    const overrun = await outbox.cursorOverrun(cursor);
    if (overrun !== null) {
      throw new TelemetryUploadError({
        code: 'INVALID_CURSOR',
        message: `${options.paths.cursor} points at ${overrun}: the outbox was replaced or cut short since the last upload, so the cursor no longer fits it. Nothing was sent. To send every event now in the outbox, delete ${options.paths.cursor} and run again.`,
      });
    }
  } catch (error) {
    summary.error = asUploadError(error);
    summary.remaining = null;
    return summary;
  }

  /** Dead-letters the items' refusals, then moves the cursor past the last one (in that order: a crash between them repeats a dead-letter line, never loses one). */
  async function commit(items: readonly Item[]): Promise<void> {
    const last = items.at(-1);
    if (last === undefined || dryRun) return;
    const at = new Date(now()).toISOString();
    const letters: DeadLetterEntry[] = items
      .filter((item) => item.deadLetter !== undefined)
      .map((item) => ({ dead_lettered_at: at, outbox_segment: item.entry.next.segment, outbox_line: item.entry.line, ...item.deadLetter! }));
    await outbox.commit(letters, last.entry.next);
    cursor = last.entry.next;
    await options.onCommit?.();
  }

  /** Sends one batch until it is answered; throws a TelemetryUploadError when the run must stop. */
  async function sendWithRetry(events: TelemetryEvent[]): Promise<Extract<IngestOutcome, { kind: 'accepted' } | { kind: 'bad-request' }>> {
    for (let attempt = 1; ; attempt++) {
      for (const event of events) {
        // The copy about to leave the machine, checked once more against its own consent level.
        const above = fieldsAboveConsent(event);
        if (above.length > 0) {
          throw new TelemetryUploadError({
            code: 'CONSENT_VIOLATION',
            message: `Event ${event.event_id} was about to be sent with ${above.map((a) => a.field).join(', ')} above its consent level ${event.consent_level}; nothing of it was sent. This is a bug: please report it.`,
          });
        }
      }
      const outcome = await client!.send(events);
      switch (outcome.kind) {
        case 'accepted':
        case 'bad-request':
          return outcome;
        case 'unauthorized':
          throw new TelemetryUploadError({
            code: 'UNAUTHORIZED',
            message: `council-cloud refused the credentials (${outcome.reason}) at ${client!.endpoint}. Check LLM_COUNCIL_CLOUD_TOKEN; nothing was sent and the outbox is unchanged.`,
          });
        case 'unexpected':
          // Not an answer about the events (a wrong address, a proxy, a redirect): dead-lettering them would lose them.
          throw new TelemetryUploadError({
            code: 'UNEXPECTED_RESPONSE',
            message: `${client!.endpoint} answered ${outcome.reason}, which is not an answer of council-cloud's ingest API. Check LLM_COUNCIL_CLOUD_URL (council-cloud's base URL, without /v1/events); nothing was dead-lettered and the events stay queued.`,
          });
        case 'retry': {
          const delay = backoffDelay({ attempt, retryAfterMs: outcome.retryAfterMs, random, ...options.backoff });
          if (attempt >= maxAttempts || delay > maxWaitMs) {
            summary.nextRetryAt = new Date(now() + delay).toISOString();
            throw new TelemetryUploadError({
              code: 'UNAVAILABLE',
              isRetryable: true,
              message: `council-cloud at ${client!.endpoint} did not take the batch: ${outcome.reason}${attempt >= maxAttempts ? ` (${attempt} attempts)` : `; it asked to wait ${Math.ceil(delay / 1000)} s`}. The events stay queued; run again after ${summary.nextRetryAt}.`,
            });
          }
          notice(`attempt ${attempt} failed: ${outcome.reason}; retrying in ${(delay / 1000).toFixed(1)} s`);
          await sleep(delay);
          break;
        }
        default: {
          const unreachable: never = outcome;
          throw new Error(`unexpected outcome ${String(unreachable)}`);
        }
      }
    }
  }

  /**
   * Delivers the sendable items of `items` in order (splitting on 400), committing after each answered
   * part so a later failure never re-sends what was taken.
   */
  async function deliver(items: Item[]): Promise<void> {
    const sendable = items.filter((item) => item.event !== undefined);
    if (sendable.length === 0) return;
    const outcome = await sendWithRetry(sendable.map((item) => item.event!));
    if (outcome.kind === 'accepted') {
      summary.batches++;
      if (outcome.warning !== undefined) notice(`council-cloud answered ${outcome.warning}`);
      const refused = new Map(outcome.rejected.map((r) => [r.event_id, r.reason]));
      for (const item of sendable) {
        const reason = refused.get(item.event!.event_id);
        if (reason === undefined) {
          summary.sent++;
          continue;
        }
        summary.rejected++;
        item.deadLetter = { refused_by: 'council-cloud', reason, event_id: item.event!.event_id, event: item.event as Record<string, unknown> };
      }
      await commit(items);
      return;
    }
    if (sendable.length === 1) {
      const item = sendable[0]!;
      summary.rejected++;
      item.deadLetter = { refused_by: 'council-cloud', reason: outcome.reason, event_id: item.event!.event_id, event: item.event as Record<string, unknown> };
      await commit(items);
      return;
    }
    // Split at the middle sendable item; items before it (and the dead ones between) go with the first half.
    const middle = items.indexOf(sendable[Math.floor(sendable.length / 2)]!);
    await deliver(items.slice(0, middle));
    await deliver(items.slice(middle));
  }

  const scan = outbox.scan(cursor);
  let exhausted = false;
  let carried: Item | undefined; // read but not yet placed in a batch
  let handed = 0; // events handed to council-cloud (or, in a dry run, printed)
  let dryPosition = cursor; // how far a dry run has read

  try {
    while (!exhausted && handed < maxEvents) {
      const batch: Item[] = [];
      let events = 0;
      let violation: TelemetryUploadError | null = null;
      while (events < Math.min(batchSize, maxEvents - handed)) {
        let item = carried;
        carried = undefined;
        if (item === undefined) {
          const next = await scan.next();
          if (next.done === true) {
            exhausted = true;
            break;
          }
          item = { entry: next.value };
        }
        const entry = item.entry;
        if (entry.kind === 'skip') {
          if (entry.reason === 'torn_line' && sameCursor(entry.next, { segment: entry.next.segment, offset: entry.offset })) {
            summary.incompleteTail = true; // a line still being written, or torn at the very end: leave it
            exhausted = true;
            break;
          }
          summary.setAside++;
          item.deadLetter = { refused_by: 'uploader', reason: `${entry.reason}: ${entry.detail}`, event_id: null, event: null };
          batch.push(item);
          continue;
        }
        const decision = classifyOutboxEvent(entry.item, options.consentCeiling);
        if (decision.kind === 'violation') {
          violation = new TelemetryUploadError({
            code: 'CONSENT_VIOLATION',
            message: `${where(entry)}: event ${decision.eventId ?? '(no event_id)'} was not sent: ${decision.reason}. A field above an event's consent level is a bug in the program that queued it; please report it. The upload stops here; the events before it were handled. To discard the queued events instead, delete ${options.paths.outbox} and ${options.paths.cursor}.`,
          });
          break;
        }
        if (decision.kind === 'set-aside') {
          summary.setAside++;
          item.deadLetter = { refused_by: 'uploader', reason: decision.reason, event_id: decision.eventId, event: null };
          batch.push(item);
          continue;
        }
        if (decision.reduced) summary.reduced++;
        item.event = decision.event;
        batch.push(item);
        events++;
      }
      if (batch.length > 0) {
        if (dryRun) {
          const sendable = batch.filter((item) => item.event !== undefined).map((item) => item.event!);
          if (sendable.length > 0) {
            options.onDryRunBatch?.({ events: sendable });
            summary.batches++;
            summary.sent += sendable.length;
          }
          dryPosition = batch.at(-1)!.entry.next;
        } else if (events === 0) {
          await commit(batch); // only set-aside lines
        } else {
          await deliver(batch);
        }
        handed += events;
      }
      if (violation !== null) throw violation;
    }
  } catch (error) {
    summary.error = asUploadError(error);
  } finally {
    await scan.return?.(undefined);
  }

  try {
    summary.remaining = await outbox.countPending(dryRun ? dryPosition : cursor);
  } catch (error) {
    summary.error ??= asUploadError(error);
    summary.remaining = null;
  }
  return summary;
}
