import type { Ballot } from './ballot.js';
import { withCandidates } from './condorcet-options.js';
import type { OptionalCandidateOptions } from './condorcet-options.js';
import { pairwiseSupport } from './pairwise-preferences.js';
import { prepareBallots } from './prepare-ballots.js';

/** One candidate's pairwise-majority record. */
export interface CopelandEntry {
  candidate: string;
  /** `wins + ties / 2`. */
  score: number;
  /** Opponents it beats: more ballot weight ranks it above the opponent than below. */
  wins: number;
  losses: number;
  /** Opponents with equal support either way (including no head-to-head data at all). */
  ties: number;
  /** Competition rank by score. */
  rank: number;
}

/** `support[i][j]`: total weight of ballots ranking `candidates[i]` above `candidates[j]`. */
export interface PairwiseSupport {
  candidates: readonly string[];
  support: readonly (readonly number[])[];
}

/** Result of {@link copeland}. */
export interface CopelandResult {
  /** Sorted by score, then candidate id. */
  ranking: CopelandEntry[];
  /** The candidate that beats every other head to head, or null when none does. */
  condorcetWinner: string | null;
  pairwise: PairwiseSupport;
}

/** The candidate that beats every other in `support`, if any. Internal. */
export function findCondorcetWinner(
  candidates: readonly string[],
  support: readonly (readonly number[])[],
): string | null {
  const n = candidates.length;
  for (let i = 0; i < n; i++) {
    let beatsAll = true;
    for (let j = 0; j < n && beatsAll; j++) if (j !== i && !(support[i]![j]! > support[j]![i]!)) beatsAll = false;
    if (beatsAll) return candidates[i]!;
  }
  return null;
}

/**
 * Copeland's method: each pair of candidates is a contest decided by the weight of the ballots that
 * rank one above the other (only pairs a ballot ranks count; self-votes are excluded as in Borda);
 * a candidate scores one per contest won and a half per contest tied. Candidates default to every id
 * the ballots name.
 */
export function copeland(ballots: readonly Ballot[], options: OptionalCandidateOptions = {}): CopelandResult {
  const where = 'copeland';
  const { candidates, ballots: prepared } = prepareBallots(ballots, withCandidates(ballots, options, where), where);
  const n = candidates.length;
  const support = pairwiseSupport(prepared, n);
  const ranking: CopelandEntry[] = candidates.map((candidate, i) => {
    let wins = 0;
    let losses = 0;
    let ties = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const forI = support[i]![j]!;
      const forJ = support[j]![i]!;
      if (forI > forJ) wins++;
      else if (forI < forJ) losses++;
      else ties++;
    }
    return { candidate, score: wins + ties / 2, wins, losses, ties, rank: 0 };
  });
  ranking.sort((a, b) => b.score - a.score || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  ranking.forEach((entry, i) => {
    const previous = ranking[i - 1];
    entry.rank = previous === undefined || entry.score < previous.score ? i + 1 : previous.rank;
  });
  return { ranking, condorcetWinner: findCondorcetWinner(candidates, support), pairwise: { candidates, support } };
}
