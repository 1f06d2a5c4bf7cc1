import { commitOutboxItems } from './commit-outbox-items.js';
import type { BatchAnswer } from './send-batch-with-retry.js';
import { sendBatchWithRetry } from './send-batch-with-retry.js';
import type { OutboxItem, UploadRun } from './upload-run.js';

/** An item still to be delivered: an event, not (yet) refused. */
const isWaiting = (item: OutboxItem): boolean => item.event !== undefined && item.deadLetter === undefined;

/** Marks a sendable item for the dead-letter file with council-cloud's reason (it refused the event by name). */
function refuse(item: OutboxItem, reason: string): void {
  item.deadLetter = {
    refused_by: 'council-cloud',
    reason,
    event_id: item.event!.event_id,
    event: item.event as Record<string, unknown>,
  };
}

/** Counts what council-cloud took (new or already held) and marks the events it refused one by one. */
function recordAccepted(
  run: UploadRun,
  sendable: readonly OutboxItem[],
  answer: Extract<BatchAnswer, { kind: 'accepted' }>,
): void {
  run.summary.batches++;
  if (answer.warning !== undefined) run.settings.onNotice(`council-cloud answered ${answer.warning}`);
  const refused = new Map(answer.rejected.map((r) => [r.event_id, r.reason]));
  const held = new Set(answer.duplicates);
  for (const item of sendable) {
    const reason = refused.get(item.event!.event_id);
    if (reason !== undefined) {
      refuse(item, reason);
      continue;
    }
    run.summary.sent++;
    if (held.has(item.event!.event_id)) run.summary.alreadyHeld++;
  }
}

/** Writes the items' dead letters and moves the cursor past them; counts council-cloud's refusals once written (each item is committed once). */
async function commit(run: UploadRun, items: readonly OutboxItem[]): Promise<void> {
  await commitOutboxItems(run, items);
  run.summary.rejected += items.filter((item) => item.deadLetter?.refused_by === 'council-cloud').length;
}

/**
 * Delivers the sendable items of `items` in order, committing (dead letters, then the cursor) once they are
 * answered, so a later failure never re-sends what was taken — and when it does (a lost answer), council-cloud
 * recognises each event by its `event_id`. Only events council-cloud refuses by name are dead-lettered: a 4xx
 * naming some events drops those and sends the rest again; a 413 naming none splits the batch in halves; every
 * other failure leaves the events queued (`sendBatchWithRetry` throws).
 */
export async function deliverBatch(run: UploadRun, items: OutboxItem[]): Promise<void> {
  for (;;) {
    const waiting = items.filter(isWaiting);
    if (waiting.length === 0) {
      await commit(run, items);
      return;
    }
    const answer = await sendBatchWithRetry(
      run,
      waiting.map((item) => item.event!),
    );
    switch (answer.kind) {
      case 'accepted':
        recordAccepted(run, waiting, answer);
        await commit(run, items);
        return;
      case 'refused': {
        // Nothing of the batch was stored: drop the events named and send the rest again.
        const reasons = new Map(answer.rejected.map((r) => [r.event_id, r.reason]));
        for (const item of waiting) {
          const reason = reasons.get(item.event!.event_id);
          if (reason !== undefined) refuse(item, reason);
        }
        break;
      }
      case 'too-large': {
        // Split at the middle waiting item; items before it (and the dead ones between) go with the first half.
        const middle = items.indexOf(waiting[Math.floor(waiting.length / 2)]!);
        await deliverBatch(run, items.slice(0, middle));
        await deliverBatch(run, items.slice(middle));
        return;
      }
      default: {
        const unreachable: never = answer;
        throw new Error(`unexpected answer ${String(unreachable)}`);
      }
    }
  }
}
