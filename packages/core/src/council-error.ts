const marker = Symbol.for('council.error.CouncilError');

/** The failure kinds of this package; callers switch on `code`, never on the message. */
export type CouncilErrorCode =
  /** An option to a function of this package is missing or out of range. */
  | 'INVALID_OPTION'
  /** Fewer members answered in stage 1 than the quorum requires. */
  | 'QUORUM_NOT_MET'
  /** A configuration file, layer or environment variable is invalid. */
  | 'INVALID_CONFIG'
  /** A strategy key names no directive in the configuration cascade. */
  | 'UNKNOWN_STRATEGY'
  /** An `@name` in a member list names no pool of the configuration. */
  | 'UNKNOWN_POOL'
  /** A personality (YAML file or evolved) does not validate. */
  | 'PERSONALITY_INVALID'
  /** A model call that the operation cannot do without failed (e.g. the evolution model). */
  | 'MODEL_FAILED'
  /** The caller's abort signal fired. */
  | 'ABORTED';

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
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
