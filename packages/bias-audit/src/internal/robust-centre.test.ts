import { describe, expect, it } from 'vitest';
import type { ScoreModelEstimate } from '../fit-score-model.js';
import { offsetsFromRobustCentre, robustCentre } from './robust-centre.js';
import { quadraticForm } from './sandwich-covariance.js';
import { tEstimate } from './t-estimate.js';

/** m × m: `variance` on the diagonal (independent members). */
const diagonal = (m: number, variance: number): Float64Array => {
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++) out[i * m + i] = variance;
  return out;
};

describe('robustCentre', () => {
  // Five reviewers, each estimate with SE 0.1 (variance 0.01), independent: three fair ones at 0.08, −0.08 and 0,
  // two a point or more harsh (−1, −1.2). The median of all five is −0.08 and the MAD around it spans the fair
  // three's whole range, which is how the old biweight let a harsh pair keep weight.
  const estimates = [0.08, -0.08, 0, -1, -1.2];
  const fit = robustCentre({ estimates, covariance: diagonal(5, 0.01) });

  it('starts from the tightest majority and ends at the fair three’s mean: the harsh pair moves nothing', () => {
    // Every member's variance against the plain mean of five is 0.01·(0.8² + 4·0.2²) = 0.008: equal precisions.
    // Runs of 3 in sorted order (−1.2, −1, −0.08, 0, 0.08): the last, {−0.08, 0, 0.08}, has Q = 125·0.0128 = 1.6,
    // the others Q > 60. Under agreement E Q = 125·0.01·tr(I − J/3) = 2.5 > 1.6, so τ = 0.
    expect(fit.core.sort()).toEqual([0, 1, 2]);
    expect(fit.tau).toBe(0);
    // A fair member against the core's mean: variance 0.01·((2/3)² + 2·(1/3)²) = 0.01·6/9, s = 0.08165; the harsh
    // ones 0.01·(1 + 3/9), s = 0.11547, so −1 is 8.7 scales out: no weight. The fair two at ±0.08 are
    // r = 0.9798 out, W = (1 − (0.9798/4.685)²)² = (1 − 0.043737)² = 0.914438; the one at 0 has W = 1.
    // Centre = (0.914438·0.08 − 0.914438·0.08 + 1·0) / (…) = 0: the fair three's (precision-weighted) mean.
    expect(fit.centre).toBeCloseTo(0, 12);
    expect(fit.weights[0]).toBeCloseTo(0.914438, 6);
    expect(fit.weights[1]).toBeCloseTo(0.914438, 6);
    expect(fit.weights[2]).toBeCloseTo(1, 12);
    expect(fit.weights[3]).toBe(0);
    expect(fit.weights[4]).toBe(0);
    // mix = (0.914438, 0.914438, 1) / 2.828877.
    [0.323251, 0.323251, 0.353497, 0, 0].forEach((x, j) => expect(fit.mix[j]).toBeCloseTo(x, 6));
  });

  it('is a fixed point: Σ π_j W_j (β_j − centre) = 0, also with a member in the biweight’s descent', () => {
    // A fourth member at −0.4 sits 0.4/0.11547 = 3.5 scales from the core's 0: it keeps part of its weight and
    // pulls the centre below 0, but weight < 0.6 against three members ≥ 0.75 each moves it less than
    // 0.4·0.6/(0.6 + 2.25) = 0.084 (the ±0.08 pair's unequal weights add under 0.08·0.25/3 ≈ 0.007).
    const values = [0.08, -0.08, 0, -0.4, -1.2];
    const descent = robustCentre({ estimates: values, covariance: diagonal(5, 0.01) });
    expect(descent.core.sort()).toEqual([0, 1, 2]);
    expect(descent.weights[3]).toBeGreaterThan(0.1);
    expect(descent.weights[3]).toBeLessThan(0.6);
    expect(descent.weights[4]).toBe(0);
    expect(descent.centre).toBeLessThan(0);
    expect(descent.centre).toBeGreaterThan(-0.1);
    for (const j of [0, 1, 2]) expect(descent.weights[j]).toBeGreaterThan(0.75);
    // Equal precisions (τ = 0): the mix is the weights over their sum, and the centre is Σ mix_j β_j.
    expect(values.reduce((sum, x, j) => sum + descent.mix[j]! * x, 0)).toBeCloseTo(descent.centre, 12);
    const total = descent.weights.reduce((sum, w) => sum + w, 0);
    descent.weights.forEach((w, j) => expect(descent.mix[j]).toBeCloseTo(w / total, 12));
  });

  it('cannot be moved by ⌊(m − 1)/2⌋ outliers of m, wherever they are', () => {
    // Seven members, four fair; three outliers anywhere beyond 4.685 scales (SE 0.1) leave the centre where it is.
    const fair = [0.05, -0.03, 0.01, 0.1];
    const centres = [
      [-1, -1, -1],
      [-3, 2, 50],
      [0.9, 1, 1.1],
    ].map((outliers) => robustCentre({ estimates: [...outliers, ...fair], covariance: diagonal(7, 0.01) }));
    for (const c of centres) {
      expect(c.core.sort()).toEqual([3, 4, 5, 6]);
      expect(c.weights.slice(0, 3)).toEqual([0, 0, 0]);
      expect(c.centre).toBeCloseTo(centres[0]!.centre, 12);
      expect(c.centre).toBeGreaterThan(-0.03);
      expect(c.centre).toBeLessThan(0.1);
    }
  });

  it('keeps every reviewer of a graded council (no majority) and centres on the middle one', () => {
    // Five reviewers graded −0.2, −0.1, 0, 0.1, 0.2 (issue 31's pooling-graded shape without noise), SE 0.03
    // (variance s = 0.0009), independent. Each against the plain mean has 0.8·s: equal precisions. Every run of 3
    // has Q = 0.02/(0.8·s): a tie, broken toward the median of all, so the core is the middle three. E Q =
    // π·s·tr(I − J/3) = 2π·s and tr(Π P P') = 2π, so τ² = (0.02 − 2s)/2 = 0.01 − s = 0.0091: the core's own
    // spread, not noise. Scales: a core member against the core's mean has s·6/9 = 0.0006 of noise, √(0.0097) =
    // 0.0984886; an end one s·4/3 = 0.0012, √(0.0103) = 0.1014889. From the core's mean 0, ±0.1 are r = 1.015346
    // out, W = (1 − r²/4.685²)² = 0.908269; ±0.2 are r = 1.970659, W = 0.677443; symmetric, so the centre stays at 0.
    const graded = robustCentre({ estimates: [-0.2, -0.1, 0, 0.1, 0.2], covariance: diagonal(5, 0.0009) });
    expect(graded.core.sort()).toEqual([1, 2, 3]);
    expect(graded.tau).toBeCloseTo(Math.sqrt(0.0091), 12);
    expect(graded.centre).toBeCloseTo(0, 12);
    [0.677443, 0.908269, 1, 0.908269, 0.677443].forEach((w, j) => expect(graded.weights[j]).toBeCloseTo(w, 6));
    // Equal precisions: mix = W / (1 + 2·0.908269 + 2·0.677443) = W / 4.171423.
    [0.162401, 0.217736, 0.239726, 0.217736, 0.162401].forEach((x, j) => expect(graded.mix[j]).toBeCloseTo(x, 6));
  });

  it('takes two reviewers’ mean (their disagreement is all spread)', () => {
    // Estimates 0 and 1, variances 0.01 and 0.04: each against their plain mean has 0.25·0.05 = 0.0125, equal
    // precisions 80. The core is both; Q = 80·(0.5² + 0.5²) = 40, E Q = 80·tr(PΣP') = 80·0.5·0.05 = 2, tr(ΠPP') =
    // 80, so τ² = (40 − 2)/80 = 0.475; each is √(0.0125 + 0.475) = 0.698 from the mean 0.5, r = 0.716, equal weights.
    const two = robustCentre({ estimates: [0, 1], covariance: Float64Array.from([0.01, 0, 0, 0.04]) });
    expect(two.tau).toBeCloseTo(Math.sqrt(0.475), 12);
    expect(two.centre).toBeCloseTo(0.5, 12);
  });

  it('counts members at the centre in full when the scores fit exactly (no spread at all)', () => {
    // Covariance 0: equal precisions; the core {0, 0} has Q = 0, so τ = 0 and every scale is 0: the two at 0
    // are at the centre (weight 1), the one at −1.2 infinitely many scales away (weight 0).
    const exact = robustCentre({ estimates: [0, -1.2, 0], covariance: new Float64Array(9) });
    expect(exact.centre).toBe(0);
    expect(exact.weights).toEqual([1, 0, 1]);
    expect(exact.fallback).toBe(false);
  });
});

describe('offsetsFromRobustCentre', () => {
  /** contrast'β with its t interval (crit 2, df 19), as fitScoreModel's contrastEstimate gives it. */
  const estimator =
    (beta: Float64Array, covariance: Float64Array, k: number) =>
    (contrast: Float64Array): ScoreModelEstimate => {
      let estimate = 0;
      for (let a = 0; a < k; a++) estimate += contrast[a]! * beta[a]!;
      const variance = quadraticForm(covariance, contrast, k);
      return tEstimate({ estimate, variance, crit: 2, df: 19, sampleSize: 80, sessions: 20 });
    };

  it('reports each offset against the centre, its interval counting the centre’s own error', () => {
    // The five members of robustCentre's example, one model column each (k = 5, covariance 0.01·I).
    const beta = Float64Array.from([0.08, -0.08, 0, -1, -1.2]);
    const covariance = diagonal(5, 0.01);
    const members = [...beta].map((estimate, j) => {
      const contrast = new Float64Array(5);
      contrast[j] = 1;
      return { subject: `m${j}`, contrast, estimate };
    });
    const offsets = offsetsFromRobustCentre({ members, covariance, k: 5, estimateOf: estimator(beta, covariance, 5) });
    expect(offsets.map((o) => o.subject)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    // The centre is 0: each offset is its own estimate.
    offsets.forEach((o, j) => expect(o.estimate).toBeCloseTo(beta[j]!, 12));
    // m0: e₀ − mix = (1 − 0.323251, −0.323251, −0.353497, 0, 0): variance 0.01·(0.457989 + 0.104491 +
    // 0.124960) = 0.00687440, SE 0.082912 (against a known reference it would be 0.1: the centre shares m0's noise).
    expect(offsets[0]!.standardError).toBeCloseTo(0.082912, 6);
    expect(offsets[0]!.lower).toBeCloseTo(0.08 - 2 * 0.082912, 5);
    expect(offsets[0]!.upper).toBeCloseTo(0.08 + 2 * 0.082912, 5);
    expect(offsets[0]!.df).toBe(19);
    // m3 (no weight): e₃ − mix, variance 0.01·(1 + 2·0.104491 + 0.124960) = 0.0133394, SE 0.115496.
    expect(offsets[3]!.standardError).toBeCloseTo(0.115496, 6);
    expect(offsets[3]!.weight).toBe(0);
    expect(offsets[2]!.weight).toBeCloseTo(1, 12);
  });

  it('takes offsets that combine several columns (the member covariance is a_i′Va_j)', () => {
    // Three members over k = 2 columns: a₀ = (1, 0), a₁ = (0, 1), a₂ = (½, ½); V = [[0.02, 0.005], [0.005, 0.01]].
    // a_i′Va_j by hand: 0.02, 0.01, ¼(0.02 + 2·0.005 + 0.01) = 0.01 on the diagonal; 0.005 (0, 1),
    // ½(0.02 + 0.005) = 0.0125 (0, 2), ½(0.005 + 0.01) = 0.0075 (1, 2).
    const V = Float64Array.from([0.02, 0.005, 0.005, 0.01]);
    const beta = Float64Array.from([0.3, -0.1]);
    const contrasts = [Float64Array.from([1, 0]), Float64Array.from([0, 1]), Float64Array.from([0.5, 0.5])];
    const members = contrasts.map((contrast, j) => ({
      subject: `m${j}`,
      contrast,
      estimate: contrast[0]! * beta[0]! + contrast[1]! * beta[1]!,
    }));
    const offsets = offsetsFromRobustCentre({ members, covariance: V, k: 2, estimateOf: estimator(beta, V, 2) });
    const byHand = Float64Array.from([0.02, 0.005, 0.0125, 0.005, 0.01, 0.0075, 0.0125, 0.0075, 0.01]);
    const centre = robustCentre({ estimates: [0.3, -0.1, 0.1], covariance: byHand });
    offsets.forEach((o, j) => {
      expect(o.estimate).toBeCloseTo(members[j]!.estimate - centre.centre, 12);
      const d = centre.mix.map((x, i) => (i === j ? 1 : 0) - x);
      expect(o.standardError ** 2).toBeCloseTo(quadraticForm(byHand, Float64Array.from(d), 3), 12);
    });
  });
});
