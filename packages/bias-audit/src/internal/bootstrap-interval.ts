import { quantileSorted } from '@council/scoring';
import type { BootstrapMethod, BootstrapResult } from '../bootstrap-result.js';
import { normalCdf, normalQuantile } from '../normal-distribution.js';
import { studentTQuantile } from '../student-t-distribution.js';

/**
 * Reads a percentile or BCa interval off bootstrap replicates (non-finite ones dropped and counted).
 * BCa (Efron 1987): bias correction z0 = Φ⁻¹(share of replicates below the estimate, ties half),
 * acceleration a = Σ(θ̄ − θ₍ᵢ₎)³ / (6 [Σ(θ̄ − θ₍ᵢ₎)²]^{3/2}) from the leave-one-out values.
 *
 * With `expansionSampleSize` n (the number of independent units resampled, e.g. sessions), the nominal
 * tail share α/2 is first replaced by Φ(−√(n/(n − 1))·t₁₋α/₂,ₙ₋₁), Hesterberg's (2015) expanded
 * percentile interval: a bootstrap of a mean has variance (n − 1)/n of the unbiased one and reads
 * normal rather than t quantiles, so with few units it is too narrow (≈ 3.5% at n = 50). BCa then
 * adjusts the expanded shares as usual.
 */
export function bootstrapInterval(options: {
  estimate: number;
  replicates: Float64Array;
  level: number;
  method: BootstrapMethod;
  jackknife?: ArrayLike<number>;
  expansionSampleSize?: number;
}): BootstrapResult {
  const { estimate, level, method } = options;
  if (!Number.isFinite(estimate))
    return { computable: false, estimate: null, reason: 'the statistic is not finite on the full data' };
  const finite = options.replicates.filter((v) => Number.isFinite(v)).sort();
  const dropped = options.replicates.length - finite.length;
  const b = finite.length;
  if (b < 10) {
    return {
      computable: false,
      estimate,
      reason: `only ${b} of ${options.replicates.length} replicates gave a finite statistic`,
    };
  }
  let mean = 0;
  for (const v of finite) mean += v;
  mean /= b;
  let ss = 0;
  for (const v of finite) ss += (v - mean) ** 2;
  const standardError = Math.sqrt(ss / (b - 1));
  let alpha = (1 - level) / 2;
  const units = options.expansionSampleSize;
  if (units !== undefined && units >= 2)
    alpha = normalCdf(-Math.sqrt(units / (units - 1)) * studentTQuantile(1 - alpha, units - 1));
  let pLow = alpha;
  let pHigh = 1 - alpha;
  if (method === 'bca' && standardError > 0) {
    let below = 0;
    for (const v of finite) below += v < estimate ? 1 : v === estimate ? 0.5 : 0;
    const share = Math.min(1 - 0.5 / b, Math.max(0.5 / b, below / b));
    const z0 = normalQuantile(share);
    let acceleration = 0;
    const jack = options.jackknife;
    if (jack !== undefined && jack.length > 2) {
      let jm = 0;
      for (let i = 0; i < jack.length; i++) jm += jack[i]!;
      jm /= jack.length;
      let num = 0;
      let den = 0;
      for (let i = 0; i < jack.length; i++) {
        const d = jm - jack[i]!;
        num += d * d * d;
        den += d * d;
      }
      if (den > 0) acceleration = num / (6 * den ** 1.5);
    }
    const adjust = (p: number): number => {
      const z = normalQuantile(p);
      return normalCdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)));
    };
    pLow = adjust(alpha);
    pHigh = adjust(1 - alpha);
  }
  return {
    computable: true,
    estimate,
    lower: quantileSorted(finite, pLow),
    upper: quantileSorted(finite, pHigh),
    level,
    method,
    replicates: b,
    droppedReplicates: dropped,
    standardError,
  };
}
