import type { ResolvedMember } from './council-member.js';
import type { SelfReview } from './council-config.js';
import type { Stage1Result, Stage2Result } from './council-session.js';

/** A reply's length in tokens: as the provider counted it, else about four characters a token. */
function outputTokens(tokens: number | undefined, text: string | null): number {
  return tokens !== undefined && tokens > 0 ? tokens : Math.ceil((text ?? '').length / 4);
}

/**
 * Dollars per token of each member's stage-1 call (its reported cost over its input + output tokens), where the
 * provider reported a cost; `fallback` is their mean, for a model with no price of its own. Null when no call
 * reported a cost: then nothing can be estimated.
 */
function stage1Rates(
  stage1: readonly Stage1Result[],
): { byMember: Map<string, number>; byModel: Map<string, number>; fallback: number } | null {
  const byMember = new Map<string, number>();
  const byModel = new Map<string, number>();
  for (const s of stage1) {
    const tokens = (s.usage?.inputTokens ?? 0) + (s.usage?.outputTokens ?? 0);
    if (s.usage?.costUsd === undefined || tokens === 0) continue;
    byMember.set(s.member, s.usage.costUsd / tokens);
    byModel.set(s.model, s.usage.costUsd / tokens);
  }
  if (byMember.size === 0) return null;
  return { byMember, byModel, fallback: [...byMember.values()].reduce((a, b) => a + b, 0) / byMember.size };
}

const answered = (stage1: readonly Stage1Result[]) => stage1.filter((s) => s.text !== null);

/**
 * What stage 2 will cost, estimated from stage 1 before any review is asked for: each reviewer (a member that
 * answered) reads its own stage-1 prompt again plus every answer it is shown, and writes a review as long as its
 * own answer, at its stage-1 price per token. With `maxReviewers`, the costliest reviewers are counted (the
 * sample is not drawn yet). Null when no provider reported a cost.
 */
export function estimateReviewCost(options: {
  stage1: readonly Stage1Result[];
  selfReview: SelfReview;
  maxReviewers: number | undefined;
}): number | null {
  const rates = stage1Rates(options.stage1);
  if (rates === null) return null;
  const answers = answered(options.stage1);
  const costs = answers.map((reviewer) => {
    const shown = answers.filter((a) => options.selfReview === 'include' || a.member !== reviewer.member);
    const tokens =
      (reviewer.usage?.inputTokens ?? 0) +
      shown.reduce((sum, a) => sum + outputTokens(a.usage?.outputTokens, a.text), 0) +
      outputTokens(reviewer.usage?.outputTokens, reviewer.text);
    return tokens * (rates.byMember.get(reviewer.member) ?? rates.fallback);
  });
  return costs
    .sort((a, b) => b - a)
    .slice(0, options.maxReviewers ?? costs.length)
    .reduce((a, b) => a + b, 0);
}

/**
 * What stage 3 will cost, estimated before the chairman is asked: it reads a prompt as long as the members' mean
 * stage-1 prompt plus every answer and every review, and writes as much as the mean answer, at its own stage-1
 * price when it also sat as a member (or its model did), else the members' mean price. Null when no provider
 * reported a cost.
 */
export function estimateSynthesisCost(options: {
  stage1: readonly Stage1Result[];
  stage2: readonly Stage2Result[];
  chairman: ResolvedMember;
}): number | null {
  const rates = stage1Rates(options.stage1);
  if (rates === null) return null;
  const answers = answered(options.stage1);
  if (answers.length === 0) return 0;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const answerTokens = answers.map((a) => outputTokens(a.usage?.outputTokens, a.text));
  const reviewTokens = options.stage2
    .filter((r) => r.text !== null)
    .map((r) => outputTokens(r.usage?.outputTokens, r.text));
  const input =
    mean(answers.map((a) => a.usage?.inputTokens ?? 0)) +
    answerTokens.reduce((a, b) => a + b, 0) +
    reviewTokens.reduce((a, b) => a + b, 0);
  const rate = rates.byMember.get(options.chairman.id) ?? rates.byModel.get(options.chairman.modelId) ?? rates.fallback;
  return (input + mean(answerTokens)) * rate;
}
