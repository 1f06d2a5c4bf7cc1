import type { GenerateOptions, LanguageModelV1, StreamPart } from '@council/providers';
import { createScriptedModel } from '@council/providers/test';
import { describe, expect, it } from 'vitest';
import { fixedClock } from './__fixtures__/scripted-council.js';
import { runCouncil } from './run-council.js';
import type { SynthesisTextPart } from './run-council-options.js';

const query = 'Which test should a legacy billing module get first?';
const reply =
  'Start with a characterisation test.\n\n```json\n{"contributors": [{"id": "a", "weight": 1, "reason": "r"}]}\n```';
const answer = (id: string) =>
  createScriptedModel({
    modelId: id,
    respond: (call) =>
      call.messages.some((m) => m.content.includes('FINAL RANKING'))
        ? '```json\n{"ranking": ["Response A", "Response B"]}\n```'
        : `answer from ${id}`,
  });

/** A model that streams `before`, then fails (or stalls, with `stall`), and has no doGenerate answer. */
function brokenStream(id: string, options: { before: string; stall?: boolean }): LanguageModelV1 {
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: id,
    doGenerate: () => Promise.reject(new Error('doGenerate must not be called when a listener wants the stream')),
    async *doStream(call: GenerateOptions): AsyncIterable<StreamPart> {
      await Promise.resolve();
      yield { type: 'text-delta', text: options.before };
      if (options.stall) {
        // Ignores the abort signal and writes once more much later: that piece must not reach the listener.
        await new Promise((resolve) => setTimeout(resolve, 300));
        yield { type: 'text-delta', text: ' LATE' };
      }
      void call;
      throw new Error('the stream broke');
    },
  };
}

describe('runCouncil streams the synthesis to onSynthesisText (issue 15 item 2)', () => {
  it('passes the chairman’s reply on in pieces as written; the session’s text has the contributors block removed', async () => {
    const parts: SynthesisTextPart[] = [];
    const chairman = createScriptedModel({ modelId: 'chair', steps: [reply], chunkSize: 5 });
    const session = await runCouncil({
      query,
      members: [answer('a'), answer('b')],
      chairman,
      seed: 1,
      clock: fixedClock,
      onSynthesisText: (p) => parts.push(p),
    });
    expect(parts.length).toBe(Math.ceil(reply.length / 5));
    expect(parts.map((p) => p.text).join('')).toBe(reply);
    expect(new Set(parts.map((p) => `${p.chairman} ${p.strategy} ${p.mode}`))).toEqual(
      new Set(['chair balanced consensus']),
    );
    expect(session.synthesis?.text).toBe('Start with a characterisation test.');
    expect(session.synthesis?.contributors).toEqual([{ id: 'a', weight: 1, reason: 'r' }]);
    // Only the chairman streams: members and reviewers are plain calls.
    expect(chairman.calls).toHaveLength(1);
  });

  it('a chairman that fails mid-stream is replaced; the parts then come from the fallback, from the start', async () => {
    const parts: SynthesisTextPart[] = [];
    const backup = createScriptedModel({ modelId: 'backup', steps: [reply] });
    const session = await runCouncil({
      query,
      members: [answer('a'), answer('b')],
      chairman: brokenStream('flaky', { before: 'Half a sent' }),
      chairmanFallbacks: [backup],
      seed: 1,
      clock: fixedClock,
      onSynthesisText: (p) => parts.push(p),
    });
    expect(parts[0]).toMatchObject({ chairman: 'flaky', text: 'Half a sent' });
    expect(parts.slice(1).every((p) => p.chairman === 'backup')).toBe(true);
    expect(
      parts
        .slice(1)
        .map((p) => p.text)
        .join(''),
    ).toBe(reply);
    expect(session.excluded).toEqual([{ member: 'flaky', stage: 3, reason: 'error', message: 'the stream broke' }]);
    expect(session.synthesis?.model).toBe('backup');
  });

  it('nothing arrives after the stage deadline, even from a stream that ignores the abort', async () => {
    const parts: string[] = [];
    const session = await runCouncil({
      query,
      members: [answer('a'), answer('b')],
      chairman: brokenStream('slow', { before: 'Early words', stall: true }),
      seed: 1,
      timeouts: { stage3Ms: 100 },
      onSynthesisText: (p) => parts.push(p.text),
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(parts).toEqual(['Early words']);
    expect(session.synthesis).toBeNull();
    expect(session.excluded).toEqual([
      { member: 'slow', stage: 3, reason: 'timeout', message: 'no answer within 100 ms' },
    ]);
  });

  it('a chairman without doStream answers in one piece, and the listener gets nothing', async () => {
    const parts: string[] = [];
    const scripted = createScriptedModel({ modelId: 'plain', steps: [reply] });
    const plain: LanguageModelV1 = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'plain',
      doGenerate: (o) => scripted.doGenerate(o),
    };
    const session = await runCouncil({
      query,
      members: [answer('a'), answer('b')],
      chairman: plain,
      seed: 1,
      clock: fixedClock,
      onSynthesisText: (p) => parts.push(p.text),
    });
    expect(parts).toEqual([]);
    expect(session.synthesis?.text).toBe('Start with a characterisation test.');
  });
});
