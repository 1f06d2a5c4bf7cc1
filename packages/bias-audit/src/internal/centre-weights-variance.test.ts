import { describe, expect, it } from 'vitest';
import { centreWeightsVariance, semidefiniteCholesky } from './centre-weights-variance.js';

const times = (l: Float64Array, m: number): Float64Array => {
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++) for (let c = 0; c < m; c++) out[i * m + j]! += l[i * m + c]! * l[j * m + c]!;
  return out;
};

const diagonal = (m: number, value: number): Float64Array => {
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++) out[i * m + i] = value;
  return out;
};

describe('semidefiniteCholesky', () => {
  it('factors a positive definite matrix (worked by hand)', () => {
    // [[4, 2, 0], [2, 5, 3], [0, 3, 10]]: l11 = 2, l21 = 1, l31 = 0, l22 = √(5 − 1) = 2, l32 = 3/2, l33 = √(10 − 2.25).
    const l = semidefiniteCholesky(Float64Array.from([4, 2, 0, 2, 5, 3, 0, 3, 10]), 3);
    const expected = [2, 0, 0, 1, 2, 0, 0, 1.5, Math.sqrt(7.75)];
    expected.forEach((x, i) => expect(l[i]).toBeCloseTo(x, 14));
  });

  it('factors a covariance defined only up to a common shift (rank 2 of 3) with an empty last column', () => {
    // I − J/3: l11 = √(2/3), l21 = l31 = −(1/3)/√(2/3), l22 = √(2/3 − 1/6) = √½, l32 = (−1/3 − 1/6)/√½ = −√½, l33 = 0.
    const matrix = Float64Array.from([2, -1, -1, -1, 2, -1, -1, -1, 2].map((x) => x / 3));
    const l = semidefiniteCholesky(matrix, 3);
    expect(l[8]).toBe(0);
    expect(l[7]).toBeCloseTo(-Math.SQRT1_2, 12);
    times(l, 3).forEach((x, i) => expect(x).toBeCloseTo(matrix[i]!, 12));
  });
});

describe('centreWeightsVariance', () => {
  it('is 0 where every reviewer is at the centre: whatever weights a draw picks, they average true offsets of 0', () => {
    expect(centreWeightsVariance({ offsets: [0, 0, 0, 0, 0], covariance: diagonal(5, 0.01) })).toBe(0);
  });

  it('nearly vanishes where every reviewer keeps a weight near 1 about a symmetric truth', () => {
    // Offsets ±0.01 with standard errors 0.1: every member lies within a couple of its scales of the centre, the
    // weights stay near each other, and D = Σ mix_i θ_i is of the order of (mix − ⅓)·0.01 ≈ 3e−4: D² ≈ 1e−7, against
    // the known-weights centre's own variance 0.01/3.
    const excess = centreWeightsVariance({ offsets: [-0.01, 0, 0.01], covariance: diagonal(3, 0.01) });
    expect(excess).toBeGreaterThanOrEqual(0);
    expect(excess).toBeLessThan(1e-3 * (0.01 / 3));
  });

  it('counts the weights’ error when they fall on one side: three at +0.5, one at −1.5 twenty SEs away', () => {
    // The −1.5 member is 2 points (20 standard errors) from the three: weight 0 in every draw, so each draw's mix
    // sums to 1 over the three, and D = Σ mix_i θ_i = 0.5 exactly: the mean of D² is 0.25.
    const excess = centreWeightsVariance({ offsets: [0.5, 0.5, 0.5, -1.5], covariance: diagonal(4, 0.01) });
    expect(excess).toBeCloseTo(0.25, 12);
  });

  it('is seeded: the same inputs give the same value', () => {
    const spec = { offsets: [-0.2, -0.1, 0, 0.1, 0.2], covariance: diagonal(5, 0.0045) };
    expect(centreWeightsVariance(spec)).toBe(centreWeightsVariance(spec));
    expect(centreWeightsVariance({ ...spec, seed: 2 })).not.toBe(centreWeightsVariance(spec));
  });
});
