import { describe, expect, it } from 'vitest';
import { createSfc32 } from './create-sfc32.js';
import { ScoringError } from './scoring-error.js';

// Reference values: sfc32 as in PractRand (Doty-Humphrey) in C, compiled with gcc —
//   t = a + b + d; d += 1; a = b ^ b >> 9; b = c + (c << 3); c = (c << 21 | c >> 11) + t; return t;
// — its state a, b, c, d taken from four splitmix32 steps from the seed (x += 0x9e3779b9;
// z = (z ^ z>>16) * 0x21f0aaad; z = (z ^ z>>15) * 0x735a2d97; z ^ z>>15) and 12 outputs discarded.
// A string seed starts from its FNV-1a hash over UTF-8 bytes ("council" → 1521590252).
describe('createSfc32', () => {
  const take = (seed: number | string): number[] => {
    const rng = createSfc32(seed);
    return Array.from({ length: 4 }, () => rng.nextUint32());
  };

  it('steps exactly as the reference C code', () => {
    expect(take(0)).toEqual([548183886, 1097162541, 2219297441, 1664216021]);
    expect(take(42)).toEqual([3825871779, 1851418855, 1383259262, 890322987]);
    expect(take(4294967295)).toEqual([2246433216, 2156899173, 2040853526, 3823104220]);
    expect(take('council')).toEqual([3687697846, 2083360010, 191288665, 473236094]);
  });

  it('uses the low 32 bits of an integer seed, and next() is one draw over 2^32', () => {
    expect(take(2 ** 32 + 42)).toEqual(take(42));
    expect(take(-1)).toEqual(take(4294967295));
    expect(createSfc32(42).next()).toBe(3825871779 / 2 ** 32);
  });

  it('nextInt(n) lies in 0 … n − 1, each value about equally often', () => {
    const rng = createSfc32(123);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60000; i++) counts[rng.nextInt(6)]!++;
    // Expected 10000 each; the standard deviation of a count is sqrt(60000 · 1/6 · 5/6) ≈ 91, so ±500 is > 5 sd.
    for (const count of counts) expect(Math.abs(count - 10000)).toBeLessThan(500);
  });

  it('rejects seeds it cannot honour', () => {
    expect(() => createSfc32(1.5)).toThrow(ScoringError);
    expect(() => createSfc32(Number.NaN)).toThrow(/an integer or a string/);
  });
});
