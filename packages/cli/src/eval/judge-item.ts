import {
  buildEvaluationPrompt,
  createBoundaryToken,
  createSeededMulberry32,
  parseEvaluation,
  parseStructuredEvaluation,
  responseLabel,
  reviewResponseFormat,
} from '@council/core';
import type { CouncilConfig } from '@council/core';
import { ProviderError } from '@council/providers';
import type { LanguageModelV1 } from '@council/providers';
import { fnv1a } from '@council/scoring';
import { approxTokens } from './eval-call-prices.js';
import { COST_CAP_SKIPPED } from './eval-item-budget.js';
import type { EvalCallBudget } from './eval-item-budget.js';
import type { EvalJudgement } from './eval-journal.js';
import type { EvalItem } from './eval-item.js';

/** A reviewer of the council: its member id and the model that plays it. */
export interface EvalReviewer {
  id: string;
  model: LanguageModelV1;
}

const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');

/** A review the item's cost cap stopped before it was asked for. */
class NotMade extends Error {
  constructor() {
    super(COST_CAP_SKIPPED);
  }
}

async function review(options: {
  reviewer: EvalReviewer;
  config: CouncilConfig;
  question: string;
  texts: readonly string[];
  seed: string;
  /** Names the review in the cost cap's message. */
  what: string;
  costs?: EvalCallBudget | undefined;
  abortSignal?: AbortSignal | undefined;
}): Promise<{ scores: (number | null)[]; first: number | null; costUsd: number | null }> {
  const labels = options.texts.map((_, i) => responseLabel(i));
  const entries = options.texts.map((text, i) => ({ label: labels[i]!, text }));
  const boundary = createBoundaryToken(createSeededMulberry32(options.seed));
  const { model } = options.reviewer;
  // One call, in the structured or the text format: checked against the item's cost cap before it is made (the
  // first synchronously, so the item's calls are admitted in the order they are listed); a reply is guessed as long
  // as the answers it reads until this model's reviews have been seen.
  const ask = async (structured: boolean) => {
    const prompt = buildEvaluationPrompt({
      config: options.config,
      query: options.question,
      entries,
      boundary,
      structured,
    });
    const settle = options.costs?.budget.admit({
      model: model.modelId,
      kind: 'review',
      prompt,
      replyTokens: options.texts.reduce((sum, t) => sum + approxTokens(t), 0),
      what: options.what,
    });
    if (settle === null) throw new NotMade();
    let result;
    try {
      result = await model.doGenerate({
        messages: [{ role: 'user', content: prompt }],
        // The simulated provider plays a reviewer from these; every other provider ignores the namespace.
        providerOptions: { simulated: { council: { stage: 'review', responses: entries } } },
        timeoutMs: options.config.timeouts.stage2Ms,
        ...(structured ? { responseFormat: reviewResponseFormat(labels) } : {}),
        ...(options.abortSignal === undefined ? {} : { abortSignal: options.abortSignal }),
      });
    } catch (error) {
      settle?.(null);
      throw error;
    }
    settle?.(result.usage.costUsd);
    options.costs?.prices.see({ model: model.modelId, kind: 'review', usage: result.usage });
    return result;
  };
  // As stage 2 asks: structured output where the model can constrain its reply (and structured_reviews is on), the
  // text format for a model that refuses it; a structured reply that is not the schema's JSON is read as text.
  let structured = options.config.structuredReviews && model.supportsStructuredOutput === true;
  let result;
  try {
    result = await ask(structured);
  } catch (error) {
    if (!structured || !ProviderError.isInstance(error) || error.code !== 'STRUCTURED_OUTPUT_UNSUPPORTED') throw error;
    structured = false;
    result = await ask(false);
  }
  const parsed =
    (structured ? parseStructuredEvaluation(result.text, labels) : undefined) ?? parseEvaluation(result.text, labels);
  const scores = labels.map((l) => {
    const s = parsed.scores[l];
    return typeof s === 'number' && Number.isFinite(s) ? s : null;
  });
  const first = parsed.ranking.length > 0 ? labels.indexOf(parsed.ranking[0]!) : null;
  return { scores, first: first === -1 ? null : first, costUsd: result.usage.costUsd ?? null };
}

/**
 * Each reviewer's judgement of an item's own answers, as the council reviews (the configured evaluation prompt, the
 * answers anonymised as Response A and B, asked for as structured output where the model takes it, as stage 2 does): for a human preference, which answer it
 * prefers — the higher score, a tie for equal scores, else its ranking's first — with the two answers shown in an
 * order drawn per reviewer and item (so position cannot favour the dataset's first answer), or with `bothOrders` in
 * that order and the other, a preference that changes with the order counting as a tie; for a human score, the
 * score it gives the one answer. A failed or unreadable review is recorded with a null judgement, never dropped.
 */
export async function judgeItem(options: {
  item: EvalItem;
  reviewers: readonly EvalReviewer[];
  config: CouncilConfig;
  seed: number | string;
  /** Show each pair both ways round (two reviews): a preference that changes with the order counts as a tie. */
  bothOrders?: boolean;
  /** `--max-cost`: each review is checked against the item's cap before it is asked for; one it would pass is not made. */
  costs?: EvalCallBudget | undefined;
  abortSignal?: AbortSignal | undefined;
}): Promise<EvalJudgement[]> {
  const { item } = options;
  const calls: Promise<EvalJudgement>[] = [];
  for (const reviewer of options.reviewers) {
    const seed = `${options.seed}:${item.id}:${reviewer.id}`;
    if (item.preference) {
      const { answers } = item.preference;
      const drawn: 0 | 1 = (fnv1a(seed) & 1) as 0 | 1;
      // One order drawn per reviewer and item, or (bothOrders) the drawn one and then the other.
      const orders: (0 | 1)[] = options.bothOrders ? [drawn, (1 - drawn) as 0 | 1] : [drawn];
      const one = async (shownFirst: 0 | 1, k: number) => {
        const texts = shownFirst === 0 ? [answers[0], answers[1]] : [answers[1], answers[0]];
        const reviewed = review({
          ...options,
          reviewer,
          question: item.question,
          texts,
          seed: k === 0 ? seed : `${seed}:swapped`,
          what: `${reviewer.id}'s review of ${item.id}'s two answers${k === 0 ? '' : ' the other way round'}`,
        });
        // A review the cap stopped leaves the judgement unmade (and its other order's cost counted).
        const made = await reviewed.catch((error: unknown) => {
          if (error instanceof NotMade) return null;
          throw error;
        });
        if (made === null) return { preferred: null, costUsd: 0, notMade: true };
        const { scores, first, costUsd } = made;
        const [a, b] = scores;
        // Display position → the dataset's numbering.
        const asItem = (shown: number): 0 | 1 => (shown === 0 ? shownFirst : ((1 - shownFirst) as 0 | 1));
        const preferred: 0 | 1 | 'tie' | null =
          a != null && b != null ? (a === b ? 'tie' : asItem(a > b ? 0 : 1)) : first === null ? null : asItem(first);
        return { preferred, costUsd, notMade: false };
      };
      calls.push(
        Promise.all(orders.map((o, k) => one(o, k))).then(
          (results): EvalJudgement => {
            const read = results.map((r) => r.preferred).filter((p) => p !== null);
            // Both orders read: the same answer both ways round stands; a change with the order is a tie (as
            // MT-Bench counts it). One read: that one.
            const consistent = options.bothOrders && read.length === 2 ? read[0] === read[1] : undefined;
            const preferred = read.length === 0 ? null : consistent === false ? 'tie' : read[0]!;
            const costs = results.map((r) => r.costUsd);
            const cost_usd = costs.every((c) => c !== null) ? costs.reduce<number>((x, y) => x + (y ?? 0), 0) : null;
            if (results.some((r) => r.notMade))
              return {
                reviewer: reviewer.id,
                kind: 'preference',
                preferred: null,
                shown_first: drawn,
                cost_usd,
                error: COST_CAP_SKIPPED,
              };
            return {
              reviewer: reviewer.id,
              kind: 'preference',
              preferred,
              shown_first: drawn,
              ...(consistent === undefined ? {} : { consistent }),
              cost_usd,
              error: null,
            };
          },
          (error: unknown): EvalJudgement => ({
            reviewer: reviewer.id,
            kind: 'preference',
            preferred: null,
            shown_first: drawn,
            cost_usd: null,
            error: oneLine(error),
          }),
        ),
      );
    }
    if (item.humanScore) {
      calls.push(
        review({
          ...options,
          reviewer,
          question: item.question,
          texts: [item.humanScore.answer],
          seed: `${seed}:score`,
          what: `${reviewer.id}'s score of ${item.id}'s answer`,
        }).then(
          ({ scores, costUsd }): EvalJudgement => ({
            reviewer: reviewer.id,
            kind: 'score',
            score: scores[0] ?? null,
            cost_usd: costUsd,
            error: null,
          }),
          (error: unknown): EvalJudgement => ({
            reviewer: reviewer.id,
            kind: 'score',
            score: null,
            cost_usd: error instanceof NotMade ? 0 : null,
            error: oneLine(error),
          }),
        ),
      );
    }
  }
  return Promise.all(calls);
}

export { oneLine };
