import { describe, expect, it } from 'vitest';
import { createRng } from './create-rng.js';
import { sampleBinomial } from './sample-binomial.js';

describe('sampleBinomial', () => {
  it('has the binomial mean np and variance np(1 − p), on both the small-mean and the from-the-mode paths', () => {
    const rng = createRng(77);
    // (trials, p): small mean (inversion from 0), large mean (chop-down from the mode), p > ½ (reflected).
    for (const [trials, p] of [
      [30, 0.2],
      [100000, 0.3],
      [5000, 0.9],
    ] as const) {
      const draws = 4000;
      let sum = 0;
      let sumSq = 0;
      for (let i = 0; i < draws; i++) {
        const x = sampleBinomial(rng, trials, p);
        expect(Number.isInteger(x) && x >= 0 && x <= trials).toBe(true);
        sum += x;
        sumSq += x * x;
      }
      const mean = sum / draws;
      const variance = sumSq / draws - mean * mean;
      const trueVariance = trials * p * (1 - p);
      // The sample mean's sd is sqrt(var/draws); 5 sd. The sample variance is within ~10% at 4000 draws.
      expect(Math.abs(mean - trials * p)).toBeLessThan(5 * Math.sqrt(trueVariance / draws));
      expect(Math.abs(variance / trueVariance - 1)).toBeLessThan(0.1);
    }
  });

  it('gets the exact small-case distribution: Binomial(2, ½) gives 0, 1, 2 with probabilities ¼, ½, ¼', () => {
    const rng = createRng(5);
    const counts = [0, 0, 0];
    for (let i = 0; i < 40000; i++) counts[sampleBinomial(rng, 2, 0.5)]!++;
    // sd of a count ≈ sqrt(40000 · ¼ · ¾) ≈ 87 (and 100 for the middle); allow 500.
    expect(Math.abs(counts[0]! - 10000)).toBeLessThan(500);
    expect(Math.abs(counts[1]! - 20000)).toBeLessThan(500);
    expect(Math.abs(counts[2]! - 10000)).toBeLessThan(500);
  });

  it('handles the degenerate cases exactly', () => {
    const rng = createRng(1);
    expect(sampleBinomial(rng, 0, 0.5)).toBe(0);
    expect(sampleBinomial(rng, 10, 0)).toBe(0);
    expect(sampleBinomial(rng, 10, 1)).toBe(10);
  });
});
