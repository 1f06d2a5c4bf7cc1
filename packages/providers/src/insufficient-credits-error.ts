import { APICallError } from './api-call-error.js';
import type { APICallErrorOptions } from './api-call-error.js';
import { hasErrorMarker, markError } from './provider-error.js';

/** The account has no credits left for this call (HTTP 402). Never retried. */
export class InsufficientCreditsError extends APICallError {
  constructor(options: Omit<APICallErrorOptions, 'code' | 'isRetryable'>) {
    super({ ...options, code: 'INSUFFICIENT_CREDITS', isRetryable: false });
    this.name = 'InsufficientCreditsError';
    markError(this, 'InsufficientCreditsError');
  }

  static override isInstance(error: unknown): error is InsufficientCreditsError {
    return hasErrorMarker(error, 'InsufficientCreditsError');
  }
}
