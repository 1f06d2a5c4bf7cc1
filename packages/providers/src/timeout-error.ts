import { ProviderError, hasErrorMarker, markError } from './provider-error.js';

/** The call's deadline (`timeoutMs`, all attempts included) passed before it finished. */
export class TimeoutError extends ProviderError {
  readonly timeoutMs: number;
  readonly url: string | undefined;

  constructor(options: { message: string; timeoutMs: number; url?: string; cause?: unknown }) {
    super({ code: 'TIMEOUT', message: options.message, cause: options.cause });
    this.name = 'TimeoutError';
    this.timeoutMs = options.timeoutMs;
    this.url = options.url;
    markError(this, 'TimeoutError');
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return hasErrorMarker(error, 'TimeoutError');
  }
}
