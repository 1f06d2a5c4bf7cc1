import { BiasAuditError } from './bias-audit-error.js';
import { assertNumber } from './internal/assert.js';

/** Fisher's variance-stabilising transform z = atanh(r) = ½·ln((1 + r)/(1 − r)); ±Infinity at r = ±1. */
export function fisherZ(r: number): number {
  assertNumber(r, 'r');
  if (r < -1 || r > 1) {
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: `A correlation must lie in [−1, 1], got ${r}.` });
  }
  return Math.atanh(r);
}

/** The inverse of `fisherZ`: r = tanh(z), with ±Infinity mapping to ±1. */
export function inverseFisherZ(z: number): number {
  assertNumber(z, 'z', true);
  return Math.tanh(z);
}
