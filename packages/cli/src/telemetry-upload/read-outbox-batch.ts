import type { JsonlCursor, JsonlEntry } from '@council/bias-store';
import { classifyOutboxEvent } from './classify-outbox-event.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';
import type { OutboxItem, UploadRun } from './upload-run.js';

export type OutboxScan = AsyncGenerator<JsonlEntry<Record<string, unknown>>>;

export interface OutboxBatch {
  /** The lines read, in order: events to send and lines set aside for the dead-letter file. */
  items: OutboxItem[];
  /** How many of `items` are events to send. */
  events: number;
  /** The scan reached the end of the outbox (or an incomplete last line, left for the next run). */
  exhausted: boolean;
  /** A consent violation that stops the run once the items before it are handled. */
  violation: TelemetryUploadError | null;
}

function sameCursor(a: JsonlCursor, b: { segment: number; offset: number }): boolean {
  return a.segment === b.segment && a.offset === b.offset;
}

function where(entry: JsonlEntry<unknown>): string {
  return `${entry.file} line ${entry.line}`;
}

function violationError(
  run: UploadRun,
  entry: JsonlEntry<unknown>,
  decision: { eventId: string | null; reason: string },
): TelemetryUploadError {
  const { outbox, cursor } = run.outbox.paths;
  return new TelemetryUploadError({
    code: 'CONSENT_VIOLATION',
    message: `${where(entry)}: event ${decision.eventId ?? '(no event_id)'} was not sent: ${decision.reason}. A field above an event's consent level is a bug in the program that queued it; please report it. The upload stops here; the events before it were handled. To discard the queued events instead, delete ${outbox} and ${cursor}.`,
  });
}

/**
 * Reads lines from `scan` until the batch holds `limit` events: each event is judged by
 * `classifyOutboxEvent` (sent, reduced to the current consent, or set aside), unreadable lines are set
 * aside, and a consent violation ends the batch. Counts what it sets aside and reduces in the summary.
 */
export async function readOutboxBatch(run: UploadRun, scan: OutboxScan, limit: number): Promise<OutboxBatch> {
  const batch: OutboxBatch = { items: [], events: 0, exhausted: false, violation: null };
  const { summary } = run;
  while (batch.events < limit) {
    const next = await scan.next();
    if (next.done === true) {
      batch.exhausted = true;
      break;
    }
    const entry = next.value;
    const item: OutboxItem = { entry };
    if (entry.kind === 'skip') {
      if (
        entry.reason === 'torn_line' &&
        sameCursor(entry.next, { segment: entry.next.segment, offset: entry.offset })
      ) {
        summary.incompleteTail = true; // a line still being written, or torn at the very end: leave it
        batch.exhausted = true;
        break;
      }
      summary.setAside++;
      item.deadLetter = {
        refused_by: 'uploader',
        reason: `${entry.reason}: ${entry.detail}`,
        event_id: null,
        event: null,
      };
      batch.items.push(item);
      continue;
    }
    const decision = classifyOutboxEvent(entry.item, run.settings.consentCeiling);
    if (decision.kind === 'violation') {
      batch.violation = violationError(run, entry, decision);
      break;
    }
    if (decision.kind === 'set-aside') {
      summary.setAside++;
      item.deadLetter = { refused_by: 'uploader', reason: decision.reason, event_id: decision.eventId, event: null };
      batch.items.push(item);
      continue;
    }
    if (decision.reduced) summary.reduced++;
    item.event = decision.event;
    batch.items.push(item);
    batch.events++;
  }
  return batch;
}
