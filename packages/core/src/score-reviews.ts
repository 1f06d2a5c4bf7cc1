import { calculateBordaScores } from '@council/scoring';
import type { Ballot, LeaderboardEntry } from '@council/scoring';
import type { SessionAgreement, Stage2Result } from './council-session.js';
import { measureAgreement } from './measure-agreement.js';

export interface ReviewScores {
  /** Empty when the session is not ranked (see `ranked`). */
  leaderboard: LeaderboardEntry[];
  agreement: SessionAgreement;
  /** False when too few members answered to rank them: no leaderboard, agreement or bias flags. */
  ranked: boolean;
  warnings: string[];
}

/**
 * The fewest answers a ranking needs when self-votes are excluded. With two, each answer gets exactly one
 * ballot (the other member's), so both score Borda 0 or 1 from one opinion, share rank 1 when they agree
 * that either is better, and a position "bias" is flagged from one ballot each: noise presented as a result.
 */
export const MIN_RANKED_ANSWERS = 3;

/** Each usable review as a ballot: its ranking and scores, or an abstention. */
function ballotsFromReviews(stage2: readonly Stage2Result[]): Ballot[] {
  return stage2
    .filter((r) => r.evaluation !== null)
    .map((r) =>
      r.evaluation!.abstained
        ? { reviewer: r.reviewer, ranking: [], abstained: true }
        : { reviewer: r.reviewer, ranking: r.evaluation!.ranking, scores: r.evaluation!.scores },
    );
}

/**
 * Scoring: the reviews' ballots → Borda leaderboard over the candidates, and the reviewers' agreement; or,
 * with self-votes excluded and fewer than `MIN_RANKED_ANSWERS` candidates, no ranking and one warning saying why.
 */
export function scoreReviews(
  stage2: readonly Stage2Result[],
  options: { candidates: readonly string[]; excludeSelfVotes: boolean },
): ReviewScores {
  const { candidates, excludeSelfVotes } = options;
  const ballots = ballotsFromReviews(stage2);
  if (excludeSelfVotes && candidates.length < MIN_RANKED_ANSWERS) {
    const answered = candidates.length === 1 ? 'only 1 member answered' : `only ${candidates.length} members answered`;
    return {
      leaderboard: [],
      agreement: {
        kendallW: null,
        kendallWPValue: null,
        krippendorffAlpha: null,
        ballots: ballots.filter((b) => !b.abstained && b.ranking.length > 0).length,
      },
      ranked: false,
      warnings: [
        `Not ranked: with self-votes excluded, a ranking needs at least ${MIN_RANKED_ANSWERS} answers and ${answered}, so each answer would rest on a single ballot. ` +
          'No leaderboard, agreement or bias flags for this session; the reviews still went to the chairman. Add a member to rank them.',
      ],
    };
  }
  const leaderboard = calculateBordaScores(ballots, { candidates, excludeSelfVotes });
  const warnings: string[] = [];
  if (!leaderboard.some((entry) => entry.voteCount > 0)) {
    warnings.push(
      'No reviewer produced a usable ranking, so the leaderboard has no votes; see stage2[].warnings and excluded.',
    );
  }
  const { agreement, warnings: agreementWarnings } = measureAgreement(ballots, { candidates, excludeSelfVotes });
  return { leaderboard, agreement, ranked: true, warnings: [...warnings, ...agreementWarnings] };
}
