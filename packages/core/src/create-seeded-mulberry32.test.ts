import { describe, expect, it } from 'vitest';
import { createRng, randomInt } from './create-rng.js';

describe('createRng', () => {
  it('gives the same sequence for the same seed, and a different one for another seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    const seqB = Array.from({ length: 20 }, () => b.next());
    const seqC = Array.from({ length: 20 }, () => c.next());
    expect(seqA).toEqual(seqB);
    expect(seqA).not.toEqual(seqC);
  });

  it('accepts text seeds such as an environment variable', () => {
    const a = Array.from({ length: 5 }, createRngSequence('council'));
    const b = Array.from({ length: 5 }, createRngSequence('council'));
    expect(a).toEqual(b);
    expect(a).not.toEqual(Array.from({ length: 5 }, createRngSequence('councils')));
  });

  it('stays in [0, 1) and is roughly uniform', () => {
    const rng = createRng(7);
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
    const rng = createRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) seen.add(randomInt(rng, 6));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

function createRngSequence(seed: string): () => number {
  const rng = createRng(seed);
  return () => rng.next();
}
