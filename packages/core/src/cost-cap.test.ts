import { describe, expect, it } from 'vitest';
import { chairmanReply, fixedClock, reviewByPreference, testModel } from './__fixtures__/scripted-council.js';
import type { TestModel } from './__fixtures__/scripted-council.js';
import type { ResolvedMember } from './council-member.js';
import type { Stage1Result, Stage2Result } from './council-session.js';
import { defaultConfig } from './default-config.js';
import { estimateReviewCost, estimateSynthesisCost } from './estimate-stage-cost.js';
import { expandPools } from './expand-pools.js';
import { omitUndefined } from './internal/omit-undefined.js';
import { mergeConfig } from './merge-config.js';
import { runCouncil } from './run-council.js';

const quality = (text: string): number =>
  ({ 'answer of m1': 3, 'answer of m2': 2, 'answer of m3': 1 })[text.trim()] ?? 0;

function member(id: string): TestModel {
  return testModel(id, (call) =>
    call.role === 'answer'
      ? `answer of ${id}`
      : call.role === 'review'
        ? reviewByPreference(call.prompt, quality)
        : chairmanReply('Pick Postgres.', { m1: 1 }),
  );
}

/** The same model with no cost in its usage, as most providers but OpenRouter report it. */
function withoutCost(model: TestModel): TestModel {
  return {
    ...model,
    doGenerate: async (options) => {
      const result = await model.doGenerate(options);
      return { ...result, usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens } };
    },
  };
}

const answer = (options: {
  member: string;
  input: number;
  output: number;
  costUsd: number | undefined;
  failed?: boolean;
}): Stage1Result =>
  ({
    member: options.member,
    model: `model/${options.member}`,
    text: options.failed ? null : `answer of ${options.member}`,
    usage: options.failed
      ? null
      : {
          inputTokens: options.input,
          outputTokens: options.output,
          ...omitUndefined({ costUsd: options.costUsd }),
        },
  }) as Stage1Result;

// A: 150 tokens for $0.0015 (1e-5 a token); B: 300 tokens for $0.0006 (2e-6 a token); C failed.
const stage1 = [
  answer({ member: 'A', input: 100, output: 50, costUsd: 0.0015 }),
  answer({ member: 'B', input: 200, output: 100, costUsd: 0.0006 }),
  answer({ member: 'C', input: 0, output: 0, costUsd: undefined, failed: true }),
];

describe('stage cost estimates (issue 15 item 9), by hand', () => {
  it('review: each answering reviewer re-reads its prompt and the answers shown and writes as much as it answered', () => {
    // A: 100 + (50 + 100) + 50 = 300 tokens × 1e-5 = 0.003; B: 200 + 150 + 100 = 450 × 2e-6 = 0.0009.
    expect(estimateReviewCost({ stage1, selfReview: 'include', maxReviewers: undefined })).toBeCloseTo(0.0039, 12);
    // Without its own answer: A 100 + 100 + 50 = 250 × 1e-5 = 0.0025; B 200 + 50 + 100 = 350 × 2e-6 = 0.0007.
    expect(estimateReviewCost({ stage1, selfReview: 'omit', maxReviewers: undefined })).toBeCloseTo(0.0032, 12);
    // One reviewer, not drawn yet: the costlier one counts.
    expect(estimateReviewCost({ stage1, selfReview: 'include', maxReviewers: 1 })).toBeCloseTo(0.003, 12);
  });

  it("synthesis: the mean prompt, every answer and review in, a mean answer out, at the chairman's price or the members' mean", () => {
    const stage2 = [
      { text: 'review', usage: { inputTokens: 1, outputTokens: 80 } },
      { text: 'review', usage: { inputTokens: 1, outputTokens: 120 } },
    ] as Stage2Result[];
    // In: mean prompt (100 + 200) / 2 = 150, answers 150, reviews 200; out: (50 + 100) / 2 = 75; 575 tokens.
    const outsider = { id: 'Z', modelId: 'model/Z' } as ResolvedMember;
    expect(estimateSynthesisCost({ stage1, stage2, chairman: outsider })).toBeCloseTo(575 * 6e-6, 12);
    expect(
      estimateSynthesisCost({ stage1, stage2, chairman: { id: 'B', modelId: 'model/B' } as ResolvedMember }),
    ).toBeCloseTo(575 * 2e-6, 12);
  });

  it('nothing to estimate when no call reported a cost', () => {
    const free = stage1.map((s) => ({
      ...s,
      usage: s.usage === null ? null : { inputTokens: s.usage.inputTokens, outputTokens: s.usage.outputTokens },
    }));
    expect(estimateReviewCost({ stage1: free, selfReview: 'include', maxReviewers: undefined })).toBeNull();
  });
});

describe('runCouncil under maxCostUsd', () => {
  it('runs every stage when no provider reports a cost, and says the cap could not be applied', async () => {
    const models = ['m1', 'm2', 'm3'].map((id) => withoutCost(member(id)));
    const session = await runCouncil({
      query: 'Which database?',
      members: models,
      seed: 1,
      clock: fixedClock,
      maxCostUsd: 0.000001,
    });
    expect(session.synthesis?.text).toContain('Pick Postgres.');
    expect(session.costCap).toEqual({
      maxCostUsd: 0.000001,
      spentUsd: null,
      estimatedUsd: null,
      stoppedBeforeStage: null,
    });
    expect(
      session.warnings.filter((w) =>
        w.startsWith('The cost cap of $0.0000010 could not be applied: no provider reported a cost'),
      ),
    ).toHaveLength(1);
  });

  it('has no costCap without a cap', async () => {
    const session = await runCouncil({
      query: 'Which database?',
      members: ['m1', 'm2', 'm3'].map(member),
      seed: 1,
      clock: fixedClock,
    });
    expect(session.costCap).toBeUndefined();
  });
});

describe('config.maxReplyBytes holds for any model (issue 15 item 9)', () => {
  it("a custom model's reply past it is a too-large exclusion; the council goes on without it", async () => {
    const long = testModel('m4', (call) =>
      call.role === 'answer' ? 'é'.repeat(600) : reviewByPreference(call.prompt, quality),
    );
    // 600 × 'é' is 1,200 bytes of UTF-8 (600 characters): over 1,024 though its length is not.
    const session = await runCouncil({
      query: 'Which database?',
      members: [...['m1', 'm2', 'm3'].map(member), long],
      seed: 1,
      clock: fixedClock,
      config: mergeConfig(defaultConfig, { maxReplyBytes: 1024 }),
    });
    expect(session.excluded).toEqual([
      {
        member: 'm4',
        stage: 1,
        reason: 'too-large',
        message: 'reply too large: more than 1024 bytes. Ask for a shorter answer, or raise maxReplyBytes.',
      },
    ]);
    expect(session.synthesis?.text).toContain('Pick Postgres.');
  });
});

describe('expandPools (issue 15 item 11)', () => {
  const pools = { deep: ['a/1', 'b/2', 'c/3'], quick: ['a/1', 'd/4'] };
  it('replaces each @name by its pool in place, keeping other ids and each id once', () => {
    expect(expandPools(['@quick', 'x/9', '@deep'], { pools, source: '--models' })).toEqual([
      'a/1',
      'd/4',
      'x/9',
      'b/2',
      'c/3',
    ]);
  });
  it('names the pools and a near miss for an unknown one', () => {
    expect(() => expandPools(['@quik'], { pools, source: '--models' })).toThrow(
      'Unknown model pool "@quik" in --models: the pools are @deep, @quick (did you mean @quick?).',
    );
    expect(() => expandPools(['@toString'], { pools, source: '--models' })).toThrow(/Unknown model pool "@toString"/);
  });
});
