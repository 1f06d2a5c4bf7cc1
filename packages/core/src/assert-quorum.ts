import { CouncilError } from './council-error.js';
import type { Stage1Result } from './council-session.js';
import type { CouncilPlan } from './resolve-council-plan.js';

/** Throws `QUORUM_NOT_MET`, naming each member's failure, when fewer than `quorum` members answered. */
export function assertQuorum(stage1: readonly Stage1Result[], plan: Pick<CouncilPlan, 'quorum' | 'timeouts'>): void {
  const answered = stage1.filter((s) => s.text !== null).length;
  if (answered >= plan.quorum) return;
  const failures = stage1
    .filter((s) => s.error)
    .map(
      (s) =>
        `${s.member}: ${s.error!.reason === 'timeout' ? `timed out after ${plan.timeouts.stage1Ms} ms` : s.error!.message.replace(/\.+\s*$/, '')}`,
    );
  throw new CouncilError({
    code: 'QUORUM_NOT_MET',
    message: `Only ${answered} of ${stage1.length} members answered; the quorum is ${plan.quorum}. ${failures.join('; ')}. Fix or replace the failing members, raise timeouts.stage1Ms, or lower the quorum.`,
  });
}
