import { chiSquaredCdf as scoringChiSquaredCdf, chiSquaredSf as scoringChiSquaredSf } from '@council/scoring';
import { assertNumber, assertPositive } from './internal/assert.js';

/** The CDF of the χ² distribution with `df` > 0 degrees of freedom: P(df/2, x/2) (`@council/scoring`'s, with this package's argument checks). */
export function chiSquaredCdf(x: number, df: number): number {
  assertNumber(x, 'x', true);
  assertPositive(df, 'df');
  return scoringChiSquaredCdf(x, df);
}

/** The upper tail P(χ² > x), computed directly so small p-values keep their digits (`@council/scoring`'s, with this package's argument checks). */
export function chiSquaredSf(x: number, df: number): number {
  assertNumber(x, 'x', true);
  assertPositive(df, 'df');
  return scoringChiSquaredSf(x, df);
}
