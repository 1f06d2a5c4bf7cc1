import type { KrippendorffAlphaResult } from './krippendorff-alpha-result.js';

/**
 * Krippendorff's alpha with the ordinal metric, for `units[u]` = the values the coders gave unit u
 * (missing cells simply absent). Coincidences `o_ck = Σ_u (pairs c–k in u) / (m_u − 1)`; the ordinal
 * distance `δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k) / 2)²`; `α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck`
 * (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011). `alpha` is null when alpha is
 * undefined: no unit has two values, or every pairable value is the same. Values may be any finite
 * numbers (only their order counts).
 */
export function ordinalAlpha(
  units: readonly (readonly number[])[],
): KrippendorffAlphaResult | (Omit<KrippendorffAlphaResult, 'alpha'> & { alpha: null }) {
  const pairable = units.filter((values) => values.length >= 2);
  const distinct = [...new Set(pairable.flat())].sort((a, b) => a - b);
  const k = distinct.length;
  const indexOf = new Map(distinct.map((v, i) => [v, i]));
  const o = new Float64Array(k * k);
  for (const values of pairable) {
    const counts = new Float64Array(k);
    for (const v of values) counts[indexOf.get(v)!]!++;
    const scale = 1 / (values.length - 1);
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) continue;
      for (let e = 0; e < k; e++) {
        const pairs = c === e ? counts[c]! * (counts[c]! - 1) : counts[c]! * counts[e]!;
        o[c * k + e]! += pairs * scale;
      }
    }
  }
  const marginals = new Float64Array(k);
  for (let c = 0; c < k; c++) for (let e = 0; e < k; e++) marginals[c]! += o[c * k + e]!;
  let n = 0;
  for (const m of marginals) n += m;
  // prefix[c] = n_0 + … + n_{c−1}
  const prefix = new Float64Array(k + 1);
  for (let c = 0; c < k; c++) prefix[c + 1] = prefix[c]! + marginals[c]!;
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let e = 0; e < k; e++) {
      if (c === e) continue;
      const low = Math.min(c, e);
      const high = Math.max(c, e);
      const delta = (prefix[high + 1]! - prefix[low]! - (marginals[c]! + marginals[e]!) / 2) ** 2;
      observed += o[c * k + e]! * delta;
      expected += marginals[c]! * marginals[e]! * delta;
    }
  }
  const pairableValues = Math.round(n);
  if (!(expected > 0)) return { alpha: null, pairableValues, pairableUnits: pairable.length };
  return { alpha: 1 - ((n - 1) * observed) / expected, pairableValues, pairableUnits: pairable.length };
}
