/** z of a two-sided 95% interval: the standard normal's 0.975 quantile. */
const Z95 = 1.959963984540054;

/**
 * Wilson's 95% score interval for `count` successes of `n` (n ≥ 1): the interval eval gives a share of items. The
 * same formula as `@council/bias-audit`'s `wilsonInterval` (which its index does not export), at the one level eval
 * uses; at 0 the lower end is 0 and at n the upper end is 1.
 */
export function wilsonShareInterval(count: number, n: number): { lower: number; upper: number } {
  const p = count / n;
  const z2n = (Z95 * Z95) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (Z95 / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return { lower: count === 0 ? 0 : Math.max(0, centre - half), upper: count === n ? 1 : Math.min(1, centre + half) };
}
