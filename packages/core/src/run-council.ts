import { randomUUID } from 'node:crypto';
import { assembleSession } from './assemble-session.js';
import { assertQuorum } from './assert-quorum.js';
import { auditSessionBias } from './audit-session-bias.js';
import { chairmanInputs } from './chairman-inputs.js';
import { checkCostCap } from './check-cost-cap.js';
import { CouncilError } from './council-error.js';
import type { CouncilSession, SessionCostCap, Stage2Result } from './council-session.js';
import { buildFollowUpQuery } from './build-follow-up-query.js';
import { createBoundaryToken } from './create-boundary-token.js';
import { createEventEmitter } from './create-event-emitter.js';
import { createModelCaller } from './create-model-caller.js';
import { createSeededMulberry32 } from './create-seeded-mulberry32.js';
import { ignoreListenerErrors } from './ignore-listener-errors.js';
import { estimateReviewCost, estimateSynthesisCost } from './estimate-stage-cost.js';
import { resolveCouncilPlan } from './resolve-council-plan.js';
import type { RunCouncilOptions } from './run-council-options.js';
import { answeredTexts, runGenerationStage } from './run-generation-stage.js';
import { runReviewStage } from './run-review-stage.js';
import { runSynthesisStage } from './run-synthesis-stage.js';
import type { SynthesisStageResult } from './run-synthesis-stage.js';
import { scoreReviews } from './score-reviews.js';
import type { ReviewScores } from './score-reviews.js';
import { sumUsage } from './sum-usage.js';
import { uuidFromRng } from './uuid-from-rng.js';
import { finalVerdict, juryChairmanDirective, provisionalVerdict } from './assemble-verdict.js';
import type { JuryRuleInputs } from './assemble-verdict.js';
import { fillTemplate } from './fill-template.js';
import { frameEvidence } from './frame-evidence.js';

export type { RunCouncilOptions } from './run-council-options.js';

/** The integer seed the models get: a safe integer as is, anything else hashed through the rng. */
function modelSeed(seed: number | string | undefined): number | undefined {
  if (seed === undefined) return undefined;
  if (typeof seed === 'number' && Number.isSafeInteger(seed)) return seed;
  return Math.floor(createSeededMulberry32(String(seed)).next() * 2 ** 31);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new CouncilError({
      code: 'ABORTED',
      message: 'The council session was aborted by its abort signal.',
      cause: signal.reason,
    });
}

/**
 * Runs one council session: stage 1 (members answer in parallel), stage 2 (each reviewer evaluates the
 * anonymised answers in an order from the chosen mode, between boundary markers), scoring (Borda and
 * agreement), stage 3 (the chairman synthesises under the strategy, with fallbacks), and the optional
 * bias audit. Returns a plain, serialisable session. Throws `CouncilError`: `INVALID_OPTION`,
 * `UNKNOWN_STRATEGY`, `QUORUM_NOT_MET` (with every member's failure) or `ABORTED`.
 */
export async function runCouncil(options: RunCouncilOptions): Promise<CouncilSession> {
  const resolved = resolveCouncilPlan(options);
  const signal = options.abortSignal;
  const now = options.clock ? () => options.clock!.now() : () => Date.now();
  const rng = options.rng ?? createSeededMulberry32(options.seed ?? randomUUID());
  const conversation =
    options.followUp === undefined
      ? {}
      : {
          conversation: { id: options.followUp.conversationId, previousSessionId: options.followUp.previousSessionId },
        };
  const emit = createEventEmitter(options.onEvent);
  const call = createModelCaller({
    emit,
    abortSignal: signal,
    now,
    seed: modelSeed(options.seed),
    maxReplyBytes: resolved.config.maxReplyBytes,
  });

  throwIfAborted(signal);
  // The rng's draws, in order: one uuid (discarded), boundary token, reviewer sample, presentation orders.
  // The session id is always fresh (or the caller's own): two runs with one seed are still two sessions (history, leaderboard and
  // the bias store tell them apart by it). The discarded draw was the seeded id of earlier versions; it is
  // kept so that a seed still gives the same boundary token, sample, orders and labels as it did then.
  uuidFromRng(rng);
  const sessionId = options.sessionId ?? randomUUID();
  const timestamp = new Date(now()).toISOString();
  const boundary = createBoundaryToken(rng);

  // A follow-up shows every stage its question framed with the previous answer; the session keeps the question alone.
  const followUp = options.followUp;
  const framedQuery =
    followUp === undefined
      ? resolved.query
      : buildFollowUpQuery({ config: resolved.config, query: resolved.query, followUp, boundary });
  // Evidence follows the question, between the session's boundary markers, in every stage's prompt.
  const evidence = frameEvidence({
    query: framedQuery,
    items: resolved.evidence,
    boundary,
    maxChars: resolved.maxEvidenceChars,
  });
  const plan = evidence.query === resolved.query ? resolved : { ...resolved, query: evidence.query };
  const jury = resolved.verdict;
  // A juror is asked the question (with its evidence) framed by the jury prompt; reviewers and the chairman see the
  // question itself, so a review reads the reasoning rather than a request for a decision.
  const stage1Plan =
    jury === undefined ? plan : { ...plan, query: fillTemplate(plan.config.juryPrompt, { query: plan.query }) };

  const onAnswer = options.onAnswer === undefined ? undefined : ignoreListenerErrors(options.onAnswer);
  const onReview = options.onReview === undefined ? undefined : ignoreListenerErrors(options.onReview);
  const stage1 = await runGenerationStage({
    plan: stage1Plan,
    call,
    emit,
    boundary,
    onAnswer,
    ...(jury === undefined ? {} : { jury: true }),
  });
  throwIfAborted(signal);
  assertQuorum(stage1, plan);
  const answers = answeredTexts(stage1);
  const juryInputs = (scores: ReviewScores): JuryRuleInputs => ({
    stage1,
    leaderboard: scores.leaderboard,
    mode: jury!,
    minMargin: plan.verdictMinMargin,
    quorum: plan.quorum,
    reviewerFlags: plan.reviewerFlags,
  });
  const juryDirective = (scores: ReviewScores): string => {
    const inputs = juryInputs(scores);
    return juryChairmanDirective({ config: plan.config, inputs, ...provisionalVerdict(inputs) });
  };

  // The cost cap: before stages 2 and 3, stop (keeping what finished) when the stage would take the cost past it.
  const cap = costCapGate(plan.maxCostUsd);
  let stage2: Stage2Result[] = [];
  let scores: ReviewScores = NOT_REVIEWED;
  let stage3: SynthesisStageResult = NOT_SYNTHESISED;
  const spent = () => sumUsage([...stage1.map((s) => s.usage), ...stage2.map((r) => r.usage)]).costUsd;
  if (
    cap.allows(2, {
      spentUsd: spent(),
      estimate: () => estimateReviewCost({ stage1, selfReview: plan.selfReview, maxReviewers: plan.maxReviewers }),
    })
  ) {
    stage2 = await runReviewStage({ plan, call, emit, boundary, rng, answers, onReview });
    throwIfAborted(signal);
    scores = scoreReviews(stage2, { candidates: [...answers.keys()], excludeSelfVotes: plan.excludeSelfVotes });
    if (
      plan.synthesis &&
      cap.allows(3, {
        spentUsd: spent(),
        estimate: () => estimateSynthesisCost({ stage1, stage2, chairman: plan.chairmen[0]! }),
      })
    ) {
      const inputs = chairmanInputs({ answers, leaderboard: scores.leaderboard, stage2 });
      stage3 = await runSynthesisStage({
        plan: jury === undefined ? plan : { ...plan, directive: `${plan.directive}\n\n${juryDirective(scores)}` },
        call,
        emit,
        inputs,
        abortSignal: signal,
        onText: options.onSynthesisText,
      });
      throwIfAborted(signal);
    }
  }

  const verdict =
    jury === undefined
      ? {}
      : {
          verdict: finalVerdict({
            inputs: juryInputs(scores),
            votes: provisionalVerdict(juryInputs(scores)).votes,
            chairmanText: stage3.synthesis?.text ?? null,
          }),
        };
  // An unranked session (fewer than three answers) gets no bias flags either: one ballot per answer proves nothing.
  const bias =
    plan.biasAudit && scores.ranked
      ? auditSessionBias({ stage1, stage2, answers, thresholds: plan.biasAuditThresholds })
      : { biasAudit: null, biasIndicators: null, warnings: [] };
  return {
    ...assembleSession({ plan: resolved, sessionId, timestamp, stage1, stage2, scores, stage3, bias, ...cap.record() }),
    ...conversation,
    ...verdict,
    ...(resolved.evidence.length === 0 ? {} : { evidence: evidence.report }),
  };
}

/** Scores of a session stopped before stage 2: no ballots, no ranking (the cost cap's note says why). */
const NOT_REVIEWED: ReviewScores = {
  leaderboard: [],
  agreement: { kendallW: null, kendallWPValue: null, krippendorffAlpha: null, ballots: 0 },
  ranked: false,
  warnings: [],
};
/** Stage 3 of a session stopped before it. */
const NOT_SYNTHESISED: SynthesisStageResult = { synthesis: null, excluded: [], warnings: [] };

/** `checkCostCap` before each stage, remembering the last check and each note, for the session. */
function costCapGate(maxCostUsd: number | undefined) {
  let costCap: SessionCostCap | undefined;
  const warnings: string[] = [];
  return {
    allows(stage: 2 | 3, options: { spentUsd: number | null; estimate: () => number | null }): boolean {
      if (maxCostUsd === undefined) return true;
      const check = checkCostCap({ maxCostUsd, stage, spentUsd: options.spentUsd, estimatedUsd: options.estimate() });
      costCap = check.costCap;
      if (check.warning !== null && !warnings.includes(check.warning)) warnings.push(check.warning);
      return !check.stop;
    },
    record: () => (costCap === undefined ? {} : { costCap: { costCap, warnings } }),
  };
}
