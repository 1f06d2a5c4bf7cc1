import { describe, expect, it } from 'vitest';
import { createGroupResampler } from './create-group-resampler.js';
import { createRng } from './create-rng.js';

describe('createGroupResampler', () => {
  // A bootstrap resample of N items from groups of sizes s_g: counts ~ Multinomial(N, s_g / N), so
  // E[count_g] = s_g and Var[count_g] = N · (s_g/N) · (1 − s_g/N).
  const check = (sizes: number[]): void => {
    const total = sizes.reduce((a, b) => a + b, 0);
    const resample = createGroupResampler(sizes);
    const rng = createRng(99);
    const out = new Int32Array(sizes.length);
    const replicates = 3000;
    const sum = new Float64Array(sizes.length);
    const sumSq = new Float64Array(sizes.length);
    for (let r = 0; r < replicates; r++) {
      resample(rng, out);
      expect(out.reduce((a, b) => a + b, 0)).toBe(total);
      out.forEach((c, g) => {
        sum[g]! += c;
        sumSq[g]! += c * c;
      });
    }
    sizes.forEach((size, g) => {
      const p = size / total;
      const variance = total * p * (1 - p);
      const mean = sum[g]! / replicates;
      expect(Math.abs(mean - size)).toBeLessThan(5 * Math.sqrt(variance / replicates));
      expect(Math.abs((sumSq[g]! / replicates - mean * mean) / variance - 1)).toBeLessThan(0.12);
    });
  };

  it('draws multinomial counts by conditional binomials when groups are few (3 groups, 10,000 items)', () => {
    check([5000, 3000, 2000]);
  });

  it('draws item by item when groups are many relative to items (4 groups, 40 items), with the same law', () => {
    check([10, 5, 20, 5]);
  });
});
