import { randomInt } from './create-seeded-mulberry32.js';
import type { RandomSource } from './random-source.js';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A per-session random token for the boundary markers around each answer in a review prompt
 * (`<<<{token} Response A>>>` … `<<<{token} END>>>`). Sixteen base-36 characters (~82 bits), drawn
 * from `rng`, so a seeded session uses the same token on every run and an answer cannot guess it.
 */
export function createBoundaryToken(rng: RandomSource): string {
  let token = '';
  for (let i = 0; i < 16; i++) token += alphabet[randomInt(rng, alphabet.length)];
  return token;
}
