import { ProviderError, hasErrorMarker, markError } from './provider-error.js';
import { scrubSecrets } from './scrub-secrets.js';
import type { ProviderErrorCode } from './provider-error.js';

export interface APICallErrorOptions {
  message: string;
  /** The provider's name, e.g. `openrouter`. */
  provider: string;
  /** The request URL; kept scrubbed of its credentials and query-string keys. */
  url: string;
  /** The HTTP status, or undefined when no response arrived (a reset connection). */
  statusCode?: number;
  isRetryable: boolean;
  /** The response body, truncated and with the API key removed (and scrubbed, as the message is). */
  responseBody?: string;
  modelId?: string;
  cause?: unknown;
  /** Set by subclasses. */
  code?: ProviderErrorCode;
}

/** A call to a provider's API failed: an HTTP error status, an error in a 200 body, or a network failure. */
export class APICallError extends ProviderError {
  readonly provider: string;
  readonly url: string;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly responseBody: string | undefined;
  readonly modelId: string | undefined;

  constructor(options: APICallErrorOptions) {
    super({ code: options.code ?? 'API_CALL', message: options.message, cause: options.cause });
    this.name = 'APICallError';
    this.provider = options.provider;
    this.url = scrubSecrets(options.url);
    this.statusCode = options.statusCode;
    this.isRetryable = options.isRetryable;
    this.responseBody = options.responseBody === undefined ? undefined : scrubSecrets(options.responseBody);
    this.modelId = options.modelId;
    markError(this, 'APICallError');
  }

  static override isInstance(error: unknown): error is APICallError {
    return hasErrorMarker(error, 'APICallError');
  }
}
