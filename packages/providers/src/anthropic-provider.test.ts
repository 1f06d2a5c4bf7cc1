import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import type { AnthropicSettings } from './anthropic-provider.js';
import { APICallError } from './api-call-error.js';
import { AuthenticationError } from './authentication-error.js';
import type { StreamPart } from './language-model-v1.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createFakeClock } from './test/create-fake-clock.js';
import type { TestServer } from './test/start-test-server.js';

const KEY = 'sk-ant-test-key-456';
let server: TestServer;
beforeAll(async () => {
  server = await createAnthropicTestServer({ apiKey: KEY });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const messages = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'system' as const, content: 'Answer in English.' },
  { role: 'user' as const, content: 'Hello' },
  { role: 'assistant' as const, content: 'Hi.' },
  { role: 'user' as const, content: 'Your name?' },
];
const model = (settings: AnthropicSettings = {}) =>
  createAnthropic({ baseURL: server.url, apiKey: KEY, maxRetries: 0, timeoutMs: 2000, ...settings })('claude-opus-4-6');

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

describe('Anthropic Messages over HTTP', () => {
  it('sends system apart, max_tokens always, the version header, and reads usage with cache reads', async () => {
    server.enqueue({
      kind: 'raw',
      // The response example of Anthropic's Messages API reference, with a cache read added.
      body: '{"id":"msg_013Zva2CMHLNnXjNJJKqJ2EF","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Hi! My name is Claude."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":2095,"output_tokens":503,"cache_creation_input_tokens":0,"cache_read_input_tokens":1000}}',
    });
    const result = await model().doGenerate({ messages, temperature: 0.5 });
    expect(result).toMatchObject({
      text: 'Hi! My name is Claude.',
      finishReason: 'stop',
      responseId: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      responseModelId: 'claude-opus-4-6',
      // input_tokens leaves out cache reads: 2095 + 1000.
      usage: { inputTokens: 3095, outputTokens: 503, cachedTokens: 1000 },
    });
    expect(result.usage.costUsd).toBeUndefined();
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe(KEY);
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({
      model: 'claude-opus-4-6',
      max_tokens: 4096,
      system: 'You are terse.\n\nAnswer in English.',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi.' },
        { role: 'user', content: 'Your name?' },
      ],
      temperature: 0.5,
    });
  });

  it('sends the call’s maxTokens and provider options, and reads thinking as reasoning', async () => {
    server.enqueue({
      kind: 'raw',
      body: '{"id":"msg_2","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"Let me add.","signature":"EqQB"},{"type":"text","text":"4"}],"stop_reason":"max_tokens","usage":{"input_tokens":10,"output_tokens":64}}',
    });
    const result = await model({ defaultMaxTokens: 999 }).doGenerate({
      messages,
      maxTokens: 64,
      providerOptions: { anthropic: { thinking: { type: 'enabled', budget_tokens: 32 } } },
    });
    expect(result).toMatchObject({
      text: '4',
      reasoning: 'Let me add.',
      finishReason: 'length',
      usage: { inputTokens: 10, outputTokens: 64 },
    });
    expect(server.requests[0]?.body).toMatchObject({
      max_tokens: 64,
      thinking: { type: 'enabled', budget_tokens: 32 },
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

  it('explains an answer that was all thinking', async () => {
    server.enqueue({ kind: 'text', text: '', reasoning: 'hmm…', finishReason: 'length' });
    await expect(model().doGenerate({ messages, maxTokens: 50 })).rejects.toMatchObject({
      name: 'EmptyResponseError',
      reason: 'reasoning-used-budget',
      message: expect.stringContaining('max_tokens 50') as unknown,
    });
  });

  it('retries 529 overloaded and says so when retries run out', async () => {
    const clock = createFakeClock();
    server.enqueue({ kind: 'error', status: 529, message: 'Overloaded' }, { kind: 'text', text: 'back' });
    expect((await model({ maxRetries: 1, clock }).doGenerate({ messages })).text).toBe('back');
    server.enqueue({ kind: 'error', status: 529, message: 'Overloaded' });
    const error = await model()
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 529, isRetryable: true });
    expect((error as Error).message).toMatch(/overloaded/);
  });

  it.each([
    [401, 'AuthenticationError'],
    [403, 'AuthenticationError'],
    [404, 'ModelNotFoundError'],
    [429, 'RateLimitError'],
    [400, 'APICallError'],
    [500, 'APICallError'],
  ])('maps HTTP %i to %s', async (status, name) => {
    server.enqueue({ kind: 'error', status, message: `problem ${status}` });
    const error = await model()
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name, statusCode: status });
    expect((error as Error).message).toContain(`problem ${status}`);
  });

  it('rejects a wrong key, naming ANTHROPIC_API_KEY', async () => {
    const error = await model({ apiKey: 'sk-ant-wrong' })
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(AuthenticationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
  });

  it('handles malformed JSON, a reset, a truncated body and a response that never ends', async () => {
    server.enqueue({ kind: 'raw', body: '{"type":"message","content":[{"ty' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name: 'InvalidResponseError' });
    server.enqueue({ kind: 'reset' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({
      name: 'APICallError',
      statusCode: undefined,
      isRetryable: true,
    });
    server.enqueue({ kind: 'truncated', body: '{"type":"message"' });
    await expect(model().doGenerate({ messages })).rejects.toMatchObject({ name: 'APICallError', isRetryable: true });
    server.enqueue({ kind: 'hang' });
    await expect(model({ timeoutMs: 200 }).doGenerate({ messages })).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});

describe('Anthropic streaming', () => {
  it('reads the documented event stream', async () => {
    const ev = (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`;
    server.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      // The streaming example of Anthropic's Messages API reference.
      body: [
        ev(
          'message_start',
          '{"type": "message_start", "message": {"id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY", "type": "message", "role": "assistant", "content": [], "model": "claude-opus-4-6", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}',
        ),
        ev(
          'content_block_start',
          '{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}',
        ),
        ev('ping', '{"type": "ping"}'),
        ev(
          'content_block_delta',
          '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}}',
        ),
        ev(
          'content_block_delta',
          '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "!"}}',
        ),
        ev('content_block_stop', '{"type": "content_block_stop", "index": 0}'),
        ev(
          'message_delta',
          '{"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence":null}, "usage": {"output_tokens": 15}}',
        ),
        ev('message_stop', '{"type": "message_stop"}'),
      ].join(''),
    });
    expect(await collect(model().doStream!({ messages }))).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: '!' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 25, outputTokens: 15 },
        responseId: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
        responseModelId: 'claude-opus-4-6',
      },
    ]);
    expect(server.requests[0]?.body).toMatchObject({ stream: true, max_tokens: 4096 });
  });

  it('streams thinking as reasoning, and throws an overloaded error event mid-stream', async () => {
    server.enqueue({ kind: 'text', text: 'answer', reasoning: 'think' });
    const parts = await collect(model().doStream!({ messages }));
    expect(
      parts
        .filter((p) => p.type === 'reasoning-delta')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toBe('think');
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => (p as { text: string }).text)
        .join(''),
    ).toBe('answer');

    server.enqueue({ kind: 'text', text: 'par', midStreamError: { message: 'Overloaded', code: 'overloaded_error' } });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({
      name: 'APICallError',
      statusCode: 529,
    });
  });

  it('fails a stream that ends before message_stop', async () => {
    server.enqueue({
      kind: 'truncated',
      body: 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":1}}}\n\n',
    });
    await expect(collect(model().doStream!({ messages }))).rejects.toMatchObject({ name: 'APICallError' });
  });
});
