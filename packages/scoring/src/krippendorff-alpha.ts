import type { Ballot } from './ballot.js';
import { ballotRanks } from './ballot-ranks.js';
import { withCandidates } from './condorcet-options.js';
import type { OptionalCandidateOptions } from './condorcet-options.js';
import type { KrippendorffAlphaResult } from './krippendorff-alpha-result.js';
import { ordinalAlpha } from './ordinal-alpha.js';
import { prepareBallots } from './prepare-ballots.js';
import { ScoringError } from './scoring-error.js';

/**
 * Krippendorff's alpha, ordinal metric: units are candidates, coders are the non-abstaining ballots
 * (weights ignored: agreement is a diagnostic), a cell is the 1-based position a ballot gives a
 * candidate after cleaning (ties share their mean position). Missing cells — unranked candidates and the self-votes
 * removed when `excludeSelfVotes` is true (the default) — are simply absent, as alpha allows.
 * Throws `INSUFFICIENT_DATA` when no candidate is ranked by two ballots or all ranks are equal.
 */
export function krippendorffAlpha(
  ballots: readonly Ballot[],
  options: OptionalCandidateOptions = {},
): KrippendorffAlphaResult {
  const where = 'krippendorffAlpha';
  const { candidates, ballots: prepared } = prepareBallots(ballots, withCandidates(ballots, options, where), where);
  const units: number[][] = candidates.map(() => []);
  for (const ballot of prepared) {
    const { ranks } = ballotRanks(ballot);
    ballot.order.forEach((c, k) => units[c]!.push(ranks[k]!));
  }
  const { alpha, pairableUnits, pairableValues } = ordinalAlpha(units);
  if (alpha === null) {
    throw new ScoringError({
      code: 'INSUFFICIENT_DATA',
      message: `${where}: alpha is undefined for these ballots (${pairableUnits} candidates ranked by two or more ballots, ${pairableValues} ranks among them, no variation); it needs a candidate ranked by at least two ballots and ranks that are not all equal.`,
    });
  }
  return { alpha, pairableUnits, pairableValues };
}
