import { BiasAuditError } from './bias-audit-error.js';

/** A fast, seeded pseudo-random source (sfc32): the same seed gives the same stream on every platform. */
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
 * Creates a seeded generator: sfc32 (Doty-Humphrey's small fast counting generator, 128-bit state)
 * seeded through splitmix32 so nearby seeds give unrelated streams.
 */
export function createSeededRandom(seed: number): SeededRandom {
  if (!Number.isInteger(seed)) {
    throw new BiasAuditError({ code: 'INVALID_OPTION', message: `seed must be an integer, got ${String(seed)}.` });
  }
  let state = seed >>> 0;
  const splitmix = (): number => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const nextUint = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) nextUint();
  let spare: number | null = null;
  const next = (): number => nextUint() / 4294967296;
  return {
    next,
    integer: (n: number): number => Math.floor(next() * n),
    uint32: nextUint,
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
