import { normalQuantile } from '@council/bias-audit';
import { createRng, quantileSorted } from '@council/scoring';
import type { Rng } from '@council/scoring';

/** A standard normal draw (Box–Muller, the cosine half) from a seeded generator. */
function gaussian(rng: Rng): number {
  const u = 1 - rng.next(); // in (0, 1]: the logarithm stays finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * The 95% interval of θ = p_council − max_m p_m, the council's share correct minus its best member's, from the same
 * items (`council[i]` and `members[m][i]` are 1 when that answer to item i is right, else 0).
 *
 * θ is the least of the paired differences d_m = p_council − p_m, so:
 * - the lower end is the least of the members' ordinary lower ends (d_m − 1.96·se_m): θ equals the true best
 *   member's d_m, and that member's own lower end misses it 2.5% of the time, whichever member it is;
 * - the upper end is the least of their upper ends, and holds only if every member's upper end stays above θ at
 *   once. Members far behind the best cannot fall below θ, so the critical value is raised only for the members that
 *   could be best, those with (d_m − min_k d_k)/se_m ≤ √(ln n) — generalized moment selection (Andrews & Soares
 *   2010, Econometrica 78(1), with their recommended threshold; Hansen's 2005 test for superior predictive ability
 *   selects the same way): it is the 97.5% point of the largest of their standardized differences, drawn with the
 *   Gaussian multiplier bootstrap over items (Chernozhukov, Chetverikov & Kato 2013), which keeps the members'
 *   correlation through the shared synthesis. A clear leader gets the ordinary paired interval; near-equals a
 *   slightly wider upper end. Between near-equals the whole interval over-covers a little (up to 97% in the study):
 *   its lower end has to hold whichever of them is truly best. It replaced the percentile bootstrap of the
 *   difference with the best member chosen again in each resample, which ran narrow between near-equals (91.8% at 50
 *   items with two members 2 points apart): the replicates' maximum sits above the true one.
 *
 * se_m is the paired Wald standard error, √((p₁₀ + p₀₁ − d_m²)/n) with p₁₀ and p₀₁ the shares of items only the
 * synthesis, or only the member, got right. A member that never differs from the synthesis would get se 0, a
 * zero-width interval; it takes Agresti & Min's (2005) half an item in each cell of its 2×2 table instead
 * (d = 0, se = 1/(n + 2)). The ends are clamped to [−1, 1]. `draws` multiplier draws, seeded by `seed`; with one
 * member that could be best, none are made. Coverage: eval-interval-coverage.slow.test.ts and the CLI README.
 */
export function councilVsBestInterval(
  council: readonly number[],
  members: readonly (readonly number[])[],
  options: { draws: number; seed: number | string },
): { lower: number; upper: number } {
  const n = council.length;
  // The items, then Agresti and Min's half-items (x = +1 and −1, weight ½ each; x = 0, weight 1), which only a
  // member that never differs from the synthesis uses.
  const weights = [...Array.from({ length: n }, () => 1), 0.5, 0.5, 1];
  const rows = members.map((answers) => {
    const x = answers.map((a, i) => council[i]! - a);
    const differs = x.some((v) => v !== 0);
    const d = differs ? x.reduce((s, v) => s + v, 0) / n : 0;
    const residual = differs ? [...x.map((v) => v - d), 0, 0, 0] : [...x, 1, -1, 0];
    const squares = residual.reduce((s, r, j) => s + weights[j]! * r * r, 0);
    return { d, residual, squares, se: Math.sqrt(squares) / (differs ? n : n + 2) };
  });
  const z = normalQuantile(0.975);
  const lowest = Math.min(...rows.map((r) => r.d));
  const threshold = Math.sqrt(Math.log(n));
  const selected = rows.filter((r) => (r.d - lowest) / r.se <= threshold);
  let critical = z;
  if (selected.length > 1 && options.draws > 0) {
    const rng = createRng(options.seed);
    const g = new Array<number>(weights.length);
    const maxima: number[] = [];
    for (let b = 0; b < options.draws; b++) {
      for (let j = 0; j < weights.length; j++) g[j] = gaussian(rng) * Math.sqrt(weights[j]!);
      let max = Number.NEGATIVE_INFINITY;
      for (const r of selected) {
        let t = 0;
        for (let j = 0; j < g.length; j++) t += g[j]! * r.residual[j]!;
        max = Math.max(max, t / Math.sqrt(r.squares));
      }
      maxima.push(max);
    }
    maxima.sort((a, b) => a - b);
    // Never below one member's z: the largest of several draws is at least each one's.
    critical = Math.max(z, quantileSorted(maxima, 0.975));
  }
  const clamp = (x: number) => Math.min(1, Math.max(-1, x));
  return {
    lower: clamp(Math.min(...rows.map((r) => r.d - z * r.se))),
    upper: clamp(Math.min(...rows.map((r) => r.d + (selected.includes(r) ? critical : z) * r.se))),
  };
}
