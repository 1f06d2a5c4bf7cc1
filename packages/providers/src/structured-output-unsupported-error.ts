import { APICallError } from './api-call-error.js';
import type { APICallErrorOptions } from './api-call-error.js';
import { hasErrorMarker, markError } from './provider-error.js';

/**
 * The server refused a request with `responseFormat` (structured output): it does not support JSON-schema
 * replies for this model (see `isStructuredOutputRefusal`). The provider remembers the refusal for its base URL
 * and model for the life of the process: later calls with `responseFormat` fail at once with this error
 * (`remembered` true) and send nothing. The council falls back to text reviews. Never retried.
 */
export class StructuredOutputUnsupportedError extends APICallError {
  /** True when no request was sent: an earlier call to this base URL and model was refused. */
  readonly remembered: boolean;

  constructor(options: Omit<APICallErrorOptions, 'code' | 'isRetryable'> & { remembered?: boolean }) {
    super({ ...options, code: 'STRUCTURED_OUTPUT_UNSUPPORTED', isRetryable: false });
    this.name = 'StructuredOutputUnsupportedError';
    this.remembered = options.remembered ?? false;
    markError(this, 'StructuredOutputUnsupportedError');
  }

  static override isInstance(error: unknown): error is StructuredOutputUnsupportedError {
    return hasErrorMarker(error, 'StructuredOutputUnsupportedError');
  }
}
