const marker = Symbol.for('council.error.TelemetryUploadError');

/**
 * The failure kinds of this app; callers switch on `code`, never on the message.
 *
 * - `USAGE`: the command line is wrong (unknown command or option, a bad number or interval).
 * - `MISSING_CONFIG`: `LLM_COUNCIL_CLOUD_URL` or `LLM_COUNCIL_CLOUD_TOKEN` is not set.
 * - `INVALID_CONFIG`: an environment variable holds a value outside its accepted values.
 * - `UNAUTHORIZED`: council-cloud answered 401 or 403; nothing moved.
 * - `CONSENT_VIOLATION`: a queued event carries a field above its own consent level (a bug upstream); nothing of it was sent.
 * - `UNAVAILABLE`: council-cloud could not be reached or kept failing (network, timeout, 408, 429, 5xx) after the retries.
 * - `UNEXPECTED_RESPONSE`: the address answered something that is not the ingest API (a redirect, 404, 405…); nothing moved.
 * - `INVALID_CURSOR`: `sent.cursor` points past the end of the outbox (it was replaced or cut short); nothing moved.
 * - `LOCKED`: another uploader holds the lock.
 * - `IO_ERROR`: the file system refused (outbox, cursor, dead-letter or lock file).
 */
export type TelemetryUploadErrorCode =
  | 'USAGE'
  | 'MISSING_CONFIG'
  | 'INVALID_CONFIG'
  | 'UNAUTHORIZED'
  | 'CONSENT_VIOLATION'
  | 'UNAVAILABLE'
  | 'UNEXPECTED_RESPONSE'
  | 'INVALID_CURSOR'
  | 'LOCKED'
  | 'IO_ERROR';

/**
 * The base error of this app. `isInstance` checks a global symbol rather than the prototype chain,
 * so it still works when two copies are installed. `isRetryable` says whether running again later may succeed.
 */
export class TelemetryUploadError extends Error {
  readonly code: TelemetryUploadErrorCode;
  readonly isRetryable: boolean;

  constructor(options: { code: TelemetryUploadErrorCode; message: string; isRetryable?: boolean; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'TelemetryUploadError';
    this.code = options.code;
    this.isRetryable = options.isRetryable ?? false;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is TelemetryUploadError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
