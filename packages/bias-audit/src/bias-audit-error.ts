const marker = Symbol.for('council.error.BiasAuditError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type BiasAuditErrorCode = 'INVALID_INPUT' | 'INVALID_OPTION';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class BiasAuditError extends Error {
  readonly code: BiasAuditErrorCode;

  constructor(options: { code: BiasAuditErrorCode; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'BiasAuditError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is BiasAuditError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
