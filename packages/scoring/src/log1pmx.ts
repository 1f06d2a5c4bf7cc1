/**
 * ln(1 + x) − x without cancellation for small |x| (series below |x| < 0.5). `onePlusX`, when
 * given, is 1 + x formed without rounding (e.g. a ratio), used for ln when |x| is large.
 */
export function log1pmx(x: number, onePlusX?: number): number {
  if (Math.abs(x) >= 0.5) return (onePlusX === undefined ? Math.log1p(x) : Math.log(onePlusX)) - x;
  // −x²/2 + x³/3 − x⁴/4 + …
  let term = x;
  let sum = 0;
  for (let k = 2; k < 200; k++) {
    term *= -x;
    const add = term / k;
    sum += add;
    if (Math.abs(add) <= 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}
