import { BiasAuditError } from '../bias-audit-error.js';

/** Throws INVALID_INPUT unless `value` is a finite number (or ±Infinity when `allowInfinite`). */
export function assertNumber(value: unknown, what: string, allowInfinite = false): asserts value is number {
  if (typeof value !== 'number' || Number.isNaN(value) || (!allowInfinite && !Number.isFinite(value))) {
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message: `${what} must be a ${allowInfinite ? '' : 'finite '}number, got ${String(value)}. Check the data passed in; missing values should be left out, not sent as NaN.`,
    });
  }
}

/** Throws INVALID_INPUT unless `value` is a positive number (Infinity allowed where `allowInfinite`). */
export function assertPositive(value: unknown, what: string, allowInfinite = false): asserts value is number {
  assertNumber(value, what, allowInfinite);
  if (value <= 0) {
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: `${what} must be greater than 0, got ${value}.` });
  }
}

/** Throws INVALID_INPUT unless `p` is a probability in [0, 1]. */
export function assertProbability(p: unknown, what: string): asserts p is number {
  assertNumber(p, what);
  if (p < 0 || p > 1) {
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message: `${what} must be a probability between 0 and 1, got ${p}.`,
    });
  }
}

/** Throws INVALID_OPTION unless `level` is a confidence level strictly between 0 and 1. */
export function assertLevel(level: unknown, what = 'level'): asserts level is number {
  if (typeof level !== 'number' || !(level > 0 && level < 1)) {
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `${what} must be a confidence level strictly between 0 and 1 (e.g. 0.95), got ${String(level)}.`,
    });
  }
}
