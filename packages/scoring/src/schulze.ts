import type { Ballot } from './ballot.js';
import { withCandidates } from './condorcet-options.js';
import type { OptionalCandidateOptions } from './condorcet-options.js';
import { findCondorcetWinner } from './copeland.js';
import type { PairwiseSupport } from './copeland.js';
import { pairwiseSupport } from './pairwise-preferences.js';
import { prepareBallots } from './prepare-ballots.js';

/** One candidate's place in the Schulze order. */
export interface SchulzeEntry {
  candidate: string;
  /** Competition rank by `beats`. */
  rank: number;
  /** Opponents it beats by strongest path (`paths[i][j] > paths[j][i]`). */
  beats: number;
}

/** Result of {@link schulze}. */
export interface SchulzeResult {
  /** Sorted by `beats`, then candidate id. */
  ranking: SchulzeEntry[];
  /** Candidates no one beats by strongest path (the Schulze winners; one unless there is a tie). */
  winners: string[];
  /** The candidate that beats every other head to head, or null when none does. */
  condorcetWinner: string | null;
  pairwise: PairwiseSupport;
  /** `paths[i][j]`: strength of the strongest path from candidate i to candidate j (winning votes). */
  strongestPaths: PairwiseSupport;
}

/**
 * The Schulze method (winning votes): the strength of a direct link i → j is the support for i over j
 * when that exceeds the support for j over i, else 0; strongest paths are widest paths (Floyd–Warshall).
 * Pairwise support is built as in {@link copeland}. Candidates default to every id the ballots name.
 */
export function schulze(ballots: readonly Ballot[], options: OptionalCandidateOptions = {}): SchulzeResult {
  const where = 'schulze';
  const { candidates, ballots: prepared } = prepareBallots(ballots, withCandidates(ballots, options, where), where);
  const n = candidates.length;
  const d = pairwiseSupport(prepared, n);
  const p = d.map((row, i) => row.map((value, j) => (i !== j && value > d[j]![i]! ? value : 0)));
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      for (let j = 0; j < n; j++) {
        if (j === i || j === k) continue;
        const through = Math.min(p[i]![k]!, p[k]![j]!);
        if (through > p[i]![j]!) p[i]![j] = through;
      }
    }
  }
  const beaten = new Int32Array(n);
  const ranking: SchulzeEntry[] = candidates.map((candidate, i) => {
    let beats = 0;
    for (let j = 0; j < n; j++) {
      if (j === i || !(p[i]![j]! > p[j]![i]!)) continue;
      beats++;
      beaten[j]!++;
    }
    return { candidate, rank: 0, beats };
  });
  const winners = candidates.filter((_, i) => beaten[i] === 0);
  ranking.sort((a, b) => b.beats - a.beats || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0));
  ranking.forEach((entry, i) => {
    const previous = ranking[i - 1];
    entry.rank = previous === undefined || entry.beats < previous.beats ? i + 1 : previous.rank;
  });
  return {
    ranking,
    winners,
    condorcetWinner: findCondorcetWinner(candidates, d),
    pairwise: { candidates, support: d },
    strongestPaths: { candidates, support: p },
  };
}
