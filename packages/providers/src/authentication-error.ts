import { APICallError } from './api-call-error.js';
import type { APICallErrorOptions } from './api-call-error.js';
import { hasErrorMarker, markError } from './provider-error.js';

/** The API key was missing, wrong or lacks permission (HTTP 401 or 403). Never retried. */
export class AuthenticationError extends APICallError {
  constructor(options: Omit<APICallErrorOptions, 'code' | 'isRetryable'>) {
    super({ ...options, code: 'AUTHENTICATION', isRetryable: false });
    this.name = 'AuthenticationError';
    markError(this, 'AuthenticationError');
  }

  static override isInstance(error: unknown): error is AuthenticationError {
    return hasErrorMarker(error, 'AuthenticationError');
  }
}
