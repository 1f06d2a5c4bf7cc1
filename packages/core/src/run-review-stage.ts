import type { Message, ResponseFormat, Usage } from '@council/providers';
import { anonymiseAnswers } from './anonymise-answers.js';
import { buildEvaluationPrompt } from './build-evaluation-prompt.js';
import { buildRepairRequest } from './build-repair-request.js';
import type { CallOutcome } from './call-model.js';
import type { ResolvedMember } from './council-member.js';
import type { ReviewReadPath, Stage2Result } from './council-session.js';
import type { EmitCouncilEvent } from './create-event-emitter.js';
import type { ModelCaller } from './create-model-caller.js';
import { createPresentationOrders } from './create-presentation-orders.js';
import { evaluationByMember } from './evaluation-by-member.js';
import { parseEvaluation } from './parse-evaluation.js';
import type { ParsedEvaluation } from './parse-evaluation.js';
import { parseStructuredEvaluation } from './parse-structured-evaluation.js';
import { pickReviewers } from './pick-reviewers.js';
import type { CouncilPlan } from './resolve-council-plan.js';
import { rankingResponseFormat, reviewResponseFormat } from './review-response-format.js';
import type { RandomSource } from './random-source.js';
import { omitUndefined } from './internal/omit-undefined.js';

export interface RunReviewStageOptions {
  plan: Pick<
    CouncilPlan,
    'config' | 'query' | 'members' | 'order' | 'selfReview' | 'maxReviewers' | 'timeouts' | 'structuredReviews'
  >;
  call: ModelCaller;
  emit: EmitCouncilEvent;
  /** The session's boundary token, around each answer in the prompt. */
  boundary: string;
  /** Draws the reviewer sample and the presentation orders. */
  rng: RandomSource;
  /** Stage 1's answers by member id. */
  answers: ReadonlyMap<string, string>;
  /** Receives each review as its call ends (`RunCouncilOptions.onReview`); must not throw. */
  onReview?: ((result: Stage2Result) => void) | undefined;
}

/** A reply read as the schema's JSON when it is one, else by the text parser; which of the two read it. */
function readReply(
  text: string,
  labels: readonly string[],
  structured: boolean,
): { parsed: ParsedEvaluation; path: 'structured' | 'text' } {
  const fromJson = structured ? parseStructuredEvaluation(text, labels) : undefined;
  return fromJson === undefined
    ? { parsed: parseEvaluation(text, labels), path: 'text' }
    : { parsed: fromJson, path: 'structured' };
}

/** The usage of a review and its repair, added up field by field. */
function addUsage(usages: readonly Usage[]): Usage {
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    for (const key of ['reasoningTokens', 'cachedTokens', 'costUsd'] as const) {
      if (usage[key] !== undefined) total[key] = (total[key] ?? 0) + usage[key];
    }
  }
  return total;
}

/** Usage and latency over the calls of one review (the review, and its repair when one was sent). */
function spent(outcomes: readonly CallOutcome[]): { usage: Usage | null; latencyMs: number } {
  const usages = outcomes.flatMap((o) => (o.ok ? [o.usage] : []));
  const latencyMs = outcomes.reduce((sum, o) => sum + o.latencyMs, 0);
  return { usage: usages.length <= 1 ? (usages[0] ?? null) : addUsage(usages), latencyMs };
}

/**
 * One reviewer's call: the answers in its order (without its own under `selfReview: 'omit'`), labelled, then read.
 * Where the reviewer's model can constrain its output (and `structuredReviews` is on) the review is asked for as
 * the JSON of `reviewResponseFormat`; a model that refuses that is asked again in the text format. A reply with no
 * ranking that can be read (and no refusal) gets one repair request; `readPath` records which path read it.
 */
async function review(
  options: RunReviewStageOptions,
  reviewer: ResolvedMember,
  order: string[],
): Promise<Stage2Result> {
  const { plan, call, boundary, answers } = options;
  const shown = plan.selfReview === 'omit' ? order.filter((c) => c !== reviewer.id) : order;
  const { labelToModel, labels, entries } = anonymiseAnswers(shown, answers);
  const ask = (messages: Message[], responseFormat: ResponseFormat | undefined) =>
    call({
      stage: 2,
      member: reviewer,
      messages,
      council: { stage: 'review', responses: entries },
      timeoutMs: plan.timeouts.stage2Ms,
      ...omitUndefined({ responseFormat }),
    });
  const warnings: string[] = [];
  let structured = plan.structuredReviews && reviewer.model.supportsStructuredOutput === true;
  let prompt = buildEvaluationPrompt({ config: plan.config, query: plan.query, boundary, entries, structured });
  let outcome = await ask([{ role: 'user', content: prompt }], structured ? reviewResponseFormat(labels) : undefined);
  if (structured && !outcome.ok && outcome.error.code === 'STRUCTURED_OUTPUT_UNSUPPORTED') {
    structured = false;
    warnings.push(
      `${reviewer.id}'s model does not accept structured output here; its review was asked for in the text format.`,
    );
    prompt = buildEvaluationPrompt({ config: plan.config, query: plan.query, boundary, entries });
    outcome = await ask([{ role: 'user', content: prompt }], undefined);
  }
  const base = { reviewer: reviewer.id, model: reviewer.modelId, order: shown, labelToModel };
  if (!outcome.ok)
    return {
      ...base,
      evaluation: null,
      text: null,
      readPath: null,
      warnings,
      usage: null,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
    };

  const first = readReply(outcome.text, labels, structured);
  let parsed = first.parsed;
  let readPath: ReviewReadPath = first.path;
  let repairText: string | null | undefined;
  const outcomes: CallOutcome[] = [outcome];
  if (parsed.ranking.length === 0 && !parsed.abstained) {
    const messages: Message[] = [
      { role: 'user', content: prompt },
      { role: 'assistant', content: outcome.text },
      { role: 'user', content: buildRepairRequest({ labels, structured }) },
    ];
    const repair = await ask(messages, structured ? rankingResponseFormat(labels) : undefined);
    outcomes.push(repair);
    repairText = repair.ok ? repair.text : null;
    const repaired = repair.ok ? readReply(repair.text, labels, structured) : undefined;
    if (repaired !== undefined && repaired.parsed.ranking.length > 0) {
      // The ranking comes from the repair; the critiques and scores the first reply gave are kept.
      parsed = {
        ...parsed,
        ranking: repaired.parsed.ranking,
        format: repaired.parsed.format,
        warnings: [...parsed.warnings, ...repaired.parsed.warnings],
      };
      readPath = repaired.path === 'structured' ? 'structured-repaired' : 'text-repaired';
      warnings.push('the ranking was read from the reply to a repair request.');
    } else {
      readPath = 'unread';
      warnings.push(
        repair.ok
          ? 'no ranking could be read, even after a repair request; counted as an abstention.'
          : `the repair request failed (${repair.error.message}); counted as an abstention.`,
      );
    }
  }
  const evaluation = evaluationByMember(readPath === 'unread' ? { ...parsed, abstained: true } : parsed, labelToModel);
  return {
    ...base,
    evaluation,
    text: outcome.text,
    readPath,
    ...omitUndefined({ repairText }),
    warnings: [...parsed.warnings, ...warnings],
    ...spent(outcomes),
    error: null,
  };
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
  const unread = stage2.filter((r) => r.readPath === 'unread').length;
  emit({ type: 'stage-finished', stage: 2, succeeded, failed: stage2.length - succeeded, unread });
  return stage2;
}
