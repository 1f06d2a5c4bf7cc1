/** Pearson's r of some pairs, with the centred sums of squares behind it. */
export interface PearsonR {
  /** r, clamped to [−1, 1]; null when either side has no variance (`sxx` or `syy` is 0). */
  r: number | null;
  sxx: number;
  syy: number;
}

/** Pearson's r of the first `n` pairs of `x` and `y` (two passes: means, then centred sums). */
export function pearsonR(x: ArrayLike<number>, y: ArrayLike<number>, n: number): PearsonR {
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const r = sxx === 0 || syy === 0 ? null : Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  return { r, sxx, syy };
}
