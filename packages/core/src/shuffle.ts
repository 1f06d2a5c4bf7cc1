import { randomInt } from './create-seeded-mulberry32.js';
import type { RandomSource } from './random-source.js';

/** A new array with the items of `items` in a uniformly random order (Fisher–Yates, driven by `rng`). */
export function shuffle<T>(items: readonly T[], rng: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    const tmp = out[i]!;
    out[i] = out[j]!;
    out[j] = tmp;
  }
  return out;
}
