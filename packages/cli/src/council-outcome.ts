import { describeShortfall } from '@council/core';
import type { SessionOutcome } from '@council/core';

/** The exit code of a session that finished partially (`ask`, and `batch` when a session was partial and none failed). */
export const PARTIAL_EXIT_CODE = 3;

/** The shortfalls as one phrase list: "no synthesis; not ranked; no review could be read". */
export function describeShortfalls(outcome: Pick<SessionOutcome, 'shortfalls'>): string {
  return outcome.shortfalls.map(describeShortfall).join('; ');
}

/** The one stderr line of a partial session: `Partial session (exit 3): no synthesis; not ranked.` */
export function partialSessionLine(outcome: SessionOutcome): string {
  return `Partial session (exit ${PARTIAL_EXIT_CODE}): ${describeShortfalls(outcome)}.`;
}
