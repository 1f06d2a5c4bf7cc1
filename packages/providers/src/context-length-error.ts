import { APICallError } from './api-call-error.js';
import type { APICallErrorOptions } from './api-call-error.js';
import { hasErrorMarker, markError } from './provider-error.js';

/**
 * The prompt does not fit the model's context window (OpenAI's `context_length_exceeded`, llama.cpp's "exceeds the
 * available context size", vLLM's `max_model_len`, Anthropic's "prompt is too long", …; see
 * `isContextLengthExceeded`). The message quotes the server and says what to do. Never retried: the same prompt
 * would fail again.
 */
export class ContextLengthError extends APICallError {
  constructor(options: Omit<APICallErrorOptions, 'code' | 'isRetryable'>) {
    super({ ...options, code: 'CONTEXT_LENGTH_EXCEEDED', isRetryable: false });
    this.name = 'ContextLengthError';
    markError(this, 'ContextLengthError');
  }

  static override isInstance(error: unknown): error is ContextLengthError {
    return hasErrorMarker(error, 'ContextLengthError');
  }
}
