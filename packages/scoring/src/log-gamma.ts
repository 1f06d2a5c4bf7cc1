const HALF_LOG_TWO_PI = 0.9189385332046728;

/**
 * The remainder of Stirling's series, `lnΓ(a) − [(a − ½)·ln a − a + ½·ln 2π]`, for a ≥ 10,
 * where seven terms of the asymptotic series leave less than 1e-17 absolute error.
 */
export function stirlingCorrection(a: number): number {
  const inv = 1 / a;
  const inv2 = inv * inv;
  // Bernoulli-number coefficients B₂ₖ / (2k(2k − 1)): 1/12, −1/360, 1/1260, −1/1680, 1/1188, −691/360360, 1/156.
  return (
    inv *
    (1 / 12 +
      inv2 *
        (-1 / 360 +
          inv2 * (1 / 1260 + inv2 * (-1 / 1680 + inv2 * (1 / 1188 + inv2 * (-691 / 360360 + inv2 * (1 / 156)))))))
  );
}

/**
 * ln Γ(a) for a > 0. Arguments below 10 are shifted up with Γ(a) = Γ(a + k) / (a(a+1)…(a+k−1)),
 * then Stirling's series with `stirlingCorrection` is used: absolute error below 5e-15, which is
 * what matters wherever the value is exponentiated.
 */
export function logGamma(a: number): number {
  if (!(a > 0) || !Number.isFinite(a)) return Number.NaN;
  let shift = 0;
  let product = 1;
  let x = a;
  while (x < 10) {
    product *= x;
    x += 1;
    shift += 1;
  }
  const stirling = (x - 0.5) * Math.log(x) - x + HALF_LOG_TWO_PI + stirlingCorrection(x);
  return shift === 0 ? stirling : stirling - Math.log(product);
}

/** ½·ln(2π). */
export const HALF_LOG_2PI: number = HALF_LOG_TWO_PI;
