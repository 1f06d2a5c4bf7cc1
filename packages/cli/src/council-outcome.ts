import { describeShortfall, sessionOutcome } from '@council/core';
import type { CouncilSession, SessionOutcome } from '@council/core';

/** The exit code of a session that finished partially (`ask`, and `batch` when a session was partial and none failed). */
export const PARTIAL_EXIT_CODE = 3;

/**
 * How a finished session is judged by every front end (`ask`'s exit code and `--json`, `batch`, `consult_council`,
 * `council serve`): core's `sessionOutcome`, with one addition — a session whose reviews came back but none could
 * be read is not complete even when the chairman synthesised, since the council's peer review, its ranking and its
 * bias records all failed with it. (A session that is only `not-ranked` while it synthesised stays complete: a
 * council of two members is never ranked, by design.)
 */
export function councilOutcome(session: Pick<CouncilSession, 'config' | 'synthesis' | 'leaderboard' | 'stage2'>): SessionOutcome {
  // A session run with `--no-synthesis` says so in its config (`synthesis: false`), which core reads.
  const outcome = sessionOutcome(session);
  return { complete: outcome.complete && !outcome.shortfalls.includes('no-review-read'), shortfalls: outcome.shortfalls };
}

/** The shortfalls as one phrase list: "no synthesis; not ranked; no review could be read". */
export function describeShortfalls(outcome: Pick<SessionOutcome, 'shortfalls'>): string {
  return outcome.shortfalls.map(describeShortfall).join('; ');
}

/** The one stderr line of a partial session: `Partial session (exit 3): no synthesis; not ranked.` */
export function partialSessionLine(outcome: SessionOutcome): string {
  return `Partial session (exit ${PARTIAL_EXIT_CODE}): ${describeShortfalls(outcome)}.`;
}
