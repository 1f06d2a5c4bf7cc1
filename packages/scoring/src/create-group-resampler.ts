import type { Rng } from './create-rng.js';
import { sampleBinomial } from './sample-binomial.js';

/**
 * Bootstrap resampling of `total` items drawn with replacement, where the items come in groups of
 * identical ones (`sizes[g]` items in group g). Each call of the returned function writes into `out[g]`
 * how many of the `total` draws fell in group g. With few groups among many items this is an exact
 * multinomial draw by conditional binomials, a few steps per group instead of one random number per
 * item; otherwise items are drawn one by one. Either way the counts have the same distribution. Internal.
 */
export function createGroupResampler(sizes: readonly number[]): (rng: Rng, out: Int32Array) => void {
  const groups = sizes.length;
  let total = 0;
  for (const size of sizes) total += size;
  if (groups * 64 < total) {
    return (rng, out) => {
      out.fill(0);
      let remainingDraws = total;
      let remainingItems = total;
      for (let g = 0; g < groups && remainingDraws > 0; g++) {
        const drawn =
          g === groups - 1 ? remainingDraws : sampleBinomial(rng, remainingDraws, sizes[g]! / remainingItems);
        out[g] = drawn;
        remainingDraws -= drawn;
        remainingItems -= sizes[g]!;
      }
    };
  }
  const groupOfItem = new Int32Array(total);
  for (let g = 0, item = 0; g < groups; g++) for (let k = 0; k < sizes[g]!; k++) groupOfItem[item++] = g;
  return (rng, out) => {
    out.fill(0);
    for (let k = 0; k < total; k++) out[groupOfItem[rng.nextInt(total)]!]!++;
  };
}
