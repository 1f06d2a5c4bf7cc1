import { describeShortfall, sessionOutcome } from '@council/core';
import type { CouncilSession, SessionOutcome } from '@council/core';

/** The exit code of a session that finished partially (`ask`, and `batch` when a session was partial and none failed). */
export const PARTIAL_EXIT_CODE = 3;

/**
 * How a finished session is judged by every front end (`ask`'s exit code and `--json`, `batch`, `consult_council`,
 * `council serve`): core's `sessionOutcome` — complete when it produced what was asked (a synthesis; for a session
 * run with `--no-synthesis`, recorded in its config, a ranking) from reviews of which at least one could be read.
 */
export function councilOutcome(session: Pick<CouncilSession, 'config' | 'synthesis' | 'leaderboard' | 'stage2'>): SessionOutcome {
  return sessionOutcome(session);
}

/** The shortfalls as one phrase list: "no synthesis; not ranked; no review could be read". */
export function describeShortfalls(outcome: Pick<SessionOutcome, 'shortfalls'>): string {
  return outcome.shortfalls.map(describeShortfall).join('; ');
}

/** The one stderr line of a partial session: `Partial session (exit 3): no synthesis; not ranked.` */
export function partialSessionLine(outcome: SessionOutcome): string {
  return `Partial session (exit ${PARTIAL_EXIT_CODE}): ${describeShortfalls(outcome)}.`;
}
