import { calculateBordaScores } from '@council/scoring';
import type { Ballot, LeaderboardEntry } from '@council/scoring';
import type { SessionAgreement, Stage2Result } from './council-session.js';
import { measureAgreement } from './measure-agreement.js';

export interface ReviewScores {
  leaderboard: LeaderboardEntry[];
  agreement: SessionAgreement;
  warnings: string[];
}

/** Each usable review as a ballot: its ranking and scores, or an abstention. */
function ballotsFromReviews(stage2: readonly Stage2Result[]): Ballot[] {
  return stage2
    .filter((r) => r.evaluation !== null)
    .map((r) => (r.evaluation!.abstained ? { reviewer: r.reviewer, ranking: [], abstained: true } : { reviewer: r.reviewer, ranking: r.evaluation!.ranking, scores: r.evaluation!.scores }));
}

/** Scoring: the reviews' ballots → Borda leaderboard over the candidates, and the reviewers' agreement. */
export function scoreReviews(stage2: readonly Stage2Result[], options: { candidates: readonly string[]; excludeSelfVotes: boolean }): ReviewScores {
  const { candidates, excludeSelfVotes } = options;
  const ballots = ballotsFromReviews(stage2);
  const leaderboard = calculateBordaScores(ballots, { candidates, excludeSelfVotes });
  const warnings: string[] = [];
  if (!leaderboard.some((entry) => entry.voteCount > 0)) {
    warnings.push('No reviewer produced a usable ranking, so the leaderboard has no votes; see stage2[].warnings and excluded.');
  }
  const { agreement, warnings: agreementWarnings } = measureAgreement(ballots, { candidates, excludeSelfVotes });
  return { leaderboard, agreement, warnings: [...warnings, ...agreementWarnings] };
}
