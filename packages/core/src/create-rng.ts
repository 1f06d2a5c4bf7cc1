import type { Rng } from './rng.js';

/** FNV-1a over the UTF-16 code units of a string: a 32-bit seed from text such as `LLM_COUNCIL_RANDOM_SEED`. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A seeded PRNG (mulberry32): the same seed gives the same sequence on every run and runtime.
 * A numeric seed is used as its low 32 bits (fractions are truncated); a string seed is hashed.
 */
export function createRng(seed: number | string): Rng {
  let state = typeof seed === 'number' ? Math.trunc(seed) >>> 0 : hashSeed(seed);
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** An integer in [0, n), from one draw of `rng`. */
export function randomInt(rng: Rng, n: number): number {
  return Math.min(n - 1, Math.floor(rng.next() * n));
}
