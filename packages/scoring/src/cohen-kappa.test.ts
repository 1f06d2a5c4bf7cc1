import { describe, expect, it } from 'vitest';
import reference from './__fixtures__/agreement-reference.json';
import { cohenKappa } from './cohen-kappa.js';
import { ScoringError } from './scoring-error.js';

describe('cohenKappa', () => {
  it('works out a 2×2 case by hand', () => {
    // a = A A B B, b = A B B B: agree on 3 of 4 → p_o = 3/4. Shares a: A ½, B ½; b: A ¼, B ¾.
    // p_e = ½·¼ + ½·¾ = ½; κ = (¾ − ½) / (1 − ½) = ½.
    const r = cohenKappa(['A', 'A', 'B', 'B'], ['A', 'B', 'B', 'B']);
    expect(r.kappa).toBeCloseTo(0.5, 14);
    expect(r.observed).toBeCloseTo(0.75, 14);
    expect(r.expected).toBeCloseTo(0.5, 14);
    expect(r.n).toBe(4);
  });

  it('weights an ordinal disagreement by its distance (hand-worked, linear)', () => {
    // Categories 1 2 3 (k = 3). a = 1 2 3, b = 1 3 3: one disagreement of one step, weight ½ → observed cost ½/3 = 1/6.
    // Shares a: ⅓ ⅓ ⅓; b: ⅓ 0 ⅔. Expected cost = Σ w·r·c = 1·⅓·⅔ + ½·⅓·⅓ + ½·⅓·⅔ + 1·⅓·⅓ = 2/9 + 1/18 + 1/9 + 1/9 = ½.
    // κ = 1 − (1/6)/(1/2) = ⅔.
    expect(cohenKappa([1, 2, 3], [1, 3, 3], { weights: 'linear' }).kappa).toBeCloseTo(2 / 3, 14);
  });

  it('is undefined (null) when both raters used a single category, never NaN', () => {
    expect(cohenKappa(['tie', 'tie'], ['tie', 'tie']).kappa).toBeNull();
  });

  it('counts categories only one rater used, and honours a given order', () => {
    // With categories [0, 1, 2] given, 2 is unused: nominal κ is unchanged by an empty category.
    const plain = cohenKappa([0, 1, 1, 0], [0, 1, 0, 0]);
    expect(cohenKappa([0, 1, 1, 0], [0, 1, 0, 0], { categories: [0, 1, 2] }).kappa).toBeCloseTo(plain.kappa!, 14);
  });

  it.each(reference.cohenKappa)('matches scikit-learn: $name', (c) => {
    const r = cohenKappa(c.a, c.b, { weights: c.weights as 'none' | 'linear' | 'quadratic' });
    if (c.kappa === null) expect(r.kappa).toBeNull();
    else expect(r.kappa).toBeCloseTo(c.kappa, 12);
  });

  it('refuses unpaired ratings, no items and values that are not ratings', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return ScoringError.isInstance(error) ? error.code : 'other';
      }
      return 'none';
    };
    expect(code(() => cohenKappa([1], [1, 2]))).toBe('INVALID_OPTION');
    expect(code(() => cohenKappa([], []))).toBe('INSUFFICIENT_DATA');
    expect(code(() => cohenKappa([Number.NaN], [1]))).toBe('INVALID_OPTION');
    expect(code(() => cohenKappa([3], [1], { categories: [1, 2] }))).toBe('INVALID_OPTION');
  });
});
