import { APICallError } from './api-call-error.js';
import type { APICallErrorOptions } from './api-call-error.js';
import { hasErrorMarker, markError } from './provider-error.js';

/** The provider refused the call for now (HTTP 429). Retried after `retryAfterMs` when the deadline allows. */
export class RateLimitError extends APICallError {
  /** How long the provider asked us to wait (from `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(options: Omit<APICallErrorOptions, 'code' | 'isRetryable'> & { retryAfterMs?: number }) {
    super({ ...options, code: 'RATE_LIMIT', isRetryable: true });
    this.name = 'RateLimitError';
    this.retryAfterMs = options.retryAfterMs;
    markError(this, 'RateLimitError');
  }

  static override isInstance(error: unknown): error is RateLimitError {
    return hasErrorMarker(error, 'RateLimitError');
  }
}
