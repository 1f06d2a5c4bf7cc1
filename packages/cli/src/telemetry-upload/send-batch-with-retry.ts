import type { TelemetryEvent } from '@council/core';
import { backoffDelay } from './backoff-delay.js';
import { fieldsAboveConsent } from './event-consent.js';
import type { IngestOutcome } from './ingest-client.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';
import type { UploadRun } from './upload-run.js';

/**
 * An answer about the events themselves: council-cloud took them (perhaps refusing some), refused some by name
 * and stored nothing, or the batch is too large for something on the way (only for more than one event).
 */
export type BatchAnswer = Extract<IngestOutcome, { kind: 'accepted' } | { kind: 'refused' } | { kind: 'too-large' }>;

/** A 413 for one event cannot be split: it is retried like any other failure, and the event stays queued. */
function asRetry(outcome: Extract<IngestOutcome, { kind: 'too-large' }>): Extract<IngestOutcome, { kind: 'retry' }> {
  return {
    kind: 'retry',
    status: outcome.status,
    reason: outcome.reason,
    retryAfterMs: outcome.retryAfterMs,
    client: true,
  };
}

/** The copy about to leave the machine, checked once more against its own consent level. */
function assertWithinConsent(events: readonly TelemetryEvent[]): void {
  for (const event of events) {
    const above = fieldsAboveConsent(event);
    if (above.length > 0) {
      throw new TelemetryUploadError({
        code: 'CONSENT_VIOLATION',
        message: `Event ${event.event_id} was about to be sent with ${above.map((a) => a.field).join(', ')} above its consent level ${event.consent_level}; nothing of it was sent. This is a bug: please report it.`,
      });
    }
  }
}

/**
 * Sends one batch until it is answered, retrying (408, 429, 5xx, network, timeout, and any 4xx that refuses no
 * event by name) with backoff that honours `Retry-After`; throws a TelemetryUploadError when the run must stop (and, when giving up on
 * a retryable failure, sets `summary.nextRetryAt`).
 */
export async function sendBatchWithRetry(run: UploadRun, events: TelemetryEvent[]): Promise<BatchAnswer> {
  const { settings, summary } = run;
  const client = settings.client!;
  for (let attempt = 1; ; attempt++) {
    assertWithinConsent(events);
    const sent = await client.send(events);
    const outcome = sent.kind === 'too-large' && events.length === 1 ? asRetry(sent) : sent;
    switch (outcome.kind) {
      case 'accepted':
      case 'refused':
      case 'too-large':
        return outcome;
      case 'unauthorized':
        throw new TelemetryUploadError({
          code: 'UNAUTHORIZED',
          message: `council-cloud refused the credentials (${outcome.reason}) at ${client.endpoint}. Check LLM_COUNCIL_CLOUD_TOKEN; nothing was sent and the outbox is unchanged.`,
        });
      case 'unexpected':
        // Not an answer about the events (a wrong address, a proxy, a redirect): dead-lettering them would lose them.
        throw new TelemetryUploadError({
          code: 'UNEXPECTED_RESPONSE',
          message: `${client.endpoint} answered ${outcome.reason}, which is not an answer of council-cloud's ingest API. Check LLM_COUNCIL_CLOUD_URL (council-cloud's base URL, without /v1/events); nothing was dead-lettered and the events stay queued.`,
        });
      case 'retry': {
        const delay = backoffDelay({
          attempt,
          retryAfterMs: outcome.retryAfterMs,
          random: settings.random,
          ...settings.backoff,
        });
        if (attempt >= settings.maxAttempts || delay > settings.maxWaitMs) {
          summary.nextRetryAt = new Date(settings.now() + delay).toISOString();
          throw new TelemetryUploadError({
            code: 'UNAVAILABLE',
            isRetryable: true,
            message: `council-cloud at ${client.endpoint} did not take the batch: ${outcome.reason}${attempt >= settings.maxAttempts ? ` (${attempt} attempts)` : `; it asked to wait ${Math.ceil(delay / 1000)} s`}. The events stay queued and nothing was dead-lettered; run again after ${summary.nextRetryAt}.${outcome.client === true ? ' If it goes on, check what answers at LLM_COUNCIL_CLOUD_URL: a proxy or gateway in between may be refusing the requests.' : ''}`,
          });
        }
        settings.onNotice(`attempt ${attempt} failed: ${outcome.reason}; retrying in ${(delay / 1000).toFixed(1)} s`);
        await settings.sleep(delay);
        break;
      }
      default: {
        const unreachable: never = outcome;
        throw new Error(`unexpected outcome ${String(unreachable)}`);
      }
    }
  }
}
