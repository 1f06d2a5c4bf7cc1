import type { OutboxItem, UploadRun } from './upload-run.js';

/** A dry run's batch: hands the body that would be sent to `onDryRunBatch` and counts it as sent; nothing is committed. */
export function previewBatch(run: UploadRun, items: readonly OutboxItem[]): void {
  const sendable = items.filter((item) => item.event !== undefined).map((item) => item.event!);
  if (sendable.length > 0) {
    run.settings.onDryRunBatch?.({ events: sendable });
    run.summary.batches++;
    run.summary.sent += sendable.length;
  }
  run.position = items.at(-1)!.entry.next;
}
