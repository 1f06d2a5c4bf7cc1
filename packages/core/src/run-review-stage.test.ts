import type { GenerateOptions, GenerateResult, LanguageModelV1, SimulatedProviderOptions } from '@council/providers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chairmanReply, fixedClock, reviewBlocks } from './__fixtures__/scripted-council.js';
import { callModel } from './call-model.js';
import type { CouncilEvent } from './council-event.js';
import { runCouncil } from './run-council.js';

type Reply = string | { error: Error & { code?: string } };

/** The stage core says a call plays, in the council context it passes under `providerOptions.simulated`. */
function stageOf(call: GenerateOptions): string | undefined {
  return (call.providerOptions?.simulated as SimulatedProviderOptions | undefined)?.council?.stage;
}

/**
 * A member whose model may accept structured output. `review` answers each stage-2 call (the n-th call of the
 * reviewer, 0 first), from the labels its prompt shows; every call is recorded with its options.
 */
function reviewer(
  id: string,
  options: { structured: boolean; review: (labels: string[], n: number, call: GenerateOptions) => Reply },
) {
  const calls: GenerateOptions[] = [];
  let reviews = 0;
  const model: LanguageModelV1 & { calls: GenerateOptions[] } = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: id,
    calls,
    ...(options.structured ? { supportsStructuredOutput: true } : {}),
    doGenerate(call: GenerateOptions): Promise<GenerateResult> {
      calls.push(call);
      const prompt = call.messages.map((m) => m.content).join('\n');
      const usage = { inputTokens: 10, outputTokens: 5, costUsd: 0.001 };
      const done = (text: string) => Promise.resolve({ text, usage, finishReason: 'stop' as const, latencyMs: 0 });
      if (stageOf(call) === 'chairman') return done(chairmanReply('Synthesis.', { a: 1 }));
      if (stageOf(call) === 'review') {
        const labels = reviewBlocks(call.messages[0]!.content).map((b) => b.label);
        const reply = options.review(labels, reviews++, call);
        return typeof reply === 'string' ? done(reply) : Promise.reject(reply.error);
      }
      return done(`Answer of ${id}: ${'x'.repeat(prompt.length % 7)}`);
    },
  };
  return model;
}

/** A structured review ranking the labels in the order shown, scores 9, 7, 5. */
function jsonReview(labels: string[]): string {
  return JSON.stringify({
    evaluations: labels.map((response, i) => ({
      response,
      strengths: `clear ${i}`,
      weaknesses: `thin ${i}`,
      score: 9 - 2 * i,
    })),
    ranking: labels,
  });
}

function unsupported(): Error & { code: string } {
  return Object.assign(new Error('test does not accept response_format json_schema'), {
    code: 'STRUCTURED_OUTPUT_UNSUPPORTED',
  });
}

describe('stage 2 structured reviews', () => {
  it('asks a model that supports it for the schema, and reads the JSON into scores and critiques by member', async () => {
    const members = ['a', 'b', 'c'].map((id) =>
      reviewer(id, { structured: true, review: (labels) => jsonReview(labels) }),
    );
    const session = await runCouncil({ query: 'q', members, seed: 3, clock: fixedClock });
    const call = members[0]!.calls.find((c) => stageOf(c) === 'review')!;
    const labels = ['Response A', 'Response B', 'Response C'];
    expect(call.responseFormat?.name).toBe('council_review');
    expect(call.responseFormat?.schema).toMatchObject({
      required: ['evaluations', 'ranking'],
      properties: {
        ranking: { minItems: 3, maxItems: 3, items: { enum: labels } },
        evaluations: { items: { properties: { score: { minimum: 1, maximum: 10 } } } },
      },
    });
    // The prompt keeps the boundary markers and asks for JSON, not the FINAL RANKING list.
    expect(call.messages[0]!.content).toContain('Reply with one JSON object');
    expect(call.messages[0]!.content).not.toContain('FINAL RANKING');
    expect(reviewBlocks(call.messages[0]!.content)).toHaveLength(3);
    for (const review of session.stage2) {
      expect(review.readPath).toBe('structured');
      // Ranked in display order, so the member shown first has score 9 and is ranked first.
      const [first, second, third] = review.order;
      expect(review.evaluation?.ranking).toEqual(review.order);
      expect(review.evaluation?.scores).toEqual({ [first!]: 9, [second!]: 7, [third!]: 5 });
      expect(review.evaluation?.critiques[second!]).toEqual({ strengths: 'clear 1', weaknesses: 'thin 1' });
    }
  });

  it('asks in text, without a failure shown, when the model refuses structured output', async () => {
    const events: CouncilEvent[] = [];
    const text = (labels: string[]) => `FINAL RANKING:\n${labels.map((l, i) => `${i + 1}. ${l}`).join('\n')}`;
    const members = ['a', 'b', 'c'].map((id) =>
      reviewer(id, {
        structured: true,
        review: (labels, _n, call) => (call.responseFormat ? { error: unsupported() } : text(labels)),
      }),
    );
    const session = await runCouncil({
      query: 'q',
      members,
      seed: 3,
      clock: fixedClock,
      onEvent: (e) => events.push(e),
    });
    const reviews = members[0]!.calls.filter((c) => stageOf(c) === 'review');
    expect(reviews.map((c) => c.responseFormat?.name)).toEqual(['council_review', undefined]);
    expect(reviews[1]!.messages[0]!.content).toContain('FINAL RANKING');
    expect(session.stage2.map((r) => r.readPath)).toEqual(['text', 'text', 'text']);
    expect(session.stage2[0]!.warnings).toContain(
      "a's model does not accept structured output here; its review was asked for in the text format.",
    );
    expect(events.filter((e) => e.type === 'model-failed')).toEqual([]);
    expect(session.excluded).toEqual([]);
  });

  it('sends no schema to a model without structured output, nor when structuredReviews is off', async () => {
    const text = (labels: string[]) => `FINAL RANKING:\n${labels.map((l, i) => `${i + 1}. ${l}`).join('\n')}`;
    const plain = ['a', 'b', 'c'].map((id) => reviewer(id, { structured: false, review: text }));
    const session = await runCouncil({ query: 'q', members: plain, seed: 3 });
    expect(plain.flatMap((m) => m.calls).some((c) => c.responseFormat !== undefined)).toBe(false);
    expect(session.stage2.map((r) => r.readPath)).toEqual(['text', 'text', 'text']);
    const able = ['a', 'b', 'c'].map((id) => reviewer(id, { structured: true, review: text }));
    await runCouncil({ query: 'q', members: able, seed: 3, structuredReviews: false });
    expect(able.flatMap((m) => m.calls).some((c) => c.responseFormat !== undefined)).toBe(false);
  });

  it("sends one repair request after an unreadable reply, and keeps the first reply's critiques", async () => {
    const first = (labels: string[]) =>
      labels.map((l) => `### ${l}\n**Strengths**: fine\n**Weaknesses**: long\n**Score**: 6`).join('\n\n');
    const members = ['a', 'b', 'c'].map((id) =>
      reviewer(id, {
        structured: false,
        review: (labels, n) =>
          n === 0 ? first(labels) : `FINAL RANKING:\n1. ${labels[2]}\n2. ${labels[0]}\n3. ${labels[1]}`,
      }),
    );
    const session = await runCouncil({ query: 'q', members, seed: 5 });
    const [review, repair] = members[1]!.calls.filter((c) => stageOf(c) === 'review');
    // The repair continues the conversation: the same prompt, the reviewer's reply, then the instruction.
    expect(repair!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair!.messages[0]!.content).toBe(review!.messages[0]!.content);
    expect(repair!.messages[1]!.content).toBe(first(['Response A', 'Response B', 'Response C']));
    expect(repair!.messages[2]!.content).toMatch(
      /^Your evaluation above could not be read[\s\S]*FINAL RANKING:\n1\. <label>\n2\. <label>\n3\. <label>$/,
    );
    for (const r of session.stage2) {
      expect(r.readPath).toBe('text-repaired');
      expect(r.evaluation?.ranking).toEqual([r.order[2], r.order[0], r.order[1]]);
      expect(r.evaluation?.scores).toEqual({ [r.order[0]!]: 6, [r.order[1]!]: 6, [r.order[2]!]: 6 });
      expect(r.evaluation?.critiques[r.order[0]!]).toEqual({ strengths: 'fine', weaknesses: 'long' });
      // Both calls are counted: 10 + 10 input and 5 + 5 output tokens, $0.002.
      expect(r.usage).toEqual({ inputTokens: 20, outputTokens: 10, costUsd: 0.002 });
    }
    expect(session.leaderboard.every((e) => e.voteCount > 0)).toBe(true);
  });

  it('repairs a structured review with the ranking schema, and counts a review unread when the repair fails too', async () => {
    const events: CouncilEvent[] = [];
    const members = ['a', 'b', 'c'].map((id) =>
      reviewer(id, {
        structured: true,
        review: (labels, n) =>
          id === 'c'
            ? '{"evaluations": []}'
            : n === 0
              ? '{"evaluations": [], "ranking": []}'
              : JSON.stringify({ ranking: [...labels].reverse() }),
      }),
    );
    const session = await runCouncil({ query: 'q', members, seed: 5, onEvent: (e) => events.push(e) });
    const repair = members[0]!.calls.filter((c) => stageOf(c) === 'review')[1]!;
    expect(repair.responseFormat?.name).toBe('council_ranking');
    expect(repair.messages[2]!.content).toContain('{"ranking": [...]}');
    const byReviewer = Object.fromEntries(session.stage2.map((r) => [r.reviewer, r]));
    expect(byReviewer['a']!.readPath).toBe('structured-repaired');
    expect(byReviewer['a']!.evaluation?.ranking).toEqual([...byReviewer['a']!.order].reverse());
    expect(byReviewer['c']!.readPath).toBe('unread');
    expect(byReviewer['c']!.repairText).toBe('{"evaluations": []}');
    expect(byReviewer['c']!.evaluation).toMatchObject({ ranking: [], abstained: true });
    expect(events.find((e) => e.type === 'stage-finished' && e.stage === 2)).toEqual({
      type: 'stage-finished',
      stage: 2,
      succeeded: 3,
      failed: 0,
      unread: 1,
    });
  });

  it('skips stage 3 with synthesis: false and records it', async () => {
    const members = ['a', 'b', 'c'].map((id) =>
      reviewer(id, { structured: true, review: (labels) => jsonReview(labels) }),
    );
    const session = await runCouncil({ query: 'q', members, seed: 3, synthesis: false });
    expect(session.synthesis).toBeNull();
    expect(session.config.synthesis).toBe(false);
    expect(members.flatMap((m) => m.calls).some((c) => stageOf(c) === 'chairman')).toBe(false);
    expect(session.leaderboard).toHaveLength(3);
  });
});

describe('callModel and the endpoint queue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A model that waits `queueMs` in its endpoint's queue, then answers `workMs` after it is sent. */
  function queuedModel(queueMs: number, workMs: number): LanguageModelV1 {
    return {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'queued',
      async doGenerate(options) {
        options.onQueued?.();
        await new Promise((resolve) => setTimeout(resolve, queueMs));
        options.onDispatched?.();
        await new Promise((resolve) => setTimeout(resolve, workMs));
        return { text: 'done', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', latencyMs: workMs };
      },
    };
  }

  it('does not count the wait in the queue against the deadline, and measures latency from dispatch', async () => {
    vi.useFakeTimers();
    let clock = 0;
    const now = () => clock;
    const seen: string[] = [];
    const pending = callModel({
      model: queuedModel(50_000, 20_000),
      messages: [],
      timeoutMs: 30_000,
      abortSignal: undefined,
      now,
      seed: undefined,
      onQueued: () => seen.push('queued'),
      onDispatched: () => seen.push('dispatched'),
    });
    for (let t = 0; t < 70_000; t += 1_000) {
      clock += 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
    }
    const outcome = await pending;
    expect(seen).toEqual(['queued', 'dispatched']);
    expect(outcome).toMatchObject({ ok: true, text: 'done', latencyMs: 20_000 });
  });

  it('still times out a call that is slow once it is sent', async () => {
    vi.useFakeTimers();
    const pending = callModel({
      model: queuedModel(50_000, 40_000),
      messages: [],
      timeoutMs: 30_000,
      abortSignal: undefined,
      now: () => 0,
      seed: undefined,
    });
    await vi.advanceTimersByTimeAsync(50_000 + 30_000);
    expect(await pending).toMatchObject({ ok: false, error: { reason: 'timeout' } });
  });
});

describe('sessionOutcome', () => {
  const text = (labels: string[]) => `FINAL RANKING:\n${labels.map((l, i) => `${i + 1}. ${l}`).join('\n')}`;

  it('is complete with a synthesis from readable reviews; partial with none readable, even synthesised', async () => {
    const { sessionOutcome } = await import('./session-outcome.js');
    const good = await runCouncil({
      query: 'q',
      members: ['a', 'b', 'c'].map((id) => reviewer(id, { structured: false, review: text })),
      seed: 1,
    });
    expect(sessionOutcome(good)).toEqual({ complete: true, shortfalls: [] });
    const vague = await runCouncil({
      query: 'q',
      members: ['a', 'b', 'c'].map((id) => reviewer(id, { structured: false, review: () => 'All fine.' })),
      seed: 1,
    });
    expect(vague.synthesis).not.toBeNull();
    expect(sessionOutcome(vague)).toEqual({ complete: false, shortfalls: ['no-review-read'] });
    const ranked = await runCouncil({
      query: 'q',
      members: ['a', 'b', 'c'].map((id) => reviewer(id, { structured: false, review: text })),
      seed: 1,
      synthesis: false,
    });
    expect(sessionOutcome(ranked)).toEqual({ complete: true, shortfalls: [] });
  });
});
