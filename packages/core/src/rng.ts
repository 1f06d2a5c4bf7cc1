/**
 * A source of uniform random numbers in [0, 1). Everything in this package that shuffles, samples
 * or draws a token takes one, so a seeded session is reproducible on every run and runtime.
 */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
}
