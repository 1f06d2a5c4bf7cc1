import { studentTTwoSided } from '../student-t-distribution.js';

/**
 * p of "the effect lies within ±margin" from the t that gives the figure's interval: twice the upper tail
 * of (|estimate| − margin)/SE on `df`, 1 when |estimate| ≤ margin. p ≤ 1 − level exactly when that interval
 * lies beyond ±margin, so a flag (whose adjusted p is larger still) never fires while its interval reaches
 * inside the margin. At |effect| = margin the test rejects at most half of α: it is conservative there.
 */
export function marginPValue(spec: { estimate: number; standardError: number; df: number; margin: number }): number {
  const excess = Math.abs(spec.estimate) - spec.margin;
  if (!(excess > 0)) return 1;
  if (!(spec.standardError > 0)) return 0;
  return studentTTwoSided(excess / spec.standardError, spec.df);
}
