import { ScoringError } from './scoring-error.js';

const TWO_POW_32 = 4294967296;

/** A uniform integer in [0, maxExclusive) from 32-bit draws, without modulo bias: the `nextInt` of every `Rng` here. */
export function uniformInt(nextUint32: () => number, maxExclusive: number): number {
  if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > TWO_POW_32) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `Rng.nextInt: maxExclusive must be an integer from 1 to 2^32, got ${String(maxExclusive)}.`,
    });
  }
  // Rejection sampling: accept only draws below the largest multiple of maxExclusive.
  const limit = TWO_POW_32 - (TWO_POW_32 % maxExclusive);
  let draw = nextUint32();
  while (draw >= limit) draw = nextUint32();
  return draw % maxExclusive;
}
