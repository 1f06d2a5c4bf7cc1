import { describe, expect, it } from 'vitest';
import { createSeededMulberry32, randomInt } from './create-seeded-mulberry32.js';

describe('createSeededMulberry32', () => {
  it('gives the same sequence for the same seed, and a different one for another seed', () => {
    const a = createSeededMulberry32(42);
    const b = createSeededMulberry32(42);
    const c = createSeededMulberry32(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    const seqB = Array.from({ length: 20 }, () => b.next());
    const seqC = Array.from({ length: 20 }, () => c.next());
    expect(seqA).toEqual(seqB);
    expect(seqA).not.toEqual(seqC);
  });

  it('accepts text seeds such as an environment variable', () => {
    const a = Array.from({ length: 5 }, seededSequence('council'));
    const b = Array.from({ length: 5 }, seededSequence('council'));
    expect(a).toEqual(b);
    expect(a).not.toEqual(Array.from({ length: 5 }, seededSequence('councils')));
  });

  it('stays in [0, 1) and is roughly uniform', () => {
    const rng = createSeededMulberry32(7);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) {
      const x = rng.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      buckets[Math.floor(x * 10)]!++;
    }
    // Each bucket expects 1,000; ±150 is more than 4 standard deviations (σ = 30).
    for (const count of buckets) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });

  it('randomInt covers exactly [0, n)', () => {
    const rng = createSeededMulberry32(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(randomInt(rng, 6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

function seededSequence(seed: string): () => number {
  const rng = createSeededMulberry32(seed);
  return () => rng.next();
}
