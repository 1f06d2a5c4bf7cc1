import type { PreparedBallot } from './prepare-ballots.js';

/**
 * 1-based ranks of the candidates a cleaned ballot ranks, tied candidates sharing their mean rank
 * (`tiedWithPrevious` groups). Returns the rank per position of `ballot.order` and the sizes of the tie groups. Internal.
 */
export function ballotRanks(ballot: PreparedBallot): { ranks: number[]; groupSizes: number[] } {
  const { order, tiedWithPrevious } = ballot;
  const ranks = new Array<number>(order.length).fill(0);
  const groupSizes: number[] = [];
  let start = 0;
  for (let k = 1; k <= order.length; k++) {
    if (k < order.length && tiedWithPrevious[k]) continue;
    const size = k - start;
    const mean = (start + 1 + k) / 2; // mean of the ranks start+1 … k
    for (let i = start; i < k; i++) ranks[i] = mean;
    groupSizes.push(size);
    start = k;
  }
  return { ranks, groupSizes };
}
