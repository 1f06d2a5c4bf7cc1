import type { Rng } from './create-rng.js';
import { seedWord } from './seed-word.js';
import { uniformInt } from './uniform-int.js';

/**
 * Creates mulberry32 (Tommy Ettinger's 32-bit generator): one word of state, one 32-bit draw per
 * `next()` (so `next()` has 32 random bits, not `createRng`'s 53). Smaller and weaker than `createRng`;
 * it is here because `@council/core`'s seeded sessions (orders, labels, boundary tokens, reviewer samples)
 * have always drawn from it, and a seed must keep giving the same session. A number seed must be an
 * integer and its low 32 bits are the state; a string seed is hashed with FNV-1a over its UTF-8 bytes.
 */
export function createMulberry32(seed: number | string): Rng {
  let state = seedWord(seed, 'createMulberry32');
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    nextUint32,
    next: (): number => nextUint32() / 4294967296,
    nextInt: (maxExclusive: number): number => uniformInt(nextUint32, maxExclusive),
  };
}
