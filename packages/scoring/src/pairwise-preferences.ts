import type { PreparedBallot } from './prepare-ballots.js';

/**
 * Calls `visit(first, second, tie)` once per pair of candidates that a cleaned ballot ranks (unranked
 * candidates take part in no pair): `first` is ranked above `second`, or tied with it when `tie` is
 * true (equal scores in a ranking derived from scores). Internal.
 */
export function forEachRankedPair(
  ballot: PreparedBallot,
  visit: (first: number, second: number, tie: boolean) => void,
): void {
  const { order, tiedWithPrevious } = ballot;
  for (let k = 0; k < order.length; k++) {
    // order[k] and order[l] are tied when every step k → k+1 → … → l is a tie.
    let tied = true;
    for (let l = k + 1; l < order.length; l++) {
      tied = tied && tiedWithPrevious[l] === true;
      visit(order[k]!, order[l]!, tied);
    }
  }
}

/**
 * `support[i][j]`: total weight of the ballots (weight > 0) that rank candidate i above candidate j.
 * Ties support neither side. Internal.
 */
export function pairwiseSupport(ballots: readonly PreparedBallot[], candidateCount: number): number[][] {
  const support = Array.from({ length: candidateCount }, () => new Array<number>(candidateCount).fill(0));
  for (const ballot of ballots) {
    if (ballot.weight === 0) continue;
    forEachRankedPair(ballot, (first, second, tie) => {
      if (!tie) support[first]![second]! += ballot.weight;
    });
  }
  return support;
}
