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

  it('gives each member its influence on the centre, the weights’ own slope included', () => {
    // ψ'(r) = (1 − u²)(1 − 5u²) with u² = 0.043737: 0.956263·0.781313 = 0.747141 for the two at ±0.08, 1 at 0,
    // 0 beyond 4.685. Influence = (0.747141, 0.747141, 1) / 2.494282: less even than the weights themselves.
    [0.299541, 0.299541, 0.400917, 0, 0].forEach((x, j) => expect(fit.influence[j]).toBeCloseTo(x, 6));
  });

  it('matches the influence by finite differences, also with a member in the biweight’s descent', () => {
    // A fourth member at −0.4 pulls the centre to about −0.04 and sits about 0.36/0.11547 = 3.1 scales out:
    // W ≈ (1 − 0.44)² = 0.31, ψ' ≈ 0.56·(1 − 2.2) < 0 (the biweight's ψ falls from 2.1 scales on).
    for (const values of [estimates, [0.08, -0.08, 0, -0.4, -1.2]]) {
      const at = robustCentre({ estimates: values, covariance: diagonal(5, 0.01) });
      values.forEach((_, j) => {
        const step = 1e-6;
        const moved = (delta: number): number =>
          robustCentre({ estimates: values.map((x, i) => (i === j ? x + delta : x)), covariance: diagonal(5, 0.01) })
            .centre;
        expect((moved(step) - moved(-step)) / (2 * step)).toBeCloseTo(at.influence[j]!, 5);
      });
    }
    const descent = robustCentre({ estimates: [0.08, -0.08, 0, -0.4, -1.2], covariance: diagonal(5, 0.01) });
    // Raising the member in the descent lowers its pull: its influence is negative, and the fair ones' above their mix.
    expect(descent.influence[3]).toBeLessThan(0);
    expect(descent.weights[3]).toBeGreaterThan(0.25);
    expect(descent.influence[2]).toBeGreaterThan(descent.mix[2]!);
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

  it('reports each offset against the centre, its interval from the centre’s influence', () => {
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
    // m0: e₀ − influence = (1 − 0.299541, −0.299541, −0.400917, 0, 0): variance 0.01·(0.490643 + 0.089725 +
    // 0.160735) = 0.00741103, SE 0.086087 (fixed weights would give 0.01·0.687440, SE 0.082912: narrower).
    expect(offsets[0]!.standardError).toBeCloseTo(0.086087, 6);
    expect(offsets[0]!.lower).toBeCloseTo(0.08 - 2 * 0.086087, 5);
    expect(offsets[0]!.upper).toBeCloseTo(0.08 + 2 * 0.086087, 5);
    expect(offsets[0]!.df).toBe(19);
    // m3 (no weight): e₃ − influence, variance 0.01·(1 + 2·0.089725 + 0.160735) = 0.0134018, SE 0.115766.
    expect(offsets[3]!.standardError).toBeCloseTo(0.115766, 6);
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
      const d = centre.influence.map((x, i) => (i === j ? 1 : 0) - x);
      expect(o.standardError ** 2).toBeCloseTo(quadraticForm(byHand, Float64Array.from(d), 3), 12);
    });
  });
});
