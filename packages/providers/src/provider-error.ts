const marker = Symbol.for('council.error.ProviderError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type ProviderErrorCode = 'INVALID_SETTINGS' | 'UNKNOWN_PROVIDER';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;

  constructor(options: { code: ProviderErrorCode; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'ProviderError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is ProviderError {
    return typeof error === 'object' && error !== null && marker in error && (error as Record<symbol, unknown>)[marker] === true;
  }
}
