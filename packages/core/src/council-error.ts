const marker = Symbol.for('council.error.CouncilError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type CouncilErrorCode = 'INVALID_OPTIONS' | 'QUORUM_NOT_MET' | 'CONFIG_INVALID';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class CouncilError extends Error {
  readonly code: CouncilErrorCode;

  constructor(options: { code: CouncilErrorCode; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.name = 'CouncilError';
    this.code = options.code;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is CouncilError {
    return typeof error === 'object' && error !== null && marker in error && (error as Record<symbol, unknown>)[marker] === true;
  }
}
