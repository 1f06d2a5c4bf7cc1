import { defaultConfig } from '@council/core';
import { StructuredOutputUnsupportedError } from '@council/providers';
import type { GenerateOptions, GenerateResult, LanguageModelV1 } from '@council/providers';
import { describe, expect, it } from 'vitest';
import { EvalCallPrices } from './eval-call-prices.js';
import { EvalItemBudget } from './eval-item-budget.js';
import type { EvalItem } from './eval-item.js';
import { judgeItem } from './judge-item.js';

const ITEM: EvalItem = {
  id: 's1',
  line: 1,
  question: 'Rate this answer.',
  humanScore: { answer: 'A short answer.', score: 3 },
};

/** A model that records its calls; `reply` answers each (or throws what it returns as an Error). */
function model(options: {
  structured: boolean;
  reply: (call: GenerateOptions) => string | Error;
}): LanguageModelV1 & { calls: GenerateOptions[] } {
  const calls: GenerateOptions[] = [];
  const judge: LanguageModelV1 & { calls: GenerateOptions[] } = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'test/judge',
    supportsStructuredOutput: options.structured,
    calls,
    doGenerate: (call: GenerateOptions): Promise<GenerateResult> => {
      calls.push(call);
      const reply = options.reply(call);
      if (reply instanceof Error) return Promise.reject(reply);
      return Promise.resolve({
        text: reply,
        finishReason: 'stop',
        usage: { inputTokens: 100, outputTokens: 50, costUsd: 0.001 },
        latencyMs: 1,
      });
    },
  };
  return judge;
}

const refusal = () =>
  new StructuredOutputUnsupportedError({
    message: 'test does not accept response_format json_schema',
    provider: 'test',
    url: 'http://127.0.0.1:9/v1/chat/completions',
  });

describe('judgeItem asks for a review as stage 2 does', () => {
  it('as structured output where the model takes it, reading the JSON reply', async () => {
    const judge = model({
      structured: true,
      reply: () =>
        JSON.stringify({
          evaluations: [{ response: 'Response A', strengths: 'short', weaknesses: 'thin', score: 4 }],
          ranking: ['Response A'],
        }),
    });
    const [j] = await judgeItem({
      item: ITEM,
      reviewers: [{ id: 'judge', model: judge }],
      config: defaultConfig,
      seed: 1,
    });
    expect(judge.calls.map((c) => c.responseFormat?.name)).toEqual(['council_review']);
    expect(j).toMatchObject({ reviewer: 'judge', kind: 'score', score: 4, cost_usd: 0.001, error: null });
  });

  it('in the text format for a model that refuses structured output, the retry checked against the cost cap', async () => {
    const judge = model({
      structured: true,
      reply: (call) =>
        call.responseFormat ? refusal() : '### Response A\n3. **Score**: 6\n\nFINAL RANKING:\n1. Response A\n',
    });
    const prices = new EvalCallPrices();
    const budget = new EvalItemBudget({ maxCostUsd: 1, prices });
    const [j] = await judgeItem({
      item: ITEM,
      reviewers: [{ id: 'judge', model: judge }],
      config: defaultConfig,
      seed: 1,
      costs: { budget, prices },
    });
    expect(judge.calls.map((c) => c.responseFormat?.name)).toEqual(['council_review', undefined]);
    expect(judge.calls[1]!.messages[0]!.content).toContain('FINAL RANKING');
    expect(j).toMatchObject({ score: 6, cost_usd: 0.001, error: null });
    // The refused call cost nothing; the text one $0.001.
    expect(budget.line()?.spent_usd).toBeCloseTo(0.001, 12);
  });

  it('in the text format where the model has no structured output, or structured_reviews is off', async () => {
    const text = () => '### Response A\n3. **Score**: 7\n\nFINAL RANKING:\n1. Response A\n';
    const plain = model({ structured: false, reply: text });
    const off = model({ structured: true, reply: text });
    await judgeItem({ item: ITEM, reviewers: [{ id: 'plain', model: plain }], config: defaultConfig, seed: 1 });
    await judgeItem({
      item: ITEM,
      reviewers: [{ id: 'off', model: off }],
      config: { ...defaultConfig, structuredReviews: false },
      seed: 1,
    });
    expect([...plain.calls, ...off.calls].map((c) => c.responseFormat)).toEqual([undefined, undefined]);
  });
});
