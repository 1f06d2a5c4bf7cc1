import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APICallError } from './api-call-error.js';
import { AuthenticationError } from './authentication-error.js';
import { EmptyResponseError } from './empty-response-error.js';
import { InsufficientCreditsError } from './insufficient-credits-error.js';
import { InvalidResponseError } from './invalid-response-error.js';
import type { StreamPart } from './language-model-v1.js';
import { ModelNotFoundError } from './model-not-found-error.js';
import { createOpenRouter } from './openrouter-provider.js';
import type { OpenRouterSettings } from './openrouter-provider.js';
import { RateLimitError } from './rate-limit-error.js';
import { TimeoutError } from './timeout-error.js';
import { createFakeClock } from './test/create-fake-clock.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer } from './test/start-test-server.js';

const KEY = 'sk-or-test-key-123';
let server: TestServer;
beforeAll(async () => {
  server = await createOpenRouterTestServer({ apiKey: KEY });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'What is 2+2?' },
];
const model = (settings: OpenRouterSettings = {}) =>
  createOpenRouter({ baseURL: server.url, apiKey: KEY, maxRetries: 0, timeoutMs: 2000, ...settings })(
    'anthropic/claude-opus-4.6',
  );

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition not reached within 2 s');
}

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

describe('OpenRouter over HTTP', () => {
  it('sends the chat request with attribution headers, routing, reasoning and fallbacks, and reads the answer', async () => {
    server.enqueue({
      kind: 'raw',
      // A response written from OpenRouter's documented shape, not produced by the test server.
      body: JSON.stringify({
        id: 'gen-1737000000-abc',
        provider: 'Anthropic',
        model: 'anthropic/claude-opus-4.6',
        object: 'chat.completion',
        created: 1737000000,
        system_fingerprint: 'fp_44709d6fcb',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            native_finish_reason: 'end_turn',
            message: { role: 'assistant', content: '4', reasoning: 'two plus two' },
          },
        ],
        usage: {
          prompt_tokens: 21,
          completion_tokens: 9,
          total_tokens: 30,
          cost: 0.000243,
          prompt_tokens_details: { cached_tokens: 16 },
          completion_tokens_details: { reasoning_tokens: 8 },
        },
      }),
    });
    const result = await model({
      appName: 'Council tests',
      appUrl: 'https://example.test/app',
      provider: { sort: 'price' },
      reasoning: { effort: 'low' },
      models: ['openai/gpt-5'],
    }).doGenerate({
      messages,
      temperature: 0.2,
      maxTokens: 50,
      seed: 42,
      providerOptions: { openrouter: { provider: { order: ['anthropic'] } } },
    });
    expect(result).toMatchObject({
      text: '4',
      reasoning: 'two plus two',
      finishReason: 'stop',
      responseId: 'gen-1737000000-abc',
      responseModelId: 'anthropic/claude-opus-4.6',
      seed: 42,
      systemFingerprint: 'fp_44709d6fcb',
      usage: { inputTokens: 21, outputTokens: 9, cachedTokens: 16, reasoningTokens: 8, costUsd: 0.000243 },
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [request] = server.requests;
    expect(request?.path).toBe('/api/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers['x-title']).toBe('Council tests');
    expect(request?.headers['http-referer']).toBe('https://example.test/app');
    expect(request?.body).toEqual({
      model: 'anthropic/claude-opus-4.6',
      messages,
      temperature: 0.2,
      max_tokens: 50,
      seed: 42,
      usage: { include: true },
      provider: { order: ['anthropic'] },
      reasoning: { effort: 'low' },
      models: ['openai/gpt-5'],
    });
  });

  it('reads the key and base URL from the environment it is given, at request time, not at creation', async () => {
    const env: Record<string, string | undefined> = {};
    const provider = createOpenRouter({ maxRetries: 0, env });
    const m = provider('x/y');
    env.OPENROUTER_BASE_URL = server.url;
    await expect(m.doGenerate({ messages })).rejects.toMatchObject({
      code: 'MISSING_API_KEY',
      message: expect.stringContaining('OPENROUTER_API_KEY') as unknown,
    });
    expect(server.requests).toHaveLength(0);
    env.OPENROUTER_API_KEY = KEY;
    expect((await m.doGenerate({ messages })).text).toBe('ok');
    expect(server.requests).toHaveLength(1);
  });

  it('treats an error in a 200 body as an error', async () => {
    server.enqueue({
      kind: 'error',
      inBody: true,
      status: 402,
      message: 'Insufficient credits. Add more using https://openrouter.ai/credits',
    });
    const error = await model()
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(InsufficientCreditsError.isInstance(error)).toBe(true);
    expect((error as InsufficientCreditsError).message).toContain('Insufficient credits');
  });

  it('retries a retryable error found in a 200 body', async () => {
    const clock = createFakeClock();
    server.enqueue(
      { kind: 'error', inBody: true, status: 502, message: 'upstream overloaded' },
      { kind: 'text', text: 'second time lucky' },
    );
    const result = await model({ maxRetries: 1, clock }).doGenerate({ messages });
    expect(result.text).toBe('second time lucky');
    expect(server.requests).toHaveLength(2);
  });

  it('explains an empty answer whose reasoning used the whole token budget', async () => {
    server.enqueue({
      kind: 'text',
      text: '',
      reasoning: 'Let me think about this very carefully...',
      finishReason: 'length',
      usage: { inputTokens: 12, outputTokens: 100, reasoningTokens: 100 },
    });
    const error = await model()
      .doGenerate({ messages, maxTokens: 100 })
      .catch((e: unknown) => e);
    expect(EmptyResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'reasoning-used-budget' });
    expect((error as Error).message).toMatch(/maxTokens 100/);
    expect((error as Error).message).toMatch(/Raise maxTokens/);
  });

  it('calls a plain empty answer empty', async () => {
    server.enqueue({ kind: 'text', text: '' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({
      name: 'EmptyResponseError',
      reason: 'empty',
    });
  });

  it('names the model when OpenRouter has no endpoints for it (404)', async () => {
    server.enqueue({ kind: 'error', status: 404, message: 'No endpoints found for anthropic/claude-opus-4.6.' });
    const error = await model({ maxRetries: 3 })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(ModelNotFoundError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ modelId: 'anthropic/claude-opus-4.6', statusCode: 404, isRetryable: false });
    expect((error as Error).message).toContain('"anthropic/claude-opus-4.6"');
    expect((error as Error).message).toContain('No endpoints found');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [401, 'AuthenticationError'],
    [403, 'AuthenticationError'],
    [402, 'InsufficientCreditsError'],
    [400, 'APICallError'],
  ])('never retries HTTP %i (%s)', async (status, name) => {
    server.enqueue({ kind: 'error', status, message: `status ${status}` });
    const error = await model({ maxRetries: 3, clock: createFakeClock() })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name, statusCode: status, isRetryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a wrong key as an AuthenticationError naming the variable', async () => {
    const error = await model({ apiKey: 'sk-wrong' })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('OPENROUTER_API_KEY');
  });

  it.each([408, 409, 429, 500, 502, 503, 504, 529])('retries HTTP %i with backoff, then succeeds', async (status) => {
    const clock = createFakeClock({ random: () => 0.5 });
    server.enqueue(
      { kind: 'error', status, message: 'transient' },
      { kind: 'error', status, message: 'transient' },
      { kind: 'text', text: 'done' },
    );
    const result = await model({
      maxRetries: 2,
      clock,
      retry: { initialDelayMs: 1000, maxDelayMs: 60_000 },
    }).doGenerate({ messages });
    expect(result.text).toBe('done');
    expect(server.requests).toHaveLength(3);
    // Full jitter with random() = 0.5: half of 1000·2^0, then half of 1000·2^1.
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const clock = createFakeClock();
    server.enqueue(...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 503, message: 'down' })));
    const error = await model({ maxRetries: 2, clock })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 503, isRetryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it('makes exactly one attempt when maxRetries is 0', async () => {
    server.enqueue({ kind: 'error', status: 503, message: 'down' }, { kind: 'text', text: 'never reached' });
    await expect(model({ maxRetries: 0 }).doGenerate({ messages })).rejects.toMatchObject({ statusCode: 503 });
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    await model().doGenerate({ messages }); // drains the queued answer
  });

  it('honours Retry-After in seconds and as an HTTP-date, capped at maxRetryAfterMs', async () => {
    const clock = createFakeClock({ startMs: Date.UTC(2026, 10, 22, 0, 0, 0) });
    server.enqueue(
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '3' } },
      { kind: 'error', status: 503, message: 'busy', headers: { 'retry-after': 'Sun, 22 Nov 2026 00:00:13 GMT' } },
      { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '600' } },
      { kind: 'text', text: 'finally' },
    );
    const result = await model({
      maxRetries: 3,
      clock,
      timeoutMs: 3_600_000,
      retry: { maxRetryAfterMs: 30_000 },
    }).doGenerate({ messages });
    expect(result.text).toBe('finally');
    // 3 s; then the date 13 s after the start, 10 s after the first wait; then 600 s capped at 30 s.
    expect(clock.sleeps).toEqual([3000, 10_000, 30_000]);
  });

  it('reports retryAfterMs on a RateLimitError', async () => {
    server.enqueue({
      kind: 'error',
      status: 429,
      message: 'Rate limit exceeded: free-models-per-min',
      headers: { 'retry-after': '20' },
    });
    const error = await model({ maxRetries: 0 })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterMs: 20_000, statusCode: 429 });
  });

  it('lets one deadline cover all attempts: no wait that would pass it', async () => {
    const clock = createFakeClock();
    server.enqueue(
      { kind: 'error', status: 429, message: 'wait', headers: { 'retry-after': '6' } },
      { kind: 'error', status: 429, message: 'wait', headers: { 'retry-after': '6' } },
      { kind: 'text', text: 'too late' },
    );
    const error = await model({ maxRetries: 5, clock, timeoutMs: 10_000 })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([6000]);
    server.requests.length = 0;
    await model().doGenerate({ messages });
  });

  // No upper bound on the elapsed time: a TimeoutError naming 300 ms comes only from the call's own deadline timer,
  // and a timer that fired 16 times late would fail on the test's 5 s timeout instead.
  it('times out a response that never ends, at the deadline', { timeout: 5_000 }, async () => {
    server.enqueue({ kind: 'hang', partial: '{"id":"gen-1","choices":[' });
    const started = Date.now();
    const error = await model({ timeoutMs: 300 })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 300 });
    expect((error as Error).message).toContain('did not finish within 300 ms (all attempts included)');
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  it('times out a server that never sends headers, and a call-level timeoutMs overrides the setting', async () => {
    server.enqueue({ kind: 'hang', beforeHeaders: true });
    await expect(model({ timeoutMs: 60_000 }).doGenerate({ messages, timeoutMs: 200 })).rejects.toMatchObject({
      name: 'TimeoutError',
      timeoutMs: 200,
    });
  });

  it('cancels the request in flight when the caller aborts, with the caller’s reason', async () => {
    server.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = model({ timeoutMs: 5000 }).doGenerate({ messages, abortSignal: controller.signal });
    await until(() => server.requests.length === 1);
    controller.abort(new Error('user pressed Ctrl-C'));
    await expect(pending).rejects.toThrow('user pressed Ctrl-C');
    // The server sees the connection close: the request was cancelled, not left running.
    await until(() => server.inFlight === 0);
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(model().doGenerate({ messages, abortSignal: controller.signal })).rejects.toThrow('already');
    expect(server.requests).toHaveLength(0);
  });

  it('stops retrying when aborted during a backoff wait', async () => {
    server.enqueue({ kind: 'error', status: 503, message: 'down' }, { kind: 'text', text: 'unused' });
    const controller = new AbortController();
    const pending = model({
      maxRetries: 3,
      timeoutMs: 10_000,
      retry: { initialDelayMs: 5000 },
      clock: {
        now: Date.now,
        random: () => 0.99,
        sleep: (ms, signal) =>
          new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error))),
      },
    }).doGenerate({ messages, abortSignal: controller.signal });
    await until(() => server.requests.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('cancelled while waiting'));
    await expect(pending).rejects.toThrow('cancelled while waiting');
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    await model().doGenerate({ messages });
  });

  it('turns malformed JSON into an InvalidResponseError with the body', async () => {
    server.enqueue({ kind: 'raw', body: '{"id": "gen-1", "choices": [' });
    const error = await model()
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(InvalidResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ responseBody: '{"id": "gen-1", "choices": [' });
    expect((error as Error).message).toMatch(/not valid JSON/);
  });

  it('turns a body of the wrong shape into an InvalidResponseError', async () => {
    server.enqueue({ kind: 'raw', body: '{"choices": "none"}' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({
      name: 'InvalidResponseError',
      message: expect.stringContaining('choices') as unknown,
    });
  });

  it('retries a truncated body and a reset connection as network failures', async () => {
    const clock = createFakeClock();
    server.enqueue(
      { kind: 'truncated', body: '{"id":"gen-1","choi' },
      { kind: 'reset' },
      { kind: 'text', text: 'recovered' },
    );
    const result = await model({ maxRetries: 2, clock }).doGenerate({ messages });
    expect(result.text).toBe('recovered');
    expect(server.requests).toHaveLength(3);
  });

  it('reports a reset connection, once retries are spent, as a retryable APICallError without a status', async () => {
    server.enqueue({ kind: 'reset' });
    const error = await model({ maxRetries: 0 })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: undefined, isRetryable: true });
    expect((error as Error).message).toMatch(/connection to openrouter at http:\/\/127\.0\.0\.1:\d+ failed/);
  });

  it('reports a truncated body, once retries are spent, as a network failure', async () => {
    server.enqueue({ kind: 'truncated', body: '{"id":"gen-1","choi' });
    await expect(model({ maxRetries: 0 }).doGenerate({ messages })).rejects.toMatchObject({
      name: 'APICallError',
      isRetryable: true,
    });
  });

  it('keeps only the first 2,000 characters of a long error body', async () => {
    server.enqueue({ kind: 'raw', status: 500, body: `<html>${'x'.repeat(5000)}</html>` });
    const error = (await model()
      .doGenerate({ messages })
      .catch((e: unknown) => e)) as APICallError;
    expect(error.statusCode).toBe(500);
    expect(error.responseBody?.startsWith('<html>xxx')).toBe(true);
    expect(error.responseBody?.length).toBeLessThan(2100);
    expect(error.responseBody).toContain('3013 more characters'); // 6 + 5000 + 7 characters, 2000 kept;
  });
});

describe('OpenRouter streaming', () => {
  it('streams text and reasoning, ignores SSE comments, and finishes with usage and cost', async () => {
    server.enqueue({
      kind: 'text',
      text: 'The answer is 4.',
      reasoning: 'add them',
      comments: true,
      usage: { inputTokens: 20, outputTokens: 6, costUsd: 0.0012, reasoningTokens: 2 },
      id: 'gen-s1',
    });
    const parts = await collect(model().doStream!({ messages }));
    const text = parts
      .filter((p) => p.type === 'text-delta')
      .map((p) => (p as { text: string }).text)
      .join('');
    const reasoning = parts
      .filter((p) => p.type === 'reasoning-delta')
      .map((p) => (p as { text: string }).text)
      .join('');
    expect(text).toBe('The answer is 4.');
    expect(reasoning).toBe('add them');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 20, outputTokens: 6, reasoningTokens: 2, costUsd: 0.0012 },
      responseId: 'gen-s1',
      responseModelId: 'anthropic/claude-opus-4.6',
    });
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('reads a hand-written OpenRouter stream', async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({ id: 'gen-h', model: 'openai/gpt-5', choices: [{ index: 0, delta, finish_reason: finish }] });
    server.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      body: `: OPENROUTER PROCESSING\n\ndata: ${chunk({ role: 'assistant', content: 'Hel' })}\n\n: OPENROUTER PROCESSING\n\ndata: ${chunk({ content: 'lo' })}\n\ndata: ${chunk({}, 'length')}\n\ndata: {"id":"gen-h","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"cost":0.5}}\n\ndata: [DONE]\n\n`,
    });
    const parts = await collect(model().doStream!({ messages }));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      {
        type: 'finish',
        finishReason: 'length',
        usage: { inputTokens: 5, outputTokens: 2, costUsd: 0.5 },
        responseId: 'gen-h',
        responseModelId: 'openai/gpt-5',
      },
    ]);
  });

  it('throws an error that arrives mid-stream, after the text so far', async () => {
    server.enqueue({
      kind: 'text',
      text: 'partial answer',
      midStreamError: { message: 'Provider disconnected', code: 502 },
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const p of model().doStream!({ messages })) if (p.type === 'text-delta') seen.push(p.text);
    })().catch((e: unknown) => e);
    expect(seen.join('')).toBe('partial answer');
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 502 });
    expect((error as Error).message).toContain('Provider disconnected');
  });

  it('fails the stream with a typed error before any part when the status is an error', async () => {
    server.enqueue({ kind: 'error', status: 404, message: 'No endpoints found for anthropic/claude-opus-4.6.' });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({
      name: 'ModelNotFoundError',
      modelId: 'anthropic/claude-opus-4.6',
    });
  });

  it('retries opening a stream, then streams', async () => {
    server.enqueue({ kind: 'error', status: 503, message: 'busy' }, { kind: 'text', text: 'streamed' });
    const parts = await collect(model({ maxRetries: 1, clock: createFakeClock() }).doStream!({ messages }));
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toBe('streamed');
  });

  it('times out a stream that stops sending, and fails a stream cut off mid-way', async () => {
    server.enqueue({ kind: 'hang', partial: 'data: {"id":"gen-1","choices":[{"delta":{"content":"Hi"}}]}\n\n' });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const p of model({ timeoutMs: 300 }).doStream!({ messages }))
        if (p.type === 'text-delta') seen.push(p.text);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['Hi']);
    expect(TimeoutError.isInstance(error)).toBe(true);

    server.enqueue({
      kind: 'truncated',
      body: 'data: {"id":"gen-1","choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"id":',
    });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({
      name: 'APICallError',
      message: expect.stringContaining('broke off') as unknown,
    });
  });

  it('explains a stream that reasoned until the budget ran out and said nothing', async () => {
    server.enqueue({
      kind: 'text',
      text: '',
      reasoning: 'thinking hard',
      finishReason: 'length',
      usage: { inputTokens: 3, outputTokens: 64, reasoningTokens: 64 },
    });
    await expect(collect(model().doStream!({ messages, maxTokens: 64 }))).rejects.toMatchObject({
      name: 'EmptyResponseError',
      reason: 'reasoning-used-budget',
    });
  });
});
