import type { JsonlCursor } from '@council/bias-store';
import { openTelemetryOutbox } from '@council/bias-store';
import { asUploadError } from './as-upload-error.js';
import { drainOutbox } from './drain-outbox.js';
import { readUploadStart } from './read-upload-start.js';
import type { UploadRun } from './upload-run.js';
import type { UploadOutboxOptions } from './upload-settings.js';
import { resolveUploadSettings } from './upload-settings.js';
import type { UploadSummary } from './upload-summary.js';
import { emptyUploadSummary } from './upload-summary.js';

export type { UploadOutboxOptions } from './upload-settings.js';
export type { UploadSummary } from './upload-summary.js';

/** Counts the events still queued past where the run got to; a failure is reported, not thrown. */
async function countRemaining(run: UploadRun): Promise<void> {
  try {
    run.summary.remaining = await run.outbox.countPending(run.position);
  } catch (error) {
    run.summary.error ??= asUploadError(error);
    run.summary.remaining = null;
  }
}

/**
 * Drains the outbox from the cursor: validates every event against the schema and its own consent
 * level, sends batches, and after each 2xx dead-letters the events council-cloud refused by name and
 * moves the cursor atomically. Each event's `event_id` is its idempotency key, so an event sent again
 * (a lost answer, another batch size) is stored once. Retryable failures (408, 429, 5xx, network,
 * timeout, and any 4xx that names no event of the batch, such as a proxy's page) are retried with
 * backoff that honours `Retry-After`, then left queued; a 4xx naming events drops those and sends the
 * rest again; a 413 naming none splits the batch; 401/403 stop at once.
 * Returns a summary; expected failures are in `summary.error`, never thrown.
 */
export async function uploadOutbox(options: UploadOutboxOptions): Promise<UploadSummary> {
  const settings = resolveUploadSettings(options);
  // Lines come as plain objects, judged by `classifyOutboxEvent`: a consent violation must stop the upload, not be skipped as invalid.
  const outbox = openTelemetryOutbox(settings.paths);
  const summary = emptyUploadSummary(settings.dryRun);
  let start: JsonlCursor;
  try {
    start = await readUploadStart(outbox);
  } catch (error) {
    summary.error = asUploadError(error);
    summary.remaining = null;
    return summary;
  }
  const run: UploadRun = { settings, outbox, summary, position: start };
  await drainOutbox(run);
  await countRemaining(run);
  return summary;
}
