import { asUploadError } from './as-upload-error.js';
import { commitOutboxItems } from './commit-outbox-items.js';
import { deliverBatch } from './deliver-batch.js';
import { previewBatch } from './preview-batch.js';
import type { OutboxBatch } from './read-outbox-batch.js';
import { readOutboxBatch } from './read-outbox-batch.js';
import type { UploadRun } from './upload-run.js';

async function handleBatch(run: UploadRun, batch: OutboxBatch): Promise<void> {
  if (batch.items.length === 0) return;
  if (run.settings.dryRun) previewBatch(run, batch.items);
  else if (batch.events === 0)
    await commitOutboxItems(run, batch.items); // only set-aside lines
  else await deliverBatch(run, batch.items);
}

/**
 * Reads the outbox from `run.position` batch by batch and sends (or previews) each, until the outbox
 * is exhausted, `maxEvents` were handed over, or the run must stop; why it stopped goes to
 * `summary.error`, never thrown.
 */
export async function drainOutbox(run: UploadRun): Promise<void> {
  const { batchSize, maxEvents } = run.settings;
  const scan = run.outbox.scan(run.position);
  let handed = 0; // events handed to council-cloud (or, in a dry run, printed)
  try {
    for (let exhausted = false; !exhausted && handed < maxEvents;) {
      const batch = await readOutboxBatch(run, scan, Math.min(batchSize, maxEvents - handed));
      await handleBatch(run, batch);
      handed += batch.events;
      exhausted = batch.exhausted;
      if (batch.violation !== null) throw batch.violation;
    }
  } catch (error) {
    run.summary.error = asUploadError(error);
  } finally {
    await scan.return?.(undefined);
  }
}
