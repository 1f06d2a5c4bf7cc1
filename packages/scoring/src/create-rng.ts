import { fnv1a } from './fnv1a.js';
import { lowbias32 } from './lowbias32.js';
import { ScoringError } from './scoring-error.js';
import { uniformInt } from './uniform-int.js';

/** A seeded pseudo-random number generator: same seed, same numbers, on every runtime. */
export interface Rng {
  /** The next unsigned 32-bit integer (0 … 2³² − 1). */
  nextUint32(): number;
  /** A uniform float in [0, 1): 53 random bits from `createRng`, 32 from `createMulberry32` and `createSfc32`. */
  next(): number;
  /** A uniform integer in [0, maxExclusive), without modulo bias. `maxExclusive` is an integer in 1 … 2³². */
  nextInt(maxExclusive: number): number;
}

const TWO_POW_32 = 4294967296;

/**
 * Creates a seeded generator: xoshiro128** (Blackman & Vigna), its 128-bit state filled by splitmix32
 * from the seed. A number seed must be a safe integer (its low and high 32 bits both count); a string
 * seed is hashed with FNV-1a over its UTF-8 bytes. Only 32-bit integer arithmetic is used, so every
 * JavaScript engine produces the same sequence.
 */
export function createRng(seed: number | string): Rng {
  let lo: number;
  let hi: number;
  if (typeof seed === 'string') {
    lo = fnv1a(seed);
    hi = 0;
  } else if (typeof seed === 'number' && Number.isSafeInteger(seed)) {
    lo = seed >>> 0;
    hi = Math.floor(seed / TWO_POW_32) >>> 0;
  } else {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `createRng: the seed must be a safe integer or a string, got ${String(seed)}. Pass e.g. 42 or "session-17".`,
    });
  }
  let x = lo;
  const splitmix32 = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    return lowbias32(x);
  };
  const s0 = splitmix32();
  const s1 = splitmix32();
  x = (x ^ hi) >>> 0;
  const s2 = splitmix32();
  const s3 = splitmix32();
  // xoshiro must not start from the all-zero state; splitmix32 practically never yields it.
  return createRngFromState([(s0 | s1 | s2 | s3) === 0 ? 1 : s0, s1, s2, s3]);
}

/**
 * The generator from an explicit xoshiro128** state (four unsigned 32-bit words, not all zero).
 * Internal: exported from this module so its tests can compare with the reference C code.
 */
export function createRngFromState(state: readonly [number, number, number, number]): Rng {
  let [s0, s1, s2, s3] = state;
  const nextUint32 = (): number => {
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  };

  return {
    nextUint32,
    next: (): number => ((nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6)) / 9007199254740992,
    nextInt: (maxExclusive: number): number => uniformInt(nextUint32, maxExclusive),
  };
}
