import { scrubSecrets } from './scrub-secrets.js';

const marker = Symbol.for('council.error.ProviderError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type ProviderErrorCode =
  | 'INVALID_SETTINGS'
  | 'UNKNOWN_PROVIDER'
  | 'MISSING_API_KEY'
  | 'API_CALL'
  | 'AUTHENTICATION'
  | 'INSUFFICIENT_CREDITS'
  | 'MODEL_NOT_FOUND'
  | 'RATE_LIMIT'
  | 'TIMEOUT'
  | 'INVALID_RESPONSE'
  | 'EMPTY_RESPONSE'
  | 'RESPONSE_TOO_LARGE'
  | 'CONTEXT_LENGTH_EXCEEDED'
  | 'STRUCTURED_OUTPUT_UNSUPPORTED';

/** Tags an error with a global `Symbol.for('council.error.<name>')` marker that `isInstance` checks. */
export function markError(error: Error, name: string): void {
  Object.defineProperty(error, Symbol.for(`council.error.${name}`), { value: true, enumerable: false });
}

/** True when `error` carries the global marker of the named error class. */
export function hasErrorMarker(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  return (error as Record<symbol, unknown>)[Symbol.for(`council.error.${name}`)] === true;
}

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 * Its message is scrubbed of URL credentials and query-string keys (`scrubSecrets`) whatever built it.
 */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;

  constructor(options: { code: ProviderErrorCode; message: string; cause?: unknown }) {
    super(scrubSecrets(options.message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is ProviderError {
    return hasErrorMarker(error, 'ProviderError');
  }
}
