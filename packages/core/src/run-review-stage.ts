import { anonymiseAnswers } from './anonymise-answers.js';
import { buildEvaluationPrompt } from './build-evaluation-prompt.js';
import type { ResolvedMember } from './council-member.js';
import type { Stage2Result } from './council-session.js';
import type { EmitCouncilEvent } from './create-event-emitter.js';
import type { ModelCaller } from './create-model-caller.js';
import { createPresentationOrders } from './create-presentation-orders.js';
import { evaluationByMember } from './evaluation-by-member.js';
import { parseEvaluation } from './parse-evaluation.js';
import { pickReviewers } from './pick-reviewers.js';
import type { CouncilPlan } from './resolve-council-plan.js';
import type { Rng } from './rng.js';

export interface RunReviewStageOptions {
  plan: Pick<CouncilPlan, 'config' | 'query' | 'members' | 'order' | 'selfReview' | 'maxReviewers' | 'timeouts'>;
  call: ModelCaller;
  emit: EmitCouncilEvent;
  /** The session's boundary token, around each answer in the prompt. */
  boundary: string;
  /** Draws the reviewer sample and the presentation orders. */
  rng: Rng;
  /** Stage 1's answers by member id. */
  answers: ReadonlyMap<string, string>;
  /** Receives each review as its call ends (`RunCouncilOptions.onReview`); must not throw. */
  onReview?: ((result: Stage2Result) => void) | undefined;
}

/** One reviewer's call: the answers in its order (without its own under `selfReview: 'omit'`), labelled, then parsed. */
async function review(options: RunReviewStageOptions, reviewer: ResolvedMember, order: string[]): Promise<Stage2Result> {
  const { plan, call, boundary, answers } = options;
  const shown = plan.selfReview === 'omit' ? order.filter((c) => c !== reviewer.id) : order;
  const { labelToModel, labels, entries } = anonymiseAnswers(shown, answers);
  const prompt = buildEvaluationPrompt({ config: plan.config, query: plan.query, boundary, entries });
  const outcome = await call({ stage: 2, member: reviewer, messages: [{ role: 'user', content: prompt }], council: { stage: 'review', responses: entries }, timeoutMs: plan.timeouts.stage2Ms });
  const base = { reviewer: reviewer.id, model: reviewer.modelId, order: shown, labelToModel, latencyMs: outcome.latencyMs };
  if (!outcome.ok) return { ...base, evaluation: null, text: null, warnings: [], usage: null, error: outcome.error };
  const parsed = parseEvaluation(outcome.text, labels);
  return { ...base, evaluation: evaluationByMember(parsed, labelToModel), text: outcome.text, warnings: parsed.warnings, usage: outcome.usage, error: null };
}

/**
 * Stage 2 (review): the reviewers (all members that answered, or a seeded sample) each get the answers in
 * their own presentation order (ADR-017's mode), anonymised and between boundary markers, in parallel.
 */
export async function runReviewStage(options: RunReviewStageOptions): Promise<Stage2Result[]> {
  const { plan, emit, rng, answers } = options;
  const candidates = [...answers.keys()];
  const reviewers = pickReviewers(candidates, { maxReviewers: plan.maxReviewers, rng });
  const orders = createPresentationOrders({ candidates, reviewerCount: reviewers.length, mode: plan.order, rng });
  const memberById = new Map(plan.members.map((m) => [m.id, m]));
  emit({ type: 'stage-started', stage: 2, calls: reviewers.length });
  const stage2 = await Promise.all(
    reviewers.map(async (reviewer, i) => {
      const result = await review(options, memberById.get(reviewer)!, orders[i]!);
      options.onReview?.(result);
      return result;
    }),
  );
  const succeeded = stage2.filter((r) => r.evaluation).length;
  emit({ type: 'stage-finished', stage: 2, succeeded, failed: stage2.length - succeeded });
  return stage2;
}
