import { createSeededSfc32 } from '../create-seeded-sfc32.js';

/** The outcome of a within-block permutation test. */
export interface PermutationTestResult {
  statistic: number;
  pValue: number;
  /** Permutations actually drawn (sequential stopping ends early once the answer is clear). */
  permutations: number;
  blocks: number;
}

/**
 * Tests "the label (display position) has no effect on the value" by relabelling within blocks (a
 * reviewer's view of one session). The unit that is relabelled must be the unit whose order was
 * randomised: blocks with the same `blockGroups` entry (reviewers of one session who were shown the
 * same order) share one random permutation of their labels, so a shared order is permuted once for
 * all its reviewers. Permuting them independently would break the link between candidate and position
 * that a shared order keeps, and candidate quality would then pass for a position effect. Without
 * `blockGroups` every block is its own group (per-reviewer orders). Statistic: Σ_p S_p² / n_p, the
 * between-label sum of squares of block-centred values. Uses Besag & Clifford's (1991) sequential
 * Monte Carlo p-value: stop after `stopAfter` permutations at least as extreme (p = h / L); otherwise
 * p = (G + 1) / (B + 1).
 */
export function blockPermutationTest(options: {
  values: Float64Array;
  labels: Int32Array;
  /** blockStarts[b] is the first index of block b; the last block ends at values.length. */
  blockStarts: readonly number[];
  /** blockGroups[b]: blocks with equal entries were shown the same order and are relabelled together. */
  blockGroups?: readonly number[];
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

  // Each group: its blocks, and the distinct labels its observations carry (the labels it permutes).
  const ends = [...blockStarts.slice(1), values.length];
  const groupIndex = new Map<number, number>();
  const groupBlocks: number[][] = [];
  blockStarts.forEach((_, b) => {
    const key = options.blockGroups?.[b] ?? -1 - b;
    let g = groupIndex.get(key);
    if (g === undefined) {
      g = groupBlocks.length;
      groupIndex.set(key, g);
      groupBlocks.push([]);
    }
    groupBlocks[g]!.push(b);
  });
  const seen = new Int32Array(maxLabel + 1).fill(-1);
  const groupLabels = groupBlocks.map((blocks, g) => {
    const list: number[] = [];
    for (const b of blocks) {
      for (let i = blockStarts[b]!; i < ends[b]!; i++) {
        const label = labels[i]!;
        if (seen[label] !== g) {
          seen[label] = g;
          list.push(label);
        }
      }
    }
    return Int32Array.from(list);
  });

  const work = Int32Array.from(labels);
  const relabel = new Int32Array(maxLabel + 1);
  const scratch = new Int32Array(maxLabel + 1);
  const random = createSeededSfc32(seed);
  let extreme = 0;
  let drawn = 0;
  const tolerance = 1e-12 * Math.max(1, Math.abs(observed));
  for (; drawn < permutations; drawn++) {
    for (let g = 0; g < groupBlocks.length; g++) {
      const own = groupLabels[g]!;
      const k = own.length;
      scratch.set(own);
      for (let i = k - 1; i > 0; i--) {
        const j = Math.floor((random.uint32() * (i + 1)) / 4294967296);
        const tmp = scratch[i]!;
        scratch[i] = scratch[j]!;
        scratch[j] = tmp;
      }
      for (let i = 0; i < k; i++) relabel[own[i]!] = scratch[i]!;
      for (const b of groupBlocks[g]!) for (let i = blockStarts[b]!; i < ends[b]!; i++) work[i] = relabel[labels[i]!]!;
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
