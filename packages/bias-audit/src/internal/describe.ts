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

/** The median (average of the middle two for an even count); `values` hold no NaN. */
export function median(values: ArrayLike<number>): number {
  // Selection, not a sort: a million values take milliseconds, not half a second. The values are those a sort
  // would put in the middle, bit for bit (−0 and 0 included).
  const a = Float64Array.from(values);
  const n = a.length;
  const mid = Math.floor(n / 2);
  const upper = selectInPlace(a, mid);
  if (n % 2 === 1) return signedZeroAt(a, mid, upper);
  // Everything before `mid` is now at most a[mid]: the middle value below it is their largest.
  let lower = a[0]!;
  for (let i = 1; i < mid; i++) if (a[i]! > lower) lower = a[i]!;
  return (signedZeroAt(a, mid - 1, lower) + signedZeroAt(a, mid, upper)) / 2;
}

/** The k-th smallest of `a` (0-based), rearranging `a` so that a[k] is it, those before at most it and those after at least it. */
function selectInPlace(a: Float64Array, k: number): number {
  let left = 0;
  let right = a.length - 1;
  while (right > left) {
    // Median of three as the pivot, then Hoare's partition.
    const middle = (left + right) >>> 1;
    const pivot = Math.max(Math.min(a[left]!, a[middle]!), Math.min(Math.max(a[left]!, a[middle]!), a[right]!));
    let i = left;
    let j = right;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return a[k]!;
}

/** `value` (the k-th smallest), except that a zero takes the sign a sort gives the k-th place: −0 before 0. */
function signedZeroAt(values: ArrayLike<number>, k: number, value: number): number {
  if (value !== 0) return value;
  let below = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! < 0 || Object.is(values[i], -0)) below++;
  return k < below ? -0 : 0;
}
