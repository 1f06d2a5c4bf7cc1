/**
 * The rows of a Williams design for `n` treatments (Williams 1949): a balanced Latin square in which
 * every treatment appears in every position equally often, and every treatment immediately follows
 * every other treatment equally often (first-order carry-over balance).
 *
 * For even `n` there are `n` rows. For odd `n` no single square is carry-over balanced, so the `n`
 * rows are followed by their `n` mirror images (`2n` rows); the first `n` rows alone are still a
 * Latin square, so position balance holds after `n` rows and carry-over balance after `2n`.
 * Each row lists treatment indices 0…n−1 in presentation order.
 */
export function williamsDesign(n: number): number[][] {
  if (!Number.isInteger(n) || n < 1) return [];
  // First row: 0, 1, n−1, 2, n−2, 3, …
  const first: number[] = [0];
  for (let k = 1, lo = 1, hi = n - 1; k < n; k++) {
    if (k % 2 === 1) first.push(lo++);
    else first.push(hi--);
  }
  const rows = Array.from({ length: n }, (_, r) => first.map((t) => (t + r) % n));
  if (n % 2 === 1 && n > 1) return [...rows, ...rows.map((row) => [...row].reverse())];
  return rows;
}
