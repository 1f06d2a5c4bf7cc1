import type { OrderMode } from './order-mode.js';
import type { RandomSource } from './random-source.js';
import { shuffle } from './shuffle.js';
import { williamsDesign } from './williams-design.js';

export interface CreatePresentationOrdersOptions {
  /** The ids of the answers to order. */
  candidates: readonly string[];
  /** How many reviewers need an order. */
  reviewerCount: number;
  mode: OrderMode;
  rng: RandomSource;
}

/**
 * One presentation order (candidate ids, first shown first) per reviewer, index-aligned with the
 * reviewers. Draws from `rng` only, so a seeded rng gives the same orders on every run.
 *
 * In `latin-square` mode the candidates are first mapped to the design's treatments by a random
 * shuffle, and the rows are dealt to reviewers in a random order (for odd counts, the first block of
 * `n` rows is dealt before the mirrored block, so position balance holds after `n` reviewers).
 */
export function createPresentationOrders(options: CreatePresentationOrdersOptions): string[][] {
  const { candidates, reviewerCount, mode, rng } = options;
  switch (mode) {
    case 'shared': {
      const order = shuffle(candidates, rng);
      return Array.from({ length: reviewerCount }, () => [...order]);
    }
    case 'per-reviewer':
      return Array.from({ length: reviewerCount }, () => shuffle(candidates, rng));
    case 'latin-square': {
      const n = candidates.length;
      if (n === 0) return Array.from({ length: reviewerCount }, () => []);
      const symbols = shuffle(candidates, rng);
      const design = williamsDesign(n);
      const rows =
        n % 2 === 1 ? [...shuffle(design.slice(0, n), rng), ...shuffle(design.slice(n), rng)] : shuffle(design, rng);
      return Array.from({ length: reviewerCount }, (_, r) => rows[r % rows.length]!.map((t) => symbols[t]!));
    }
  }
}
