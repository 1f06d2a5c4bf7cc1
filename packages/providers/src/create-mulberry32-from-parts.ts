import { hashString } from './hash-string.js';

// A private generator on purpose: DESIGN.md lets @council/providers import ky and zod only, so it
// cannot use @council/scoring's RNG family without an arrow the map does not have. It is small, and the
// simulated personas' every answer, score and latency is keyed on it, so it stays exactly as it is.

/**
 * A deterministic generator in [0, 1): mulberry32 seeded by the hash (`hashString`) of `parts` joined by NUL, so
 * a call's seed, model, prompt and purpose each give their own stream. Not `@council/core`'s
 * `createSeededMulberry32` (one number or string seed, hashed otherwise), nor `@council/scoring`'s `createRng`
 * (xoshiro128**).
 */
export function createMulberry32FromParts(parts: readonly (string | number)[]): () => number {
  let state = hashString(parts.map(String).join('\u0000'));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
