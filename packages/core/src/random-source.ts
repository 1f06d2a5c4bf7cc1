import type { Rng as ScoringRng } from '@council/scoring';

/**
 * A source of uniform random numbers in [0, 1): the `next()` of `@council/scoring`'s `Rng`. Everything
 * in this package that shuffles, samples or draws a token takes one, so a seeded session is
 * reproducible on every run and runtime; any object with `next()` will do (`createSeededMulberry32` makes
 * the one a seeded session uses).
 */
export type RandomSource = Pick<ScoringRng, 'next'>;
