import type { TelemetryUploadError } from './telemetry-upload-error.js';

export interface UploadSummary {
  dryRun: boolean;
  /** Events council-cloud took (in a dry run: would be sent), including those it already held. */
  sent: number;
  /**
   * Of `sent`, events council-cloud answered it already held (by `event_id`): an earlier request stored them but
   * its answer was lost, or `retry-dead` queued them again. Stored once, not twice.
   */
  alreadyHeld: number;
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

/** The summary of a run that has done nothing yet. */
export function emptyUploadSummary(dryRun: boolean): UploadSummary {
  return {
    dryRun,
    sent: 0,
    alreadyHeld: 0,
    rejected: 0,
    setAside: 0,
    reduced: 0,
    batches: 0,
    remaining: 0,
    incompleteTail: false,
    nextRetryAt: null,
    error: null,
  };
}
