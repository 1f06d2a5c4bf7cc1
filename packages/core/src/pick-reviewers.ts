import type { RandomSource } from './random-source.js';
import { shuffle } from './shuffle.js';

/** The reviewers: every candidate, or `maxReviewers` of them sampled with `rng` (kept in candidate order). */
export function pickReviewers(
  candidates: readonly string[],
  options: { maxReviewers: number | undefined; rng: RandomSource },
): readonly string[] {
  const { maxReviewers, rng } = options;
  if (maxReviewers === undefined || maxReviewers >= candidates.length) return candidates;
  const sampled = new Set(shuffle(candidates, rng).slice(0, maxReviewers));
  return candidates.filter((r) => sampled.has(r));
}
