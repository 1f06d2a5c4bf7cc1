/**
 * The q-quantile (0 ≤ q ≤ 1) of values already sorted ascending, interpolating linearly between order
 * statistics (Hyndman & Fan type 7, the default of R and NumPy). Internal; `sorted` must be non-empty.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  const fraction = position - below;
  const low = sorted[below]!;
  return fraction === 0 ? low : low + (sorted[above]! - low) * fraction;
}
