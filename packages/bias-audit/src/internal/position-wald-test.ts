import { fSf } from '../f-distribution.js';
import { symmetricPseudoInverse } from './symmetric-pseudo-inverse.js';

/**
 * Hotelling's T² test of "every display position has mean 0" from per-session position values (a session's
 * mean centred score at each position it showed): θ_p the mean over the sessions that showed p, its
 * covariance the sandwich Σ_s (v_sp − θ_p)(v_sq − θ_q) / (n_p·n_q) over sessions showing both, times
 * S/(S − 1). W = θ'V⁺θ on rank r is read as F = W·(S − r)/(r·(S − 1)) on (r, S − r) degrees of freedom, exact
 * for normal vectors when every session shows every position. The session is the unit, so a shared order (one
 * shuffle for every reviewer) is handled: its positions are randomised once per session. Positions shown in
 * fewer than 2 sessions are left out (they carry no spread). Null — no test — with fewer than r + 1 sessions,
 * or where θ leaves the range of V (a direction no session varies in, which a sandwich cannot judge).
 */
export function positionWaldTest(
  values: ReadonlyMap<number, Float64Array>,
  sessionsOf: ReadonlyMap<number, Int32Array>,
): { statistic: number; pValue: number; sessions: number } | null {
  const positions = [...values.keys()].filter((p) => values.get(p)!.length >= 2).sort((a, b) => a - b);
  const P = positions.length;
  if (P < 2) return null;
  // Sessions (indices into the report's sessions) to rows of the table.
  let last = -1;
  for (const p of positions) for (const s of sessionsOf.get(p)!) last = Math.max(last, s);
  const rowOf = new Int32Array(last + 1).fill(-1);
  let S = 0;
  for (const p of positions) for (const s of sessionsOf.get(p)!) if (rowOf[s] === -1) rowOf[s] = S++;
  if (S <= P - 1) return null;
  const table = new Float64Array(S * P).fill(Number.NaN);
  const theta = new Float64Array(P);
  const counts = new Float64Array(P);
  positions.forEach((p, j) => {
    const list = values.get(p)!;
    const sessions = sessionsOf.get(p)!;
    for (let i = 0; i < list.length; i++) {
      table[rowOf[sessions[i]!]! * P + j] = list[i]!;
      theta[j]! += list[i]!;
    }
    counts[j] = list.length;
    theta[j]! /= list.length;
  });
  const covariance = new Float64Array(P * P);
  const deviation = new Float64Array(P);
  for (let s = 0; s < S; s++) {
    for (let j = 0; j < P; j++) {
      const v = table[s * P + j]!;
      deviation[j] = Number.isNaN(v) ? 0 : v - theta[j]!;
    }
    for (let a = 0; a < P; a++) {
      if (deviation[a] === 0) continue;
      for (let b = 0; b < P; b++) covariance[a * P + b]! += (deviation[a]! * deviation[b]!) / (counts[a]! * counts[b]!);
    }
  }
  for (let i = 0; i < P * P; i++) covariance[i]! *= S / (S - 1);
  const { inverse, range, rank } = symmetricPseudoInverse(covariance, P);
  if (rank === 0 || S <= rank) return null;
  let outside = 0;
  let norm = 0;
  for (let a = 0; a < P; a++) {
    let projected = 0;
    for (let b = 0; b < P; b++) projected += range[a * P + b]! * theta[b]!;
    outside += (theta[a]! - projected) ** 2;
    norm += theta[a]! ** 2;
  }
  if (outside > 1e-18 * Math.max(norm, 1e-300) && outside > 1e-24) return null;
  let wald = 0;
  for (let a = 0; a < P; a++) for (let b = 0; b < P; b++) wald += theta[a]! * inverse[a * P + b]! * theta[b]!;
  const statistic = (wald * (S - rank)) / (rank * (S - 1));
  return { statistic, pValue: fSf(statistic, rank, S - rank), sessions: S };
}
