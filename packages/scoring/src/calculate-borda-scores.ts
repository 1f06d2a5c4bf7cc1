import type { Ballot, CandidateOptions } from './ballot.js';
import { forEachCleanedBallot } from './prepare-ballots.js';
import type { PreparedBallot } from './prepare-ballots.js';
import { ScoringError } from './scoring-error.js';

/** How much of the possible evidence a score rests on (ADR-007's confidence indicator). */
export type Confidence = 'high' | 'medium' | 'low';

/** One candidate's line on a session's Borda leaderboard. */
export interface LeaderboardEntry {
  candidate: string;
  /** Mean normalised Borda score over the votes received, 0 (last) … 1 (first); 0 with no votes. */
  bordaScore: number;
  /** Mean Borda points over the votes received, on ADR-007's scale (m − 1 for first, 0 for last). */
  bordaPoints: number;
  /** Ballots (weight > 0) that ranked this candidate. */
  voteCount: number;
  /** Ballots (weight > 0) that ranked this candidate first. */
  winCount: number;
  /** Competition rank (1, 1, 3): equal scores (within 1e-9) share a rank; no votes ranks after every vote. */
  finalRank: number;
  /** Coverage = votes / ballots that could have ranked it: high ≥ 0.8, medium ≥ 0.5, else low. */
  confidence: Confidence;
}

/** Options of {@link calculateBordaScores}. */
export type BordaOptions = CandidateOptions;

/** Scores within this distance are equal (ADR-007's ties). */
export const SCORE_EPSILON = 1e-9;

/** Coverage thresholds of ADR-007's `calculate_confidence`. */
export function confidenceFromCoverage(coverage: number): Confidence {
  if (coverage >= 0.8) return 'high';
  if (coverage >= 0.5) return 'medium';
  return 'low';
}

/**
 * Borda count over one session's ballots, with every edge case of ADR-007.
 *
 * A ballot that can rank `m` eligible candidates gives the candidate at (cleaned, 0-based) position `p`
 * `m − 1 − p` points and a normalised score `(m − 1 − p) / (m − 1)`; unranked candidates get no vote
 * from it; a ballot with `m < 2` expresses no preference and casts no vote. Scores are weighted means
 * over the votes received. Returns one entry per candidate, sorted by rank; ties are ordered by
 * `winCount`, then candidate id.
 */
export function calculateBordaScores(ballots: readonly Ballot[], options: BordaOptions): LeaderboardEntry[] {
  const where = 'calculateBordaScores';
  if (typeof options !== 'object' || options === null) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: pass an options object with at least { candidates }.`,
    });
  }
  const n = Array.isArray(options.candidates) ? options.candidates.length : 0;
  // Accumulators in one plain array (cheaper than seven, or than typed arrays, for a session's handful of
  // candidates): score sums at [0, n), points sums at [n, 2n), weight sums, votes, wins, possible, and
  // the largest weight seen per candidate. Sums hold weights divided by that largest weight, so the
  // weighted means neither overflow (weights near 1e308) nor underflow (weights near 5e-324).
  const acc = new Array<number>(7 * n).fill(0);
  const POINTS = n;
  const WEIGHT = 2 * n;
  const VOTES = 3 * n;
  const WINS = 4 * n;
  const POSSIBLE = 5 * n;
  const SCALE = 6 * n;
  let firstReviewer: string | undefined;
  let severalReviewers = false;

  const visit = (ballot: PreparedBallot): void => {
    if (ballot.weight === 0) return; // advisory: not in scores
    if (firstReviewer === undefined) firstReviewer = ballot.reviewer;
    else if (ballot.reviewer !== firstReviewer) severalReviewers = true;
    const m = ballot.eligible;
    if (m < 2) return; // nothing to prefer between
    for (let c = 0; c < n; c++) acc[POSSIBLE + c]!++;
    for (const c of ballot.own) acc[POSSIBLE + c]!--;
    const order = ballot.order;
    for (let p = 0; p < order.length; p++) {
      const c = order[p]!;
      const points = m - 1 - p;
      const scale = acc[SCALE + c]!;
      if (ballot.weight > scale) {
        const shrink = scale / ballot.weight; // 0 on the first vote, when the sums are still 0
        acc[c]! *= shrink;
        acc[POINTS + c]! *= shrink;
        acc[WEIGHT + c]! *= shrink;
        acc[SCALE + c] = ballot.weight;
      }
      const w = ballot.weight / acc[SCALE + c]!;
      acc[c]! += w * (points / (m - 1));
      acc[POINTS + c]! += w * points;
      acc[WEIGHT + c]! += w;
      acc[VOTES + c]!++;
      if (p === 0) acc[WINS + c]!++;
    }
  };
  const { candidates } = forEachCleanedBallot(ballots, options, { where, visit });

  const single = !severalReviewers;
  const entries: LeaderboardEntry[] = candidates.map((candidate, c) => {
    const votes = acc[VOTES + c]!;
    const possible = acc[POSSIBLE + c]!;
    const coverage = possible > 0 ? votes / possible : 0;
    return {
      candidate,
      bordaScore: votes > 0 ? acc[c]! / acc[WEIGHT + c]! : 0,
      bordaPoints: votes > 0 ? acc[POINTS + c]! / acc[WEIGHT + c]! : 0,
      voteCount: votes,
      winCount: acc[WINS + c]!,
      finalRank: 0,
      confidence: single ? 'low' : confidenceFromCoverage(coverage),
    };
  });

  entries.sort(compareEntries);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    const newRank =
      previous === undefined ||
      (previous.voteCount > 0 && entry.voteCount === 0) ||
      entry.bordaScore < previous.bordaScore - SCORE_EPSILON;
    entry.finalRank = newRank ? i + 1 : previous.finalRank;
  });
  return entries;
}

function compareEntries(a: LeaderboardEntry, b: LeaderboardEntry): number {
  const votedA = a.voteCount > 0 ? 1 : 0;
  const votedB = b.voteCount > 0 ? 1 : 0;
  if (votedA !== votedB) return votedB - votedA;
  if (Math.abs(a.bordaScore - b.bordaScore) > SCORE_EPSILON) return b.bordaScore - a.bordaScore;
  if (a.winCount !== b.winCount) return b.winCount - a.winCount;
  return a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0;
}
