import { normalQuantile } from '../normal-distribution.js';
import type { LengthPoint } from './session-indicators.js';
import { criticalT } from './t-summary.js';

/** |r| is capped here before Fisher's z so a session with a perfect correlation (e.g. n = 4 with integer scores) stays finite. */
const R_CAP = 0.9999;

/**
 * Fisher's z of one session's r, bias-corrected: z − r / (2n − 5). Hotelling (1953) gives
 * E[z] − ζ = ρ/(2(n − 1))·[1 + (5 + ρ²)/(4(n − 1)) + …] and E[r] = ρ·[1 − (1 − ρ²)/(2(n − 1)) + …], whose
 * ratio is ≈ 1/(2n − 5.5) for small ρ; 1/(2n − 5) leaves under 0.003 for n = 5, ρ ≤ 0.8 by simulation.
 */
function fisherZCorrected(p: LengthPoint): number {
  const r = Math.max(-R_CAP, Math.min(R_CAP, p.r));
  return Math.atanh(r) - r / (2 * p.n - 5);
}

/**
 * Fisher-z pooling of per-session correlations with weights n − 3, and its interval on the z scale from
 * the between-session (sandwich) standard error √(Σw²(z − z̄)² / (Σw)² · S/(S − 1)) with a t quantile on
 * S − 1 df. With a single usable session (or sessions that agree to rounding) the textbook 1/√Σ(n − 3).
 * Used for the rolling windows of the length trend.
 */
export function poolFisher(
  points: readonly LengthPoint[],
  level: number,
): { z: number; lower: number; upper: number; sessions: number } | null {
  let weight = 0;
  let sum = 0;
  const used: { w: number; z: number }[] = [];
  for (const p of points) {
    if (p.n < 4) continue;
    const w = p.n - 3;
    const z = fisherZCorrected(p);
    weight += w;
    sum += w * z;
    used.push({ w, z });
  }
  if (weight === 0) return null;
  const zBar = sum / weight;
  const k = used.length;
  let spread = 0;
  let largest = 0;
  for (const u of used) {
    spread += u.w * u.w * (u.z - zBar) ** 2;
    largest = Math.max(largest, Math.abs(u.z - zBar));
  }
  const half =
    k >= 2 && largest > 1e-12 * Math.max(1, Math.abs(zBar))
      ? criticalT(level, k - 1) * Math.sqrt((spread / (weight * weight)) * (k / (k - 1)))
      : normalQuantile(1 - (1 - level) / 2) / Math.sqrt(weight);
  return { z: zBar, lower: zBar - half, upper: zBar + half, sessions: k };
}
