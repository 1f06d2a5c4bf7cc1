import { randomInt } from './create-seeded-mulberry32.js';
import type { RandomSource } from './random-source.js';

/** A version-4-shaped UUID drawn from `rng`: the same for the same seed on every run (so never a session id, which must be unique). */
export function uuidFromRng(rng: RandomSource): string {
  const hex = Array.from({ length: 32 }, () => randomInt(rng, 16).toString(16));
  hex[12] = '4';
  hex[16] = (8 + randomInt(rng, 4)).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
