import type { CouncilSession } from '@council/core';
import type { ContributionRecord } from '@council/bias-store';
import { contributionRecordId, contributionSchemaVersion } from '@council/bias-store';

/**
 * The single leader of the session's Borda leaderboard (stage 2's aggregate ranking), or null when first place is
 * tied or nobody was ranked (no ballot reached a member): the same rule as voting mode's fallback winner.
 */
export function bordaLeader(session: Pick<CouncilSession, 'leaderboard'>): string | null {
  const first = session.leaderboard.filter((entry) => entry.finalRank === 1 && entry.voteCount > 0);
  return first.length === 1 ? first[0]!.candidate : null;
}

/**
 * One contribution record (design doc 004 §7) per member whose stage-1 answer reached the chairman, for a session
 * with a synthesis; none without one. The weight is the member's share in `synthesis.contributors` (0 when the
 * block does not name it, null when there was no usable block). The chairman's reasons are not copied: they may
 * quote the question, and the history log already holds them.
 */
export function contributionRecordsFromSession(
  session: CouncilSession,
  options: { configVersion: string | null },
): ContributionRecord[] {
  const synthesis = session.synthesis;
  if (synthesis === null) return [];
  const leader = bordaLeader(session);
  const weights = synthesis.contributors === null ? null : new Map(synthesis.contributors.map((c) => [c.id, c.weight]));
  return session.stage1
    .filter((answer) => answer.text !== null && answer.error === null)
    .map((answer) => ({
      schemaVersion: contributionSchemaVersion,
      recordId: contributionRecordId(session.sessionId, answer.member),
      sessionId: session.sessionId,
      conversationId: session.conversation?.id ?? null,
      timestamp: session.timestamp,
      member: answer.member,
      model: answer.model,
      personality: answer.member === answer.model ? null : answer.member,
      strategy: synthesis.strategy,
      mode: synthesis.mode,
      weight: weights === null ? null : (weights.get(answer.member) ?? 0),
      voteWinner: answer.member === leader,
      configVersion: options.configVersion,
    }));
}
