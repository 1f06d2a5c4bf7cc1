import { BiasAuditError } from '../bias-audit-error.js';

/** Checks two equally long arrays of finite numbers, naming the first bad element. */
export function validatePairs(x: readonly number[], y: readonly number[]): void {
  if (!Array.isArray(x) || !Array.isArray(y)) {
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: 'x and y must both be arrays of numbers.' });
  }
  if (x.length !== y.length) {
    throw new BiasAuditError({
      code: 'INVALID_INPUT',
      message: `x and y must be paired, but x has ${x.length} values and y has ${y.length}. Pass one value of each per observation.`,
    });
  }
  for (let i = 0; i < x.length; i++) {
    if (typeof x[i] !== 'number' || !Number.isFinite(x[i]) || typeof y[i] !== 'number' || !Number.isFinite(y[i])) {
      throw new BiasAuditError({
        code: 'INVALID_INPUT',
        message: `Pair ${i} is (${String(x[i])}, ${String(y[i])}); every value must be a finite number. Drop incomplete pairs before calling.`,
      });
    }
  }
}
