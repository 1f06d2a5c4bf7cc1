import { ProviderError, hasErrorMarker, markError } from './provider-error.js';

/** The provider answered 2xx with a body this package cannot read: malformed JSON or the wrong shape. */
export class InvalidResponseError extends ProviderError {
  readonly url: string | undefined;
  /** The body, truncated and with the API key removed. */
  readonly responseBody: string | undefined;

  constructor(options: { message: string; url?: string; responseBody?: string; cause?: unknown }) {
    super({ code: 'INVALID_RESPONSE', message: options.message, cause: options.cause });
    this.name = 'InvalidResponseError';
    this.url = options.url;
    this.responseBody = options.responseBody;
    markError(this, 'InvalidResponseError');
  }

  static override isInstance(error: unknown): error is InvalidResponseError {
    return hasErrorMarker(error, 'InvalidResponseError');
  }
}
