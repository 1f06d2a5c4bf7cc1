import type {
  CouncilSession,
  Exclusion,
  SessionConfig,
  SessionCostCap,
  Stage1Result,
  Stage2Result,
} from './council-session.js';
import type { SessionBias } from './audit-session-bias.js';
import type { CouncilPlan } from './resolve-council-plan.js';
import type { SynthesisStageResult } from './run-synthesis-stage.js';
import type { ReviewScores } from './score-reviews.js';
import { scrubSessionMessages } from './scrub-session-messages.js';
import { sumUsage } from './sum-usage.js';

export interface AssembleSessionOptions {
  plan: CouncilPlan;
  sessionId: string;
  timestamp: string;
  stage1: Stage1Result[];
  stage2: Stage2Result[];
  scores: ReviewScores;
  stage3: SynthesisStageResult;
  bias: SessionBias;
  /** The cost cap's last check and its note(s), when the session ran under one. */
  costCap?: { costCap: SessionCostCap; warnings: string[] };
}

/** The options a session ran with, as recorded in it: ids only, unset options as null. */
function sessionConfig(plan: CouncilPlan): SessionConfig {
  return {
    members: plan.members.map((m) => m.id),
    chairman: plan.chairmen[0]!.id,
    chairmanFallbacks: plan.chairmen.slice(1).map((c) => c.id),
    strategy: plan.strategy,
    goal: plan.goal ?? null,
    mode: plan.mode,
    order: plan.order,
    seed: plan.seed ?? null,
    quorum: plan.quorum,
    excludeSelfVotes: plan.excludeSelfVotes,
    selfReview: plan.selfReview,
    maxReviewers: plan.maxReviewers ?? null,
    timeouts: plan.timeouts,
    biasAudit: plan.biasAudit,
    ...(plan.synthesis ? {} : { synthesis: false as const }),
    ...(plan.verdict === undefined ? {} : { verdict: plan.verdict, verdictMinMargin: plan.verdictMinMargin }),
  };
}

/** Every failed call, stage by stage: members, then reviewers, then chairmen. */
function exclusions(options: AssembleSessionOptions): Exclusion[] {
  const excluded: Exclusion[] = [];
  for (const s of options.stage1)
    if (s.error) excluded.push({ member: s.member, stage: 1, reason: s.error.reason, message: s.error.message });
  for (const r of options.stage2)
    if (r.error) excluded.push({ member: r.reviewer, stage: 2, reason: r.error.reason, message: r.error.message });
  return [...excluded, ...options.stage3.excluded];
}

/**
 * The session as plain, serialisable data, from what each stage returned. Every message in it (call errors, exclusions,
 * warnings) is scrubbed once more of URL credentials and query-string keys: the session is what the terminal, the
 * history log, `council serve` and `council mcp` all show, so this guards each of them.
 */
export function assembleSession(options: AssembleSessionOptions): CouncilSession {
  const { plan, stage1, stage2, scores, stage3, bias } = options;
  return scrubSessionMessages({
    sessionId: options.sessionId,
    timestamp: options.timestamp,
    query: plan.query,
    config: sessionConfig(plan),
    stage1,
    stage2,
    leaderboard: scores.leaderboard,
    agreement: scores.agreement,
    synthesis: stage3.synthesis,
    biasAudit: bias.biasAudit,
    biasIndicators: bias.biasIndicators,
    excluded: exclusions(options),
    usage: sumUsage([...stage1.map((s) => s.usage), ...stage2.map((r) => r.usage), stage3.synthesis?.usage ?? null]),
    warnings: [...scores.warnings, ...stage3.warnings, ...bias.warnings, ...(options.costCap?.warnings ?? [])],
    ...(options.costCap === undefined ? {} : { costCap: options.costCap.costCap }),
  });
}
