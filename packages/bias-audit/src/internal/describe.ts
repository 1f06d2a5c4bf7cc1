/** Arithmetic mean (the caller guarantees a non-empty list). */
export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

/** Variance with the given denominator offset: 0 → population (NumPy's default), 1 → sample. */
export function variance(values: ArrayLike<number>, ddof: 0 | 1): number {
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < values.length; i++) ss += (values[i]! - m) ** 2;
  return ss / (values.length - ddof);
}

/** The median (average of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
