import { createSfc32 } from '@council/scoring';
import { BiasAuditError } from './bias-audit-error.js';

/** A fast, seeded pseudo-random source (sfc32, from `@council/scoring`): the same seed gives the same stream on every platform. */
export interface SeededRandom {
  /** A uniform number in [0, 1) with 32 random bits. */
  next(): number;
  /** A uniform integer in [0, n). */
  integer(n: number): number;
  /** 32 uniform random bits as an unsigned integer. */
  uint32(): number;
  /** A standard normal variate (Box–Muller, both values of each pair used). */
  normal(): number;
}

/**
 * Creates a seeded generator: `@council/scoring`'s `createSfc32` (sfc32, seeded through splitmix32 so
 * nearby seeds give unrelated streams), with `integer` and `normal` on top. The same seed gives the
 * same stream as it always has.
 */
export function createSeededSfc32(seed: number): SeededRandom {
  if (!Number.isInteger(seed)) {
    throw new BiasAuditError({ code: 'INVALID_OPTION', message: `seed must be an integer, got ${String(seed)}.` });
  }
  const sfc32 = createSfc32(seed);
  const next = (): number => sfc32.next();
  let spare: number | null = null;
  return {
    next,
    integer: (n: number): number => Math.floor(next() * n),
    uint32: (): number => sfc32.nextUint32(),
    normal: (): number => {
      if (spare !== null) {
        const value = spare;
        spare = null;
        return value;
      }
      let u = next();
      while (u === 0) u = next();
      const v = next();
      const radius = Math.sqrt(-2 * Math.log(u));
      spare = radius * Math.sin(2 * Math.PI * v);
      return radius * Math.cos(2 * Math.PI * v);
    },
  };
}
