const marker = Symbol.for('council.error.BiasStoreError');

/**
 * The failure kinds of this package; callers switch on `code`, never on the message.
 *
 * - `INVALID_RECORD`: an item handed to `append` or `recordsFromObservations` does not fit its schema.
 * - `INVALID_CONFIG`: an `LLM_COUNCIL_*` variable holds a value outside its accepted values.
 * - `INVALID_OPTION`: a function was called with options it cannot honour (e.g. a window on a store without timestamps).
 * - `INVALID_CURSOR`: a cursor file or cursor text is not a cursor this package wrote.
 * - `IO_ERROR`: the file system or a server refused (permissions, a directory where a file should be, a full disk, a
 *   ClickHouse server that is down or refuses a query…).
 * - `TOO_LARGE`: the work asked for would not fit in this process's memory (an engine's records of a large window).
 */
export type BiasStoreErrorCode =
  'INVALID_RECORD' | 'INVALID_CONFIG' | 'INVALID_OPTION' | 'INVALID_CURSOR' | 'IO_ERROR' | 'TOO_LARGE';

/**
 * The base error of this package. `isInstance` checks a global symbol rather than the
 * prototype chain, so it still works when two copies of the package are installed.
 */
export class BiasStoreError extends Error {
  readonly code: BiasStoreErrorCode;
  /**
   * For an `IO_ERROR` of the file system: the system's code (`ENOSPC`…, or `ENOTREG` for a FIFO, device or link where a
   * regular file belongs), what it means and what to do — for a caller that words its own message around it.
   */
  readonly problem?: { code: string; what: string; fix: string };

  constructor(options: {
    code: BiasStoreErrorCode;
    message: string;
    cause?: unknown;
    problem?: { code: string; what: string; fix: string };
  }) {
    super(options.message, { cause: options.cause });
    this.name = 'BiasStoreError';
    this.code = options.code;
    if (options.problem !== undefined) this.problem = options.problem;
    Object.defineProperty(this, marker, { value: true });
  }

  static isInstance(error: unknown): error is BiasStoreError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
