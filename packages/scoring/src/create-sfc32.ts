import type { Rng } from './create-rng.js';
import { lowbias32 } from './lowbias32.js';
import { seedWord } from './seed-word.js';
import { uniformInt } from './uniform-int.js';

/**
 * Creates sfc32 (Chris Doty-Humphrey's small fast counting generator, 128-bit state), its state filled
 * by splitmix32 from the seed so nearby seeds give unrelated streams, then 12 draws discarded. One
 * 32-bit draw per `next()` (32 random bits, like `createMulberry32`). It is here because
 * `@council/bias-audit`'s resampling, permutation tests and simulations have always drawn from it,
 * and a seed must keep giving the same report. A number seed must be an integer and its low 32 bits
 * seed it; a string seed is hashed with FNV-1a over its UTF-8 bytes.
 */
export function createSfc32(seed: number | string): Rng {
  let state = seedWord(seed, 'createSfc32');
  const splitmix32 = (): number => {
    state = (state + 0x9e3779b9) | 0;
    return lowbias32(state);
  };
  let a = splitmix32();
  let b = splitmix32();
  let c = splitmix32();
  let d = splitmix32();
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) nextUint32();
  return {
    nextUint32,
    next: (): number => nextUint32() / 4294967296,
    nextInt: (maxExclusive: number): number => uniformInt(nextUint32, maxExclusive),
  };
}
