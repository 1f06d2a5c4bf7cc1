/**
 * The q-quantile of values already sorted ascending, interpolating linearly between order statistics
 * (Hyndman & Fan type 7, the default of R and NumPy); q is clamped to [0, 1]. `sorted` must be non-empty.
 * Bootstrap intervals here and in `@council/bias-audit` read their percentiles with it.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const fraction = position - below;
  const low = sorted[below]!;
  return fraction === 0 ? low : low + (sorted[above]! - low) * fraction;
}
