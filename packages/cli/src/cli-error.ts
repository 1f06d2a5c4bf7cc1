const marker = Symbol.for('council.error.CliError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type CliErrorCode = 'USAGE' | 'RUNTIME';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class CliError extends Error {
  readonly code: CliErrorCode;

  constructor(options: { code: CliErrorCode; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'CliError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is CliError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
