import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError } from './authentication-error.js';
import { createGemini } from './gemini-provider.js';
import type { HttpProviderSettings } from './provider-runtime.js';
import type { StreamPart } from './language-model-v1.js';
import { createFakeClock } from './test/create-fake-clock.js';
import { createGeminiTestServer } from './test/create-gemini-test-server.js';
import type { TestServer } from './test/start-test-server.js';

const KEY = 'AIza-test-key-789';
let server: TestServer;
beforeAll(async () => {
  server = await createGeminiTestServer({ apiKey: KEY });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Explain AI' },
  { role: 'assistant' as const, content: 'Sure.' },
  { role: 'user' as const, content: 'Shorter.' },
];
const model = (settings: HttpProviderSettings = {}) =>
  createGemini({ baseURL: server.url, apiKey: KEY, maxRetries: 0, timeoutMs: 2000, ...settings })('gemini-2.5-flash');

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

describe('Gemini generateContent over HTTP', () => {
  it('sends contents, systemInstruction and generationConfig with the key in a header, and reads usageMetadata', async () => {
    server.enqueue({
      kind: 'raw',
      // Shaped after the generateContent reference: a thought part, an answer part, usageMetadata with thoughts.
      body: '{"candidates":[{"content":{"parts":[{"text":"Considering scope.","thought":true},{"text":"AI learns patterns from data."}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":8,"candidatesTokenCount":7,"totalTokenCount":115,"thoughtsTokenCount":100,"cachedContentTokenCount":4},"modelVersion":"gemini-2.5-flash","responseId":"mEK7aJ7hGo2b"}',
    });
    const result = await model().doGenerate({
      messages,
      temperature: 0.1,
      maxTokens: 256,
      seed: 7,
      providerOptions: { gemini: { generationConfig: { thinkingConfig: { thinkingBudget: 128 } } } },
    });
    expect(result).toMatchObject({
      text: 'AI learns patterns from data.',
      reasoning: 'Considering scope.',
      finishReason: 'stop',
      responseId: 'mEK7aJ7hGo2b',
      responseModelId: 'gemini-2.5-flash',
      seed: 7,
      // Output counts the answer and the thinking: 7 + 100.
      usage: { inputTokens: 8, outputTokens: 107, reasoningTokens: 100, cachedTokens: 4 },
    });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(request?.headers['x-goog-api-key']).toBe(KEY);
    expect(request?.path).not.toContain(KEY);
    expect(request?.body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Explain AI' }] },
        { role: 'model', parts: [{ text: 'Sure.' }] },
        { role: 'user', parts: [{ text: 'Shorter.' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.1, maxOutputTokens: 256, seed: 7, thinkingConfig: { thinkingBudget: 128 } },
    });
  });

  it('sends nothing of another provider’s options (the simulated council context, another vendor’s fields)', async () => {
    const others = {
      simulated: { council: { stage: 'chairman', answers: [{ id: 'm', text: 'the secret answer' }] } },
      openrouter: { provider: { sort: 'price' } },
    };
    await model().doGenerate({ messages });
    await model().doGenerate({ messages, providerOptions: others });
    const [plain, withOthers] = server.requests.map((r) => r.body);
    expect(withOthers).toEqual(plain);
    expect(JSON.stringify(withOthers)).not.toMatch(/secret answer|council|sort/);
  });

  it('reads GEMINI_API_KEY, or GOOGLE_API_KEY when it is unset, at request time', async () => {
    const env: Record<string, string | undefined> = { GOOGLE_API_KEY: KEY };
    const m = createGemini({ baseURL: server.url, maxRetries: 0, env })('gemini-2.5-flash');
    expect((await m.doGenerate({ messages })).text).toBe('ok');
    env.GEMINI_API_KEY = 'AIza-wrong';
    await expect(m.doGenerate({ messages })).rejects.toMatchObject({ name: 'AuthenticationError' });
    delete env.GEMINI_API_KEY;
    delete env.GOOGLE_API_KEY;
    await expect(m.doGenerate({ messages })).rejects.toMatchObject({
      code: 'MISSING_API_KEY',
      message: expect.stringContaining('GEMINI_API_KEY or GOOGLE_API_KEY') as unknown,
    });
  });

  it('treats Gemini’s 400 "API key not valid" as an AuthenticationError', async () => {
    const error = await model({ apiKey: 'AIza-wrong' })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('GEMINI_API_KEY');
  });

  it('maps a blocked prompt and a thinking-only answer to explained EmptyResponseErrors', async () => {
    server.enqueue({
      kind: 'raw',
      body: '{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":5}}',
    });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({
      name: 'EmptyResponseError',
      reason: 'content-filter',
      message: expect.stringContaining('SAFETY') as unknown,
    });
    server.enqueue({
      kind: 'text',
      text: '',
      reasoning: 'long thought',
      finishReason: 'length',
      usage: { inputTokens: 5, outputTokens: 64, reasoningTokens: 64 },
    });
    await expect(model().doGenerate({ messages, maxTokens: 64 })).rejects.toMatchObject({
      name: 'EmptyResponseError',
      reason: 'reasoning-used-budget',
    });
  });

  it.each([
    [403, 'AuthenticationError'],
    [404, 'ModelNotFoundError'],
    [429, 'RateLimitError'],
    [400, 'APICallError'],
    [503, 'APICallError'],
  ])('maps HTTP %i to %s', async (status, name) => {
    server.enqueue({ kind: 'error', status, message: `gemini says ${status}` });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name, statusCode: status });
  });

  it('retries 429 RESOURCE_EXHAUSTED honouring Retry-After', async () => {
    const clock = createFakeClock();
    server.enqueue(
      {
        kind: 'error',
        status: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        headers: { 'retry-after': '2' },
      },
      { kind: 'text', text: 'ok now' },
    );
    expect((await model({ maxRetries: 1, clock, timeoutMs: 10_000 }).doGenerate({ messages })).text).toBe('ok now');
    expect(clock.sleeps).toEqual([2000]);
  });

  it('handles malformed JSON, a reset and a response that never ends', async () => {
    server.enqueue({ kind: 'raw', body: 'not json' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name: 'InvalidResponseError' });
    server.enqueue({ kind: 'reset' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name: 'APICallError', isRetryable: true });
    server.enqueue({ kind: 'hang', partial: '{"candidates":' });
    await expect(model({ timeoutMs: 200 }).doGenerate({ messages })).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('Gemini streaming', () => {
  it('streams over streamGenerateContent?alt=sse and finishes with usage', async () => {
    server.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      body:
        'data: {"candidates":[{"content":{"parts":[{"text":"AI "}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-flash","responseId":"r1"}\r\n\r\n' +
        'data: {"candidates":[{"content":{"parts":[{"text":"learns."}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":3,"totalTokenCount":7},"modelVersion":"gemini-2.5-flash","responseId":"r1"}\r\n\r\n',
    });
    expect(await collect(model().doStream!({ messages }))).toEqual([
      { type: 'text-delta', text: 'AI ' },
      { type: 'text-delta', text: 'learns.' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 4, outputTokens: 3 },
        responseId: 'r1',
        responseModelId: 'gemini-2.5-flash',
      },
    ]);
    expect(server.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it('throws an error chunk mid-stream and fails a stream cut short', async () => {
    server.enqueue({
      kind: 'text',
      text: 'some text',
      midStreamError: { message: 'The model is overloaded.', code: 503 },
    });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({
      name: 'APICallError',
      statusCode: 503,
    });
    server.enqueue({ kind: 'truncated', body: 'data: {"candidates":[{"content":{"parts":[{"text":"AI"}]}}]}\n\n' });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({ name: 'APICallError' });
  });
});
