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
  // Advice that fits the failures: a longer deadline only where a member timed out, a lower quorum only where some answered.
  const timedOut = stage1.some((s) => s.error?.reason === 'timeout');
  const advice = [
    'fix or replace the failing members',
    ...(timedOut ? ['raise timeouts.stage1Ms'] : []),
    ...(answered > 0 ? ['lower the quorum'] : []),
  ];
  const said = advice.length === 1 ? advice[0]! : `${advice.slice(0, -1).join(', ')} or ${advice.at(-1)!}`;
  throw new CouncilError({
    code: 'QUORUM_NOT_MET',
    message: `Only ${answered} of ${stage1.length} members answered; the quorum is ${plan.quorum}. ${failures.join('; ')}. ${said[0]!.toUpperCase()}${said.slice(1)}.`,
  });
}
