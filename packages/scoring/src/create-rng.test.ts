import { describe, expect, it } from 'vitest';
import { createRng, createRngFromState } from './create-rng.js';
import { ScoringError } from './scoring-error.js';

// Reference values: Vigna's reference C code xoshiro128starstar.c (prng.di.unimi.it), and a
// splitmix32 seeder (x += 0x9e3779b9; z = (z ^ z>>16) * 0x21f0aaad; z = (z ^ z>>15) * 0x735a2d97;
// z ^ z>>15 — Wellons' "lowbias32" finaliser) written in C and compiled with gcc:
//   seed(lo, hi): x = lo; s0 = sm(); s1 = sm(); x ^= hi; s2 = sm(); s3 = sm();
// FNV-1a 32-bit vectors are the published ones of the FNV test suite (Noll): "a" → 0xe40c292c,
// "foobar" → 0xbf9cf968.
describe('createRng', () => {
  it("steps xoshiro128** exactly as the reference C code (state 1, 2, 3, 4; also rand_xoshiro's test vector)", () => {
    const rng = createRngFromState([1, 2, 3, 4]);
    expect(Array.from({ length: 6 }, () => rng.nextUint32())).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492,
    ]);
  });

  it('seeds through splitmix32 as the C reference does, using both halves of a 64-bit seed', () => {
    const take = (seed: number | string): number[] => {
      const rng = createRng(seed);
      return Array.from({ length: 4 }, () => rng.nextUint32());
    };
    expect(take(42)).toEqual([660444221, 3652823732, 77672526, 910233633]);
    expect(take(0)).toEqual([1789933344, 44971166, 2521387044, 3848737593]);
    expect(take(-1)).toEqual([4104197751, 2263653623, 3191742873, 2112076508]); // lo = hi = 0xffffffff
    expect(take(2 ** 32 + 1)).toEqual([393288148, 4155725614, 3709563501, 954221178]); // lo = hi = 1
    // fnv1a("council") seeds the string; the C program computed the same hash then seeded with it.
    expect(take('council')).toEqual([3705764435, 2244137117, 588835432, 1525284469]);
  });

  it('gives the same numbers for the same seed and different numbers for different seeds', () => {
    const a = createRng(7);
    const b = createRng(7);
    const c = createRng(8);
    const seqA = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 50 }, () => c.next())).not.toEqual(seqA);
  });

  it('next() lies in [0, 1) and nextInt(n) in 0 … n − 1, each value about equally often', () => {
    const rng = createRng(123);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60000; i++) {
      const x = rng.next();
      expect(x >= 0 && x < 1).toBe(true);
      counts[rng.nextInt(6)]!++;
    }
    // Expected 10000 each; the standard deviation of a count is sqrt(60000 · 1/6 · 5/6) ≈ 91, so ±500 is > 5 sd.
    for (const count of counts) expect(Math.abs(count - 10000)).toBeLessThan(500);
    expect(rng.nextInt(1)).toBe(0);
  });

  it('rejects seeds and bounds it cannot honour', () => {
    expect(() => createRng(1.5)).toThrow(ScoringError);
    expect(() => createRng(Number.NaN)).toThrow(/safe integer or a string/);
    expect(() => createRng(2 ** 60)).toThrow(ScoringError);
    const rng = createRng(1);
    expect(() => rng.nextInt(0)).toThrow(/integer from 1 to 2\^32/);
    expect(() => rng.nextInt(2.5)).toThrow(ScoringError);
  });
});
