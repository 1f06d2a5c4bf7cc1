const marker = Symbol.for('council.error.BiasStoreError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type BiasStoreErrorCode = 'INVALID_RECORD' | 'INVALID_CONFIG' | 'IO_ERROR';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class BiasStoreError extends Error {
  readonly code: BiasStoreErrorCode;

  constructor(options: { code: BiasStoreErrorCode; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'BiasStoreError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is BiasStoreError {
    return typeof error === 'object' && error !== null && marker in error && (error as Record<symbol, unknown>)[marker] === true;
  }
}
