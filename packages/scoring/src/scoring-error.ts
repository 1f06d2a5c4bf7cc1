const marker = Symbol.for('council.error.ScoringError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type ScoringErrorCode =
  | 'EMPTY_CANDIDATES'
  | 'DUPLICATE_CANDIDATE'
  | 'INVALID_CANDIDATE'
  | 'INVALID_WEIGHT'
  | 'INVALID_BALLOT'
  | 'INVALID_OPTION'
  | 'INVALID_SESSION'
  | 'DUPLICATE_SESSION'
  | 'INSUFFICIENT_DATA';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class ScoringError extends Error {
  readonly code: ScoringErrorCode;

  constructor(options: { code: ScoringErrorCode; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'ScoringError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is ScoringError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
