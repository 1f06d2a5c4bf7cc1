import { ScoringError } from './scoring-error.js';

/** Spearman's ρ and its sample size. */
export interface SpearmanRhoResult {
  /** Pearson's correlation of the two variables' ranks (ties share their mean rank), in [−1, 1]; null when either variable is constant (ρ is undefined). */
  rho: number | null;
  /** Pairs. */
  n: number;
}

/** 1-based ranks, ties given the mean of the positions they span. Internal. */
export function averageRanks(values: readonly number[]): Float64Array {
  const order = values.map((_, i) => i).sort((i, j) => values[i]! - values[j]!);
  const ranks = new Float64Array(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]!] === values[order[start]!]) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Spearman's rank correlation of paired values `x[i]`, `y[i]`: Pearson's r of their average ranks, so ties are
 * handled as `scipy.stats.spearmanr` handles them. Throws `INVALID_OPTION` for arrays of different lengths or a
 * value that is not a finite number, `INSUFFICIENT_DATA` for fewer than two pairs.
 */
export function spearmanRho(x: readonly number[], y: readonly number[]): SpearmanRhoResult {
  const where = 'spearmanRho';
  if (x.length !== y.length)
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: x and y must be paired (got ${x.length} and ${y.length} values); pass one value of each per item.`,
    });
  if (x.length < 2)
    throw new ScoringError({
      code: 'INSUFFICIENT_DATA',
      message: `${where}: ρ needs at least two pairs, got ${x.length}.`,
    });
  for (const v of [...x, ...y])
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new ScoringError({
        code: 'INVALID_OPTION',
        message: `${where}: values must be finite numbers, got ${String(v)}.`,
      });
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const n = x.length;
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = rx[i]! - mean;
    const dy = ry[i]! - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return { rho: null, n };
  return { rho: Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))), n };
}
