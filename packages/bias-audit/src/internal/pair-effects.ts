import type { PairSums } from './affinity-figures.js';
import type { FittedScoreModel } from './contrast-estimate.js';
import { median } from './describe.js';
import type { Layout } from './score-model-design.js';
import { symmetricPseudoInverse } from './symmetric-pseudo-inverse.js';

/** Tukey's biweight tuning constant (95% efficiency at the normal), as for the reviewers' centre. */
const biweightC = 4.685;

/**
 * The score model with each reviewer → author pair's mean residual appended to β̂: θ = (β̂, ē_1 … ē_P), P the
 * pairs with records, and its cluster-robust covariance. A pair's effect t_p = β̂_r + ē_p (its reviewer's fitted
 * column plus its mean residual: the pair's mean score less position, self-preference and its answers' levels) is
 * then the contrast e_r + e_{k+p}, and every figure read from the pair effects is a contrast over θ.
 */
export interface PairModel {
  model: FittedScoreModel;
  /** Dense pair number → pair (`reviewer · models + author`). */
  used: Int32Array;
  /** Per dense pair: its records and the sessions it has records in. */
  records: Float64Array;
  sessions: Uint32Array;
}

/**
 * θ and its covariance, from the fit's sums. The pair mean's influence per session is
 * IF_p(s) = (e_s^p − ē_p n_s^p − h_p'score_s)/N_p with h_p = A⁺g_p (the fitted β̂'s share of it; g_p the pair's
 * summed demeaned row), β̂'s is A⁺score_s; every block is S/(S − 1)·Σ_s IF IF' written with the sums of pass 2:
 * V_βp = A⁺(a_p − M h_p)/N_p and V_pq = [Σ_s a_s^p a_s^q − h_p'a_q − h_q'a_p + h_p'M h_q]/(N_p N_q), with
 * a_s^p = e_s^p − ē_p n_s^p and a_p = Σ_s a_s^p score_s = Σe·score − ē_p Σn·score.
 */
export function pairModel(spec: {
  base: FittedScoreModel;
  inverse: Float64Array;
  meat: Float64Array;
  pairs: PairSums;
}): PairModel {
  const { base, inverse, meat, pairs } = spec;
  const { k, sessions: S } = base;
  const { used } = pairs;
  const P = used.length;
  const K = k + P;
  const correction = S > 1 ? S / (S - 1) : Number.NaN;
  const beta = new Float64Array(K);
  beta.set(base.beta);
  const range = new Float64Array(K * K);
  const covariance = new Float64Array(K * K);
  for (let a = 0; a < k; a++)
    for (let b = 0; b < k; b++) {
      range[a * K + b] = base.range[a * k + b]!;
      covariance[a * K + b] = base.covariance[a * k + b]!;
    }
  const ratio = new Float64Array(P);
  const h = new Float64Array(P * k);
  const mh = new Float64Array(P * k);
  const score = new Float64Array(P * k); // a_p = Σ_s (e_s − ē_p n_s) score_s
  for (let i = 0; i < P; i++) {
    const p = used[i]!;
    const n = pairs.n[p]!;
    ratio[i] = n > 0 ? pairs.sum[p]! / n : 0;
    beta[k + i] = ratio[i]!;
    range[(k + i) * K + k + i] = 1;
    for (let a = 0; a < k; a++) {
      let total = 0;
      for (let b = 0; b < k; b++) total += inverse[a * k + b]! * pairs.design[p * k + b]!;
      h[i * k + a] = total;
      score[i * k + a] = pairs.eScore[p * k + a]! - ratio[i]! * pairs.nScore[p * k + a]!;
    }
    for (let a = 0; a < k; a++) {
      let total = 0;
      for (let b = 0; b < k; b++) total += meat[a * k + b]! * h[i * k + b]!;
      mh[i * k + a] = total;
    }
  }
  // Row i of h against row j of `y` (both P × k).
  const dotH = (i: number, y: { rows: Float64Array; j: number }): number => {
    let total = 0;
    for (let a = 0; a < k; a++) total += h[i * k + a]! * y.rows[y.j * k + a]!;
    return total;
  };
  for (let i = 0; i < P; i++) {
    const ni = pairs.n[used[i]!]!;
    if (!(ni > 0)) continue;
    for (let a = 0; a < k; a++) {
      let total = 0;
      for (let b = 0; b < k; b++) total += inverse[a * k + b]! * (score[i * k + b]! - mh[i * k + b]!);
      const v = (correction * total) / ni;
      covariance[a * K + k + i] = v;
      covariance[(k + i) * K + a] = v;
    }
    for (let j = 0; j <= i; j++) {
      const nj = pairs.n[used[j]!]!;
      if (!(nj > 0)) continue;
      const cross =
        pairs.cross[i * P + j]! -
        dotH(i, { rows: score, j }) -
        dotH(j, { rows: score, j: i }) +
        dotH(i, { rows: mh, j });
      const v = (correction * (i === j ? Math.max(0, cross) : cross)) / (ni * nj);
      covariance[(k + i) * K + k + j] = v;
      covariance[(k + j) * K + k + i] = v;
    }
  }
  return {
    model: { ...base, k: K, beta, range, covariance },
    used,
    records: Float64Array.from(used, (p) => pairs.n[p]!),
    sessions: Uint32Array.from(used, (p) => pairs.sessions[p]!),
  };
}

/** The pair effects split into the reviewers' offsets, the authors' levels and what is left (the affinities). */
export interface PairDecomposition {
  /** Per reviewer (model index) in the table: its offset as a contrast over θ (up to a constant shared by all). */
  offset: Map<number, Float64Array>;
  /** Per author (model index) in the table: its level in the pair effects' scale, as a contrast over θ. */
  level: Map<number, Float64Array>;
  /** Per dense pair number: its affinity t_p − level − offset, as a contrast over θ. */
  affinity: Float64Array[];
  /** Per dense pair number: its weight in the fit (1: a typical pair; 0: an affinity the fit set aside). */
  weight: Float64Array;
}

/**
 * The reviewer × author table of pair effects t_p = β̂_r + ē_p, fitted as author level + reviewer offset by
 * Tukey's biweight (an M-estimate, iteratively reweighted least squares from a median polish), each pair weighted
 * by its records. A pair's distance from the fit is counted in √(SE_p² + τ²), its own standard error and τ =
 * 1.4826·MAD of the table's residuals (re-estimated each step): a pair far beyond its noise — one reviewer's
 * affinity for one author — gets no weight, so it moves neither its reviewer's offset nor its author's level, and
 * the affinity is the whole pair effect beyond them. At convergence the offsets, levels and affinities are linear
 * in the pair effects with the weights held fixed, so each is a contrast over θ (its error is the sandwich's, the
 * weights treated as known). A reviewer's or author's pairs that all lose their weight get theirs back (plain least
 * squares for them): the table has no other way to place them.
 */
export function decomposePairEffects(spec: { layout: Layout; models: number; model: PairModel }): PairDecomposition {
  const { layout, models, model } = spec;
  const { used } = model;
  const { k: K, beta, covariance } = model.model;
  const P = used.length;
  const k = K - P;
  const rowOf = new Map<number, number>();
  const colOf = new Map<number, number>();
  const reviewerOf = new Int32Array(P);
  const authorOf = new Int32Array(P);
  const t = new Float64Array(P);
  const { records } = model;
  const se = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    const r = Math.floor(used[i]! / models);
    const a = used[i]! % models;
    if (!rowOf.has(r)) rowOf.set(r, rowOf.size);
    if (!colOf.has(a)) colOf.set(a, colOf.size);
    reviewerOf[i] = rowOf.get(r)!;
    authorOf[i] = colOf.get(a)!;
    t[i] = beta[layout.reviewerColumn[r]!]! + beta[k + i]!;
    se[i] = Math.sqrt(Math.max(0, covariance[(k + i) * K + k + i]!));
  }
  const R = rowOf.size;
  const A = colOf.size;
  const residual = Float64Array.from(t);
  // Median polish (to convergence): a start no single pair can move far.
  const rowEffect = new Float64Array(R);
  const colEffect = new Float64Array(A);
  const size = 1 + Math.max(0, ...Array.from(t, Math.abs));
  for (let sweep = 0; sweep < 200; sweep++) {
    let moved = 0;
    for (const [effect, groupOf, count] of [
      [rowEffect, reviewerOf, R],
      [colEffect, authorOf, A],
    ] as const) {
      const groups: number[][] = Array.from({ length: count }, () => []);
      for (let i = 0; i < P; i++) groups[groupOf[i]!]!.push(residual[i]!);
      const shift = groups.map((g) => (g.length > 0 ? median(g) : 0));
      for (let g = 0; g < count; g++) {
        effect[g]! += shift[g]!;
        moved = Math.max(moved, Math.abs(shift[g]!));
      }
      for (let i = 0; i < P; i++) residual[i]! -= shift[groupOf[i]!]!;
    }
    if (moved <= 1e-13 * size) break;
  }
  const weight = new Float64Array(P).fill(1);
  let map: Float64Array = new Float64Array(0); // (R + A) × P: the fitted offsets and levels as combinations of the pair effects
  const n = R + A;
  const solve = (): Float64Array => {
    const xtx = new Float64Array(n * n);
    for (let i = 0; i < P; i++) {
      const w = weight[i]! * records[i]!;
      const r = reviewerOf[i]!;
      const c = R + authorOf[i]!;
      xtx[r * n + r]! += w;
      xtx[c * n + c]! += w;
      xtx[r * n + c]! += w;
      xtx[c * n + r]! += w;
    }
    const { inverse } = symmetricPseudoInverse(xtx, n);
    const out = new Float64Array(n * P);
    for (let i = 0; i < P; i++) {
      const w = weight[i]! * records[i]!;
      if (w === 0) continue;
      const r = reviewerOf[i]!;
      const c = R + authorOf[i]!;
      for (let g = 0; g < n; g++) out[g * P + i] = (inverse[g * n + r]! + inverse[g * n + c]!) * w;
    }
    return out;
  };
  for (let iteration = 0; iteration < 100; iteration++) {
    const tau = 1.4826 * median(Array.from(residual, Math.abs));
    for (let i = 0; i < P; i++) {
      const scale = Math.sqrt(se[i]! * se[i]! + tau * tau);
      const gap = Math.abs(residual[i]!);
      // A scale of 0 (pairs that fit exactly) leaves rounding only: gaps within 1e-9 points are on the fit.
      const distance = scale > 1e-12 ? gap / scale : gap > 1e-9 ? Number.POSITIVE_INFINITY : 0;
      weight[i] = distance >= biweightC ? 0 : (1 - (distance / biweightC) ** 2) ** 2;
    }
    // A reviewer or an author left with no weight gets its pairs' back.
    for (const [groupOf, count] of [
      [reviewerOf, R],
      [authorOf, A],
    ] as const) {
      const total = new Float64Array(count);
      for (let i = 0; i < P; i++) total[groupOf[i]!]! += weight[i]!;
      for (let i = 0; i < P; i++) if (!(total[groupOf[i]!]! > 0)) weight[i] = 1;
    }
    map = solve();
    let change = 0;
    for (let i = 0; i < P; i++) {
      let fitted = 0;
      const r = reviewerOf[i]!;
      const c = R + authorOf[i]!;
      for (let j = 0; j < P; j++) fitted += (map[r * P + j]! + map[c * P + j]!) * t[j]!;
      const next = t[i]! - fitted;
      change = Math.max(change, Math.abs(next - residual[i]!));
      residual[i] = next;
    }
    if (iteration > 0 && change <= 1e-12 * size) break;
  }
  // A combination of pair effects (coefficients over the dense pairs) as a contrast over θ.
  const overTheta = (coefficients: ArrayLike<number>): Float64Array => {
    const contrast = new Float64Array(K);
    for (let i = 0; i < P; i++) {
      const c = coefficients[i]!;
      if (c === 0) continue;
      contrast[layout.reviewerColumn[Math.floor(used[i]! / models)]!]! += c;
      contrast[k + i]! += c;
    }
    return contrast;
  };
  const offset = new Map<number, Float64Array>();
  for (const [r, row] of rowOf) offset.set(r, overTheta(map.subarray(row * P, (row + 1) * P)));
  const level = new Map<number, Float64Array>();
  for (const [a, col] of colOf) level.set(a, overTheta(map.subarray((R + col) * P, (R + col + 1) * P)));
  const affinity: Float64Array[] = [];
  for (let i = 0; i < P; i++) {
    const coefficients = new Float64Array(P);
    coefficients[i] = 1;
    const r = reviewerOf[i]!;
    const c = R + authorOf[i]!;
    for (let j = 0; j < P; j++) coefficients[j]! -= map[r * P + j]! + map[c * P + j]!;
    affinity.push(overTheta(coefficients));
  }
  return { offset, level, affinity, weight };
}
