import { regularizedGamma } from './regularized-gamma.js';
import { ScoringError } from './scoring-error.js';

function checkArguments(x: number, df: number, where: string): void {
  if (typeof x !== 'number' || Number.isNaN(x)) {
    throw new ScoringError({ code: 'INVALID_OPTION', message: `${where}: x must be a number, got ${String(x)}.` });
  }
  if (typeof df !== 'number' || !Number.isFinite(df) || df <= 0) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: df must be a finite number greater than 0, got ${String(df)}.`,
    });
  }
}

/** The CDF of the χ² distribution with `df` > 0 degrees of freedom: P(df/2, x/2) (0 for x ≤ 0). */
export function chiSquaredCdf(x: number, df: number): number {
  checkArguments(x, df, 'chiSquaredCdf');
  return regularizedGamma({ a: df / 2, x: Math.max(0, x) / 2 }).lower;
}

/** The upper tail P(χ² > x) = Q(df/2, x/2), computed directly so small p-values keep their digits. */
export function chiSquaredSf(x: number, df: number): number {
  checkArguments(x, df, 'chiSquaredSf');
  return regularizedGamma({ a: df / 2, x: Math.max(0, x) / 2 }).upper;
}
