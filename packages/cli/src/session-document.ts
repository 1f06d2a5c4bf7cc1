import { sessionOutcome } from '@council/core';
import type { CouncilSession } from '@council/core';
import { omitUndefined } from './omit-undefined.js';

/**
 * The JSON document `council ask --json` prints: the session's documented, stable top level, in this
 * order. The query text is not part of it (it is the user's own input, and never leaves the run).
 */
export function sessionDocument(session: Omit<CouncilSession, 'query'>) {
  const outcome = sessionOutcome(session);
  return {
    sessionId: session.sessionId,
    timestamp: session.timestamp,
    config: session.config,
    stage1: session.stage1,
    stage2: session.stage2,
    leaderboard: session.leaderboard,
    agreement: session.agreement,
    synthesis: session.synthesis,
    biasAudit: session.biasAudit,
    biasIndicators: session.biasIndicators,
    excluded: session.excluded,
    usage: session.usage,
    /** Session-level notes, e.g. why it was not ranked (fewer than three answers) or why no chairman answered. */
    warnings: session.warnings,
    /**
     * Whether the session produced what was asked — a synthesis (with `--no-synthesis`, a ranking) from reviews of
     * which at least one could be read; false is `ask`'s exit code 3. `shortfalls` names what is missing, also when
     * it is complete (`not-ranked` for a council of two): `no-synthesis`, `not-ranked`, `no-review-read`.
     */
    complete: outcome.complete,
    shortfalls: outcome.shortfalls,
    ...omitUndefined({
      /** Only under a cost cap (`--max-cost`, `max_cost_usd`): the cap, what was spent and estimated, and the stage it stopped before (or null). */
      costCap: session.costCap,
      /** Only on a follow-up (`ask --continue`): the conversation's id and the session it continues. */
      conversation: session.conversation,
      /** Only in jury mode (`--verdict`): each member's decision, the weighted margin, the verdict, flip sensitivity and the dissent. */
      verdict: session.verdict,
      /** Only with `--evidence`: per item, what each prompt carried and which lines looked like injections (never the text). */
      evidence: session.evidence,
    }),
  };
}
