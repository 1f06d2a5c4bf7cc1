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
 * Each member's paired difference is Agresti & Min's (2005, Statistics in Medicine 24) "Wald+2", half an item added
 * to each cell of its 2×2 table: d_m = (n₁₀ − n₀₁)/(n + 2), se_m = √(n₁₀ + n₀₁ + 1 − (n₁₀ − n₀₁)²/(n + 2))/(n + 2),
 * with n₁₀ and n₀₁ the items only the synthesis, or only the member, got right (a member that never differs from the
 * synthesis still gets a width). θ is the least of the members' targets, so:
 * - the lower end is the least of the members' lower ends (d_m − 1.96·se_m): θ is the true best member's target, and
 *   that member's own lower end misses it 2.5% of the time, whichever member it is. Between near-equals it misses
 *   less, since all of their lower ends must lie above θ at once; it stays at 1.96 all the same, because a lower
 *   critical value read from the data would be set as if the members that look level were tied, and run narrow when
 *   one of them is in truth 1–2 standard errors behind.
 * - the upper end is the least of their upper ends, and holds only if every member's upper end stays above θ at
 *   once. Members far behind the best cannot fall below θ, so the critical value is raised only for the members that
 *   could be best, those with (d_m − min_k d_k)/se_m ≤ √(ln n) — generalized moment selection (Andrews & Soares
 *   2010, Econometrica 78(1), with their recommended threshold; Hansen's 2005 test for superior predictive ability
 *   selects the same way). It is set for the interval as a whole at the least favourable point of that set, all of
 *   them tied: the 95% point, over Gaussian multiplier draws over items (Chernozhukov, Chetverikov & Kato 2013, which
 *   keep the members' correlation through the shared synthesis), of the largest of their standardized differences
 *   below the estimate, a draw counting as a miss outright when every one of their lower ends misses. So the upper
 *   end spends the share of the 5% that the lower end leaves unused between near-equals, and is never below 1.96, a
 *   member's own (which a set that is in truth one clear leader needs). Two uncorrelated tied members get exactly
 *   1.96 (0.025² + 1 − Φ(c)² = 0.05), three 2.12.
 *
 * It replaced (issue 31) the plain paired Wald interval with the upper end's critical value calibrated to 2.5% on its
 * own, which covered 92.0–97.7% on the study's rows: under 93.5% at 20 items where the synthesis and the members are
 * right and wrong together (few items differ, and the Wald interval runs narrow), over 96.5% between near-equals
 * (the lower end's unused share). Before that, the percentile bootstrap of the difference with the best member
 * chosen again in each resample ran narrow between near-equals (90.2% at 50 items with two members 2 points apart):
 * the replicates' maximum sits above the true one.
 *
 * The ends are clamped to [−1, 1]. `draws` multiplier draws, seeded by `seed`; with one member that could be best, or
 * `draws` 0, none are made and every critical value is 1.96. Coverage: eval-interval-coverage-study.ts and the
 * CLI README.
 */
export function councilVsBestInterval(
  council: readonly number[],
  members: readonly (readonly number[])[],
  options: { draws: number; seed: number | string },
): { lower: number; upper: number } {
  const n = council.length;
  // The items, then Agresti and Min's half-items: x = +1 and −1 (weight ½ each) and x = 0 (weight 1), n + 2 in all.
  const weights = [...Array.from({ length: n }, () => 1), 0.5, 0.5, 1];
  const total = n + 2;
  const rows = members.map((answers) => {
    const x = [...answers.map((a, i) => council[i]! - a), 1, -1, 0];
    const d = x.reduce((s, v, j) => s + weights[j]! * v, 0) / total;
    const residual = x.map((v) => v - d);
    const squares = residual.reduce((s, r, j) => s + weights[j]! * r * r, 0);
    return { d, residual, squares, se: Math.sqrt(squares) / total };
  });
  const z = normalQuantile(0.975);
  const lowest = Math.min(...rows.map((r) => r.d));
  const threshold = Math.sqrt(Math.log(n));
  const selected = rows.filter((r) => (r.d - lowest) / r.se <= threshold);
  let critical = z;
  if (selected.length > 1 && options.draws > 0) {
    const rng = createRng(options.seed);
    const g = new Array<number>(weights.length);
    // Per draw, how far the upper end must reach to hold (the largest standardized difference below the estimate),
    // or Infinity when every selected lower end misses: that draw's interval misses whatever the upper end.
    const reach: number[] = [];
    for (let b = 0; b < options.draws; b++) {
      for (let j = 0; j < weights.length; j++) g[j] = gaussian(rng) * Math.sqrt(weights[j]!);
      let least = Number.POSITIVE_INFINITY;
      let most = Number.NEGATIVE_INFINITY;
      for (const r of selected) {
        let t = 0;
        for (let j = 0; j < g.length; j++) t += g[j]! * r.residual[j]!;
        t /= Math.sqrt(r.squares);
        least = Math.min(least, t);
        most = Math.max(most, -t);
      }
      reach.push(least > z ? Number.POSITIVE_INFINITY : most);
    }
    reach.sort((a, b) => a - b);
    const point = quantileSorted(reach, 0.95); // NaN between two Infinity entries: no finite end holds
    critical = Number.isNaN(point) ? Number.POSITIVE_INFINITY : Math.max(z, point);
  }
  const clamp = (x: number) => Math.min(1, Math.max(-1, x));
  return {
    lower: clamp(Math.min(...rows.map((r) => r.d - z * r.se))),
    upper: clamp(Math.min(...rows.map((r) => r.d + (selected.includes(r) ? critical : z) * r.se))),
  };
}
