import { normalQuantile } from './normal-distribution.js';

/**
 * The Wilson (1927) score interval of a binomial proportion, without continuity correction: the
 * interval that Newcombe (1998) recommends and tabulates (method 3). With no trials it is [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, level = 0.95): { lower: number; upper: number } {
  if (!Number.isInteger(trials) || trials < 0 || !(successes >= 0 && successes <= trials)) {
    throw new RangeError(
      `wilsonInterval needs 0 ≤ successes ≤ trials with an integer trials, got ${successes}/${trials}.`,
    );
  }
  if (trials === 0) return { lower: 0, upper: 1 };
  return wilsonBounds(successes / trials, trials, level);
}

/**
 * Wilson's score interval at a proportion `p` of `n` trials, where `n` may be any positive number (an effective
 * sample size); at p = 0 the lower end is 0 and at p = 1 the upper end is 1.
 */
export function wilsonBounds(p: number, n: number, level = 0.95): { lower: number; upper: number } {
  const z = normalQuantile(1 - (1 - level) / 2);
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return {
    lower: p === 0 ? 0 : Math.max(0, centre - half),
    upper: p === 1 ? 1 : Math.min(1, centre + half),
  };
}
