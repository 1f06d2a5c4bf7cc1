import { logGamma } from './log-gamma.js';
import type { Rng } from './create-rng.js';

/**
 * One draw from Binomial(trials, p) by inversion: from 0 when the mean is small, otherwise Kemp's
 * chop-down search outward from the mode (expected steps ∝ the standard deviation). Exact up to
 * floating-point rounding of the probabilities. Internal.
 */
export function sampleBinomial(rng: Rng, trials: number, p: number): number {
  if (trials === 0 || p <= 0) return 0;
  if (p >= 1) return trials;
  if (p > 0.5) return trials - sampleBinomial(rng, trials, 1 - p);
  const q = 1 - p;
  const odds = p / q;
  let u = rng.next();
  if (trials * p < 20) {
    let f = Math.pow(q, trials);
    for (let k = 0; k < trials; k++) {
      if (u < f) return k;
      u -= f;
      f *= (odds * (trials - k)) / (k + 1);
    }
    return trials;
  }
  const mode = Math.floor((trials + 1) * p);
  const fMode = Math.exp(
    logGamma(trials + 1) -
      logGamma(mode + 1) -
      logGamma(trials - mode + 1) +
      mode * Math.log(p) +
      (trials - mode) * Math.log(q),
  );
  if (u < fMode) return mode;
  u -= fMode;
  let low = mode;
  let high = mode;
  let fLow = fMode;
  let fHigh = fMode;
  while (low > 0 || high < trials) {
    if (low > 0) {
      fLow *= low / (odds * (trials - low + 1));
      low--;
      if (u < fLow) return low;
      u -= fLow;
    }
    if (high < trials) {
      fHigh *= (odds * (trials - high)) / (high + 1);
      high++;
      if (u < fHigh) return high;
      u -= fHigh;
    }
  }
  return mode; // only reachable through rounding of probabilities summing to just under 1
}
