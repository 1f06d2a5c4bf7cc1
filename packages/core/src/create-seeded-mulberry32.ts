import { createMulberry32 } from '@council/scoring';
import type { RandomSource } from './random-source.js';

/**
 * A session's seeded generator: `@council/scoring`'s mulberry32, the algorithm seeded sessions have
 * always used, so a seed keeps giving the same orders, labels, boundary token and reviewer sample (never the
 * session id, which `runCouncil` draws fresh for every run). A numeric
 * seed is used as its low 32 bits (fractions are truncated); a string seed is hashed (FNV-1a, UTF-8).
 */
export function createSeededMulberry32(seed: number | string): RandomSource {
  return createMulberry32(typeof seed === 'number' ? Math.trunc(seed) >>> 0 : seed);
}

/** An integer in [0, n), from one draw of `rng`. */
export function randomInt(rng: RandomSource, n: number): number {
  return Math.min(n - 1, Math.floor(rng.next() * n));
}
