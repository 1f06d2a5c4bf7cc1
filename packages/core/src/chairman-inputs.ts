import type { LeaderboardEntry } from '@council/scoring';
import type { ChairmanInput } from './build-chairman-prompt.js';
import type { Stage2Result } from './council-session.js';

export interface ChairmanInputsOptions {
  /** Stage 1's answers by member id, in member order. */
  answers: ReadonlyMap<string, string>;
  leaderboard: readonly LeaderboardEntry[];
  stage2: readonly Stage2Result[];
}

/** Each answer with its standing (when it got votes) and what the other reviewers wrote about it. */
export function chairmanInputs(options: ChairmanInputsOptions): ChairmanInput[] {
  const { answers, leaderboard, stage2 } = options;
  const rankOf = new Map(leaderboard.map((e) => [e.candidate, e]));
  return [...answers].map(([member, text]) => {
    const entry = rankOf.get(member);
    const critiques = stage2
      .filter((r) => r.reviewer !== member && r.evaluation?.critiques[member])
      .map((r) => r.evaluation!.critiques[member]!);
    return {
      member,
      text,
      ...(entry && entry.voteCount > 0 ? { rank: entry.finalRank, bordaScore: entry.bordaScore } : {}),
      critiques,
    };
  });
}
