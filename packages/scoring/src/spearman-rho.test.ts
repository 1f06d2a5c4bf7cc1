import { describe, expect, it } from 'vitest';
import reference from './__fixtures__/agreement-reference.json';
import { averageRanks, spearmanRho } from './spearman-rho.js';
import { ScoringError } from './scoring-error.js';

describe('spearmanRho', () => {
  it('works out a case without ties by hand', () => {
    // Ranks x 1 2 3 4, y 1 3 2 4: d² = 0 1 1 0, Σ = 2; ρ = 1 − 6·2 / (4·15) = 0.8.
    expect(spearmanRho([10, 20, 30, 40], [1, 3, 2, 4]).rho).toBeCloseTo(0.8, 14);
  });

  it('gives tied values their mean rank', () => {
    expect([...averageRanks([5, 1, 5, 3, 5])]).toEqual([4, 1, 4, 2, 4]);
  });

  it('is undefined (null) for a constant variable, never NaN', () => {
    expect(spearmanRho([1, 2, 3], [7, 7, 7]).rho).toBeNull();
  });

  it.each(reference.spearmanRho)('matches SciPy: $name', (c) => {
    const r = spearmanRho(c.x, c.y);
    if (c.rho === null) expect(r.rho).toBeNull();
    else expect(r.rho).toBeCloseTo(c.rho, 12);
    expect(r.n).toBe(c.x.length);
  });

  it('refuses unpaired values, fewer than two pairs and non-numbers', () => {
    expect(() => spearmanRho([1, 2], [1])).toThrow(ScoringError);
    expect(() => spearmanRho([1], [1])).toThrow(/at least two pairs/);
    expect(() => spearmanRho([1, Number.POSITIVE_INFINITY], [1, 2])).toThrow(/finite/);
  });
});
