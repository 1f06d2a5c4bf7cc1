import { APICallError } from './api-call-error.js';
import type { APICallErrorOptions } from './api-call-error.js';
import { hasErrorMarker, markError } from './provider-error.js';

/**
 * The provider does not serve the requested model (HTTP 404, e.g. OpenRouter's "No endpoints found"
 * for a stale model id). The message names the model. Never retried.
 */
export class ModelNotFoundError extends APICallError {
  declare readonly modelId: string;

  constructor(options: Omit<APICallErrorOptions, 'code' | 'isRetryable' | 'modelId'> & { modelId: string }) {
    super({ ...options, code: 'MODEL_NOT_FOUND', isRetryable: false });
    this.name = 'ModelNotFoundError';
    markError(this, 'ModelNotFoundError');
  }

  static override isInstance(error: unknown): error is ModelNotFoundError {
    return hasErrorMarker(error, 'ModelNotFoundError');
  }
}
