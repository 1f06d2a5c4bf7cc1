import { describe, expect, it } from 'vitest';
import { createMulberry32 } from './create-mulberry32.js';
import { ScoringError } from './scoring-error.js';

// Reference values: Tommy Ettinger's mulberry32 in C, compiled with gcc —
//   uint32_t z = (*state += 0x6D2B79F5); z = (z ^ z >> 15) * (z | 1); z ^= z + (z ^ z >> 7) * (z | 61); return z ^ z >> 14;
// — started from the state named in each case; a string seed starts from its FNV-1a hash over UTF-8
// bytes, computed by the same C program ("council" → 1521590252).
describe('createMulberry32', () => {
  const take = (seed: number | string): number[] => {
    const rng = createMulberry32(seed);
    return Array.from({ length: 4 }, () => rng.nextUint32());
  };

  it('steps exactly as the reference C code', () => {
    expect(take(0)).toEqual([1144304738, 1416247, 958946056, 627933444]);
    expect(take(42)).toEqual([2581720956, 1925393290, 3661312704, 2876485805]);
    expect(take(4294967295)).toEqual([3850105811, 813802916, 3073704848, 4054706436]);
    expect(take('council')).toEqual([3240034970, 3695627275, 1349702643, 63719789]);
    expect(take('café')).toEqual([2090354745, 1313544062, 3664539837, 1137129082]);
  });

  it('uses the low 32 bits of an integer seed, and next() is one draw over 2^32', () => {
    expect(take(2 ** 32 + 42)).toEqual(take(42));
    expect(take(-1)).toEqual(take(4294967295));
    expect(createMulberry32(42).next()).toBe(2581720956 / 2 ** 32);
  });

  it('nextInt(n) lies in 0 … n − 1, each value about equally often', () => {
    const rng = createMulberry32(123);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60000; i++) counts[rng.nextInt(6)]!++;
    // Expected 10000 each; the standard deviation of a count is sqrt(60000 · 1/6 · 5/6) ≈ 91, so ±500 is > 5 sd.
    for (const count of counts) expect(Math.abs(count - 10000)).toBeLessThan(500);
  });

  it('rejects seeds it cannot honour', () => {
    expect(() => createMulberry32(1.5)).toThrow(ScoringError);
    expect(() => createMulberry32(Number.NaN)).toThrow(/an integer or a string/);
  });
});
