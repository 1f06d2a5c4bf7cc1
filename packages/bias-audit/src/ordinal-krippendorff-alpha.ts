import { BiasAuditError } from './bias-audit-error.js';

/** Ordinal Krippendorff's α, or why it cannot be computed. */
export type KrippendorffAlphaResult =
  | {
      computable: true;
      alpha: number;
      /** Units (candidates) with at least two values, the only ones that carry agreement information. */
      units: number;
      /** n: the number of pairable values behind the coincidence matrix. */
      pairableValues: number;
    }
  | { computable: false; reason: string; units: number; pairableValues: number };

/**
 * Krippendorff's α with the ordinal metric, for ratings given as `{ coder: { unit: value } }` (a
 * reviewer's scores of candidates; null or absent = not rated). Built from the coincidence matrix:
 * α = 1 − (n − 1)·Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, with δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)²
 * (Krippendorff 2011, "Computing Krippendorff's alpha-reliability").
 */
export function ordinalKrippendorffAlpha(ratings: Readonly<Record<string, Readonly<Record<string, number | null>>>>): KrippendorffAlphaResult {
  if (typeof ratings !== 'object' || ratings === null) {
    throw new BiasAuditError({ code: 'INVALID_INPUT', message: 'ratings must be an object of the form { coder: { unit: value } }.' });
  }
  const byUnit = new Map<string, number[]>();
  for (const [coder, row] of Object.entries(ratings)) {
    for (const [unit, value] of Object.entries(row ?? {})) {
      if (value === null || value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new BiasAuditError({
          code: 'INVALID_INPUT',
          message: `The value ${coder} gave ${unit} is ${String(value)}; values must be finite numbers, or null when not rated.`,
        });
      }
      const list = byUnit.get(unit);
      if (list) list.push(value);
      else byUnit.set(unit, [value]);
    }
  }
  const units = [...byUnit.values()].filter((values) => values.length >= 2);
  const distinct = [...new Set(units.flat())].sort((a, b) => a - b);
  const index = new Map(distinct.map((v, i) => [v, i]));
  const k = distinct.length;
  const o = Array.from({ length: k }, () => new Float64Array(k));
  for (const values of units) {
    const weight = 1 / (values.length - 1);
    for (let i = 0; i < values.length; i++) {
      for (let j = 0; j < values.length; j++) {
        if (i !== j) o[index.get(values[i]!)!]![index.get(values[j]!)!]! += weight;
      }
    }
  }
  const marginals = o.map((row) => row.reduce((s, v) => s + v, 0));
  const n = marginals.reduce((s, v) => s + v, 0);
  const pairableValues = Math.round(n);
  if (units.length === 0) return { computable: false, reason: 'no candidate was scored by two or more reviewers', units: 0, pairableValues };
  if (k < 2) {
    return { computable: false, reason: 'every score is the same value, so disagreement expected by chance is zero', units: units.length, pairableValues };
  }
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    let cumulative = 0;
    for (let e = c; e < k; e++) {
      cumulative += marginals[e]!;
      const delta = (cumulative - (marginals[c]! + marginals[e]!) / 2) ** 2;
      // δ² is symmetric: count (c, e) and (e, c) together.
      const factor = c === e ? 1 : 2;
      observed += factor * o[c]![e]! * delta;
      expected += factor * marginals[c]! * marginals[e]! * delta;
    }
  }
  return { computable: true, alpha: 1 - ((n - 1) * observed) / expected, units: units.length, pairableValues };
}
