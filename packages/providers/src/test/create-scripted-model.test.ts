import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../rate-limit-error.js';
import { StructuredOutputUnsupportedError } from '../structured-output-unsupported-error.js';
import { createScriptedModel } from './create-scripted-model.js';

const messages = [{ role: 'user' as const, content: 'abcdefgh' }];

describe('createScriptedModel', () => {
  it('plays steps in order, records calls, then hands over to respond', async () => {
    const model = createScriptedModel({
      modelId: 'm1',
      steps: [
        'first',
        { text: 'second', usage: { inputTokens: 3, outputTokens: 2 }, finishReason: 'length', reasoning: 'r' },
      ],
      respond: (_, i) => `call ${i}`,
    });
    expect(await model.doGenerate({ messages, seed: 5 })).toMatchObject({
      text: 'first',
      usage: { inputTokens: 2, outputTokens: 2, costUsd: 0 },
      finishReason: 'stop',
      seed: 5,
      responseId: 'm1-1',
    });
    expect(await model.doGenerate({ messages })).toMatchObject({
      text: 'second',
      reasoning: 'r',
      finishReason: 'length',
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    expect((await model.doGenerate({ messages })).text).toBe('call 2');
    expect(model.calls).toHaveLength(3);
    expect(model.calls[0]?.seed).toBe(5);
    expect(model.provider).toBe('scripted');
  });

  it('throws scripted errors and says when the script runs out', async () => {
    const error = new RateLimitError({ provider: 'p', url: 'http://127.0.0.1/', statusCode: 429, message: 'slow' });
    const model = createScriptedModel({ steps: [{ error }] });
    await expect(model.doGenerate({ messages })).rejects.toBe(error);
    await expect(model.doGenerate({ messages })).rejects.toThrow(/call 2 but its script has 1 step/);
  });

  it('waits its delay, abortably, and streams the scripted text', async () => {
    const model = createScriptedModel({ steps: [{ text: 'slow', delayMs: 5000 }, 'streamed text here'], chunkSize: 5 });
    const controller = new AbortController();
    const pending = model.doGenerate({ messages, abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('gave up')), 10);
    await expect(pending).rejects.toThrow('gave up');
    const parts = [];
    for await (const p of model.doStream({ messages })) parts.push(p);
    expect(parts.slice(0, 4)).toEqual([
      { type: 'text-delta', text: 'strea' },
      { type: 'text-delta', text: 'med t' },
      { type: 'text-delta', text: 'ext h' },
      { type: 'text-delta', text: 'ere' },
    ]);
    expect(parts[4]).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('says whether it supports structured output only when told, and plays a refusal', async () => {
    expect(createScriptedModel().supportsStructuredOutput).toBeUndefined();
    const refusal = new StructuredOutputUnsupportedError({
      provider: 'scripted',
      url: 'http://127.0.0.1/',
      statusCode: 400,
      message: 'no json_schema',
    });
    const model = createScriptedModel({
      supportsStructuredOutput: true,
      steps: [{ error: refusal }, '{"ranking":[]}'],
    });
    expect(model.supportsStructuredOutput).toBe(true);
    const responseFormat = { type: 'json' as const, name: 'r', schema: { type: 'object' } };
    await expect(model.doGenerate({ messages, responseFormat })).rejects.toMatchObject({
      code: 'STRUCTURED_OUTPUT_UNSUPPORTED',
    });
    expect((await model.doGenerate({ messages })).text).toBe('{"ranking":[]}');
    expect(model.calls.map((c) => c.responseFormat?.name)).toEqual(['r', undefined]);
  });
});
