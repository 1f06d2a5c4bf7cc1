import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import { robustCentre } from './robust-centre.js';

/** Draws of the parametric bootstrap: the variance's relative standard error is about √(2/400) ≈ 7%. */
export const CENTRE_DRAWS = 400;

/**
 * A lower-triangular L with L·L' = `matrix` (m × m, row-major, symmetric positive semi-definite): Cholesky's
 * factorisation with a pivot at or below 1e-12 of the largest diagonal taken as 0 and its column left empty, so a
 * covariance that only its contrasts define (a common shift of every member is not estimated) still factors.
 */
export function semidefiniteCholesky(matrix: Float64Array, m: number): Float64Array {
  const l = new Float64Array(m * m);
  let largest = 0;
  for (let i = 0; i < m; i++) largest = Math.max(largest, matrix[i * m + i]!);
  const tolerance = 1e-12 * largest;
  for (let j = 0; j < m; j++) {
    let d = matrix[j * m + j]!;
    for (let c = 0; c < j; c++) d -= l[j * m + c]! ** 2;
    if (!(d > tolerance)) continue;
    const pivot = Math.sqrt(d);
    l[j * m + j] = pivot;
    for (let i = j + 1; i < m; i++) {
      let s = matrix[i * m + j]!;
      for (let c = 0; c < j; c++) s -= l[i * m + c]! * l[j * m + c]!;
      l[i * m + j] = s / pivot;
    }
  }
  return l;
}

/**
 * The variance of the reviewers' robust centre's error that an offset's interval does not count, by a parametric
 * bootstrap (Efron and Tibshirani 1993, ch. 6).
 *
 * What the interval counts: reviewer j's offset is y_j = β̂_j − ĉ with ĉ = Σ mix_i β̂_i (`robustCentre`), and its
 * interval is the variance of the contrast β̂_j − Σ mix_i β̂_i with the mix held fixed. With θ_i = β_i − c the true
 * offsets (c the true centre) and mix summing to 1, the error splits exactly:
 *   y_j − θ_j = [(β̂_j − β_j) − Σ mix_i (β̂_i − β_i)] − Σ mix_i θ_i.
 * The bracket is the known-weights contrast's error, what the interval carries. The rest, D = Σ mix_i θ_i, is the
 * centre's error from its weights: the true offsets averaged by the weights the data chose. It is 0 when the weights
 * are those of the truth (every reviewer fair, or symmetric weights over symmetric offsets) and not when the
 * biweight drops a reviewer at one end of a graded council (the weights' dependence on the data). It is the same
 * for every reviewer: a shared error.
 *
 * How it is estimated: in a world whose true offsets are `offsets` (θ̃, the empirical-Bayes ones: drawn around the
 * raw estimates, every-reviewer-fair councils over-covered, 98–99%) and whose estimates' covariance is `covariance`
 * (Σ), each draw is β* ~ N(θ̃, Σ), its centre refitted, and D* = Σ mix*_i θ̃_i read from the draw's own mix; the
 * result is the mean of D*² (its variance, and its bias squared, over `draws`). The cross term 2·Cov(bracket, D) is
 * left out: the interval then carries the error the weights add, not how it leans with each reviewer's own noise.
 * Seeded: the same inputs give the same value.
 *
 * Where it over-reaches: a reviewer far out whose estimate happens to fall just beyond the biweight's reach (4.5–5
 * scales) is redrawn across that edge about half the time, while its truth, further out, rarely comes in; outliers
 * 0, 0, 0, ±1 at 20 sessions' noise then get a wider interval than they need (issue 31's pooling-outliers-20, 97.7%).
 * Holding a reviewer the fit gave no weight out of reach in every draw fixed that (96.8%) but took graded councils
 * below target (92.5–93.4% at 50 sessions): there the dropped end is the centre's error, and a redraw that may bring
 * it back is what measures it. So every member is redrawn.
 */
export function centreWeightsVariance(spec: {
  /** θ̃: each member's offset from the centre in the world redrawn (the centre at 0). */
  offsets: readonly number[];
  /** m × m covariance of the members' estimates (row-major), as the centre was fitted with. */
  covariance: Float64Array;
  draws?: number;
  seed?: number;
}): number {
  const { offsets, covariance } = spec;
  const m = offsets.length;
  const draws = spec.draws ?? CENTRE_DRAWS;
  if (m < 2 || draws < 1) return 0;
  const l = semidefiniteCholesky(covariance, m);
  const random = createSeededSfc32(spec.seed ?? 1);
  const z = new Float64Array(m);
  const estimates = new Array<number>(m);
  let total = 0;
  for (let draw = 0; draw < draws; draw++) {
    for (let i = 0; i < m; i++) z[i] = random.normal();
    for (let i = 0; i < m; i++) {
      let e = offsets[i]!;
      for (let c = 0; c <= i; c++) e += l[i * m + c]! * z[c]!;
      estimates[i] = e;
    }
    const { mix } = robustCentre({ estimates, covariance });
    let d = 0;
    for (let i = 0; i < m; i++) d += mix[i]! * offsets[i]!;
    total += d * d;
  }
  return total / draws;
}
