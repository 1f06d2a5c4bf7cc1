import { createSeededRandom } from '../seeded-random.js';

/** The outcome of a within-block permutation test. */
export interface PermutationTestResult {
  statistic: number;
  pValue: number;
  /** Permutations actually drawn (sequential stopping ends early once the answer is clear). */
  permutations: number;
  blocks: number;
}

/**
 * Tests "the label (display position) has no effect on the value" by permuting labels within each
 * block (a reviewer's view of one session), which is exact under ADR-017's randomised orders.
 * Statistic: Σ_p S_p² / n_p, the between-label sum of squares of block-centred values. Uses Besag &
 * Clifford's (1991) sequential Monte Carlo p-value: stop after `stopAfter` permutations at least as
 * extreme (p = h / L); otherwise p = (G + 1) / (B + 1).
 */
export function blockPermutationTest(options: {
  values: Float64Array;
  labels: Int32Array;
  /** blockStarts[b] is the first index of block b; the last block ends at values.length. */
  blockStarts: readonly number[];
  permutations: number;
  seed: number;
  stopAfter?: number;
}): PermutationTestResult {
  const { values, labels, blockStarts, permutations, seed } = options;
  const stopAfter = options.stopAfter ?? 10;
  let maxLabel = 0;
  for (let i = 0; i < labels.length; i++) maxLabel = Math.max(maxLabel, labels[i]!);
  const counts = new Float64Array(maxLabel + 1);
  for (let i = 0; i < labels.length; i++) counts[labels[i]!]!++;
  const sums = new Float64Array(maxLabel + 1);
  const statisticOf = (assigned: Int32Array): number => {
    sums.fill(0);
    for (let i = 0; i < values.length; i++) sums[assigned[i]!]! += values[i]!;
    let t = 0;
    for (let p = 0; p <= maxLabel; p++) if (counts[p]! > 0) t += (sums[p]! * sums[p]!) / counts[p]!;
    return t;
  };
  const observed = statisticOf(labels);
  const work = Int32Array.from(labels);
  const random = createSeededRandom(seed);
  const ends = [...blockStarts.slice(1), values.length];
  let extreme = 0;
  let drawn = 0;
  const tolerance = 1e-12 * Math.max(1, Math.abs(observed));
  for (; drawn < permutations; drawn++) {
    for (let b = 0; b < blockStarts.length; b++) {
      const start = blockStarts[b]!;
      for (let i = ends[b]! - 1; i > start; i--) {
        const j = start + Math.floor((random.uint32() * (i - start + 1)) / 4294967296);
        const tmp = work[i]!;
        work[i] = work[j]!;
        work[j] = tmp;
      }
    }
    if (statisticOf(work) >= observed - tolerance) {
      extreme++;
      if (extreme >= stopAfter) {
        drawn++;
        return { statistic: observed, pValue: extreme / drawn, permutations: drawn, blocks: blockStarts.length };
      }
    }
  }
  return { statistic: observed, pValue: (extreme + 1) / (permutations + 1), permutations, blocks: blockStarts.length };
}
