import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import { createGemini } from './gemini-provider.js';
import type { LanguageModelV1, StreamPart } from './language-model-v1.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import { createOpenRouter } from './openrouter-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createFakeClock } from './test/create-fake-clock.js';
import { createGeminiTestServer } from './test/create-gemini-test-server.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer, TestServerOptions } from './test/start-test-server.js';

// The same failure modes, over HTTP, for every wire format: each row is one vendor's server and client.
const KEY = 'matrix-key';
const vendors: Array<{
  name: string;
  start: (o: TestServerOptions) => Promise<TestServer>;
  make: (url: string, s: HttpProviderSettings) => LanguageModelV1;
  modelId: string;
}> = [
  {
    name: 'openrouter',
    start: createOpenRouterTestServer,
    make: (url, s) => createOpenRouter({ ...s, baseURL: url, apiKey: KEY })('vendor/model-a'),
    modelId: 'vendor/model-a',
  },
  {
    name: 'openai-compatible',
    start: createOpenAICompatibleTestServer,
    make: (url, s) => createOpenAICompatible({ ...s, name: 'local', baseURL: url, apiKey: KEY })('model-b'),
    modelId: 'model-b',
  },
  {
    name: 'anthropic',
    start: createAnthropicTestServer,
    make: (url, s) => createAnthropic({ ...s, baseURL: url, apiKey: KEY })('claude-c'),
    modelId: 'claude-c',
  },
  {
    name: 'gemini',
    start: createGeminiTestServer,
    make: (url, s) => createGemini({ ...s, baseURL: url, apiKey: KEY })('gemini-d'),
    modelId: 'gemini-d',
  },
];

const messages = [{ role: 'user' as const, content: 'q' }];
const servers = new Map<string, TestServer>();
beforeAll(async () => {
  for (const v of vendors) servers.set(v.name, await v.start({ apiKey: KEY }));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

describe.each(vendors)('$name', ({ name, make, modelId }) => {
  const server = () => servers.get(name)!;
  const model = (s: HttpProviderSettings = {}) => make(server().url, { maxRetries: 0, timeoutMs: 2000, ...s });

  it('answers, with usage, as JSON and as a stream', async () => {
    server().enqueue({ kind: 'text', text: 'Forty-two.', usage: { inputTokens: 11, outputTokens: 3 } });
    const result = await model().doGenerate({ messages });
    expect(result).toMatchObject({
      text: 'Forty-two.',
      finishReason: 'stop',
      usage: { inputTokens: 11, outputTokens: 3 },
    });
    server().enqueue({
      kind: 'text',
      text: 'Forty-two.',
      usage: { inputTokens: 11, outputTokens: 3 },
      finishReason: 'length',
      chunkSize: 3,
    });
    const parts = await collect(model().doStream!({ messages }));
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => (p as { text: string }).text)).toEqual([
      'For',
      'ty-',
      'two',
      '.',
    ]);
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'length',
      usage: { inputTokens: 11, outputTokens: 3 },
    });
  });

  it.each([
    [401, 'AuthenticationError'],
    [402, 'InsufficientCreditsError'],
    [403, 'AuthenticationError'],
    [404, 'ModelNotFoundError'],
    [429, 'RateLimitError'],
    [500, 'APICallError'],
  ])('maps HTTP %i to %s, naming the model', async (status, errorName) => {
    server().enqueue({ kind: 'error', status, message: `vendor message ${status}` });
    const error = await model()
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: errorName, statusCode: status, modelId });
    expect((error as Error).message).toContain(modelId);
    expect((error as Error).message).toContain(`vendor message ${status}`);
  });

  it('retries 503 then 429 with Retry-After, and succeeds', async () => {
    const clock = createFakeClock({ random: () => 0.25 });
    server().enqueue(
      { kind: 'error', status: 503, message: 'busy' },
      { kind: 'error', status: 429, message: 'slow', headers: { 'retry-after': '4' } },
      { kind: 'text', text: 'made it' },
    );
    const result = await model({ maxRetries: 2, clock, timeoutMs: 60_000, retry: { initialDelayMs: 400 } }).doGenerate({
      messages,
    });
    expect(result.text).toBe('made it');
    // 0.25 × 400 ms of jitter, then the 4 s the server asked for.
    expect(clock.sleeps).toEqual([100, 4000]);
  });

  it('times out a hung response, rejects malformed JSON, and reports a reset or a cut-off body', async () => {
    server().enqueue({ kind: 'hang', partial: '{' });
    await expect(model({ timeoutMs: 150 }).doGenerate({ messages })).rejects.toMatchObject({
      name: 'TimeoutError',
      timeoutMs: 150,
    });
    server().enqueue({ kind: 'raw', body: '{"unterminated": ' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name: 'InvalidResponseError' });
    server().enqueue({ kind: 'reset' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({
      name: 'APICallError',
      statusCode: undefined,
      isRetryable: true,
    });
    server().enqueue({ kind: 'truncated', body: '{"id":"x",' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name: 'APICallError', isRetryable: true });
  });

  it('calls an empty answer an EmptyResponseError, and an error mid-stream an APICallError', async () => {
    server().enqueue({ kind: 'text', text: '' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({
      name: 'EmptyResponseError',
      reason: 'empty',
      modelId,
    });
    server().enqueue({ kind: 'text', text: 'half', midStreamError: { message: 'upstream went away', code: 502 } });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({ name: 'APICallError' });
  });
});
