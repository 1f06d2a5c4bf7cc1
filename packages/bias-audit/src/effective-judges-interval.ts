/**
 * The jackknife's standard error from delete-one(-group) values θ₍₁₎…θ₍G₎: √((G − 1)/G · Σ(θ₍g₎ − θ̄₍·₎)²) (Efron and
 * Tibshirani 1993, eq. 11.5). NaN when a value is not finite or there are fewer than two.
 */
export function jackknifeStandardError(values: ArrayLike<number>): number {
  const G = values.length;
  if (G < 2) return Number.NaN;
  let mean = 0;
  for (let g = 0; g < G; g++) mean += values[g]!;
  mean /= G;
  let squares = 0;
  for (let g = 0; g < G; g++) squares += (values[g]! - mean) ** 2;
  return Math.sqrt(((G - 1) / G) * squares);
}

/**
 * The bootstrap-t interval (Efron and Tibshirani 1993, ch. 12): with t*_b = (θ*_b − θ̂)/SE*_b each replicate's
 * studentised distance from the estimate, [θ̂ − t*₍₁₋α/₂₎·SE, θ̂ − t*₍α/₂₎·SE], SE the full data's standard error and
 * t*₍q₎ the q-quantile of the pivots (linear between order statistics, as `quantileSorted`). NaN pivots are left
 * out; an infinite one (a replicate whose own SE is 0) stays, so a bound can be infinite. With SE = 0 the interval is
 * the estimate. null where fewer than 10 pivots are finite.
 */
export function bootstrapTInterval(options: {
  estimate: number;
  standardError: number;
  pivots: ArrayLike<number>;
  level: number;
}): { lower: number; upper: number } | null {
  const { estimate, standardError, level } = options;
  if (!Number.isFinite(estimate) || !Number.isFinite(standardError)) return null;
  const t = Float64Array.from(options.pivots)
    .filter((v) => !Number.isNaN(v))
    .sort();
  if (t.filter((v) => Number.isFinite(v)).length < 10) return null;
  if (standardError === 0) return { lower: estimate, upper: estimate };
  const quantile = (q: number): number => {
    const position = (t.length - 1) * q;
    const below = t[Math.floor(position)]!;
    const above = t[Math.ceil(position)]!;
    // Between an infinite order statistic and a finite one, the nearer-the-centre one (no ∞ − ∞).
    if (below === above || !Number.isFinite(below) || !Number.isFinite(above))
      return Number.isFinite(below) ? below : Number.isFinite(above) ? above : below;
    return below + (above - below) * (position - Math.floor(position));
  };
  const alpha = (1 - level) / 2;
  return { lower: estimate - quantile(1 - alpha) * standardError, upper: estimate - quantile(alpha) * standardError };
}
