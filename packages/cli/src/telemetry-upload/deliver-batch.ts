import { commitOutboxItems } from './commit-outbox-items.js';
import type { BatchAnswer } from './send-batch-with-retry.js';
import { sendBatchWithRetry } from './send-batch-with-retry.js';
import type { OutboxItem, UploadRun } from './upload-run.js';

/** Marks a sendable item for the dead-letter file with council-cloud's reason. */
function refuse(run: UploadRun, item: OutboxItem, reason: string): void {
  run.summary.rejected++;
  item.deadLetter = { refused_by: 'council-cloud', reason, event_id: item.event!.event_id, event: item.event as Record<string, unknown> };
}

/** Counts what council-cloud took and dead-letters the events it refused one by one. */
function recordAccepted(run: UploadRun, sendable: readonly OutboxItem[], answer: Extract<BatchAnswer, { kind: 'accepted' }>): void {
  run.summary.batches++;
  if (answer.warning !== undefined) run.settings.onNotice(`council-cloud answered ${answer.warning}`);
  const refused = new Map(answer.rejected.map((r) => [r.event_id, r.reason]));
  for (const item of sendable) {
    const reason = refused.get(item.event!.event_id);
    if (reason === undefined) run.summary.sent++;
    else refuse(run, item, reason);
  }
}

/**
 * Delivers the sendable items of `items` in order, committing after each answered part so a later
 * failure never re-sends what was taken. A 400 splits the batch to isolate the bad events; a single
 * event refused that way is dead-lettered.
 */
export async function deliverBatch(run: UploadRun, items: OutboxItem[]): Promise<void> {
  const sendable = items.filter((item) => item.event !== undefined);
  if (sendable.length === 0) return;
  const answer = await sendBatchWithRetry(run, sendable.map((item) => item.event!));
  if (answer.kind === 'accepted') {
    recordAccepted(run, sendable, answer);
    await commitOutboxItems(run, items);
    return;
  }
  if (sendable.length === 1) {
    refuse(run, sendable[0]!, answer.reason);
    await commitOutboxItems(run, items);
    return;
  }
  // Split at the middle sendable item; items before it (and the dead ones between) go with the first half.
  const middle = items.indexOf(sendable[Math.floor(sendable.length / 2)]!);
  await deliverBatch(run, items.slice(0, middle));
  await deliverBatch(run, items.slice(middle));
}
