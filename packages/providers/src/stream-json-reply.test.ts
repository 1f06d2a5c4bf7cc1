import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import { createGemini } from './gemini-provider.js';
import type { StreamPart } from './language-model-v1.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import { createOpenRouter } from './openrouter-provider.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createFakeClock } from './test/create-fake-clock.js';
import { createGeminiTestServer } from './test/create-gemini-test-server.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer } from './test/start-test-server.js';

const KEY = 'sk-json-stream-key-654';
// Servers (proxies) that ignore `stream: true` and answer every request with the whole JSON reply.
let openAI: TestServer;
let openRouter: TestServer;
let anthropicServer: TestServer;
let geminiServer: TestServer;
beforeAll(async () => {
  [openAI, openRouter, anthropicServer, geminiServer] = await Promise.all([
    createOpenAICompatibleTestServer({ ignoreStream: true }),
    createOpenRouterTestServer({ ignoreStream: true }),
    createAnthropicTestServer({ ignoreStream: true }),
    createGeminiTestServer({ ignoreStream: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([openAI.close(), openRouter.close(), anthropicServer.close(), geminiServer.close()]);
});
afterEach(() => {
  for (const server of [openAI, openRouter, anthropicServer, geminiServer]) server.reset();
});

const messages = [{ role: 'user' as const, content: 'Hi' }];

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

describe('a stream request answered with the whole JSON reply', () => {
  it('OpenAI-compatible: a hand-written chat.completion becomes reasoning, text and finish', async () => {
    openAI.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"id":"chatcmpl-9","object":"chat.completion","created":1737000000,"model":"qwen3-8b","choices":[{"index":0,"message":{"role":"assistant","content":"Four.","reasoning_content":"2+2"},"finish_reason":"stop"}],"usage":{"prompt_tokens":14,"completion_tokens":6,"total_tokens":20}}',
    });
    const model = createOpenAICompatible({ name: 'proxy', baseURL: openAI.url, maxRetries: 0 })('qwen3-8b');
    expect(await collect(model.doStream!({ messages }))).toEqual([
      { type: 'reasoning-delta', text: '2+2' },
      { type: 'text-delta', text: 'Four.' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 14, outputTokens: 6 },
        responseId: 'chatcmpl-9',
        responseModelId: 'qwen3-8b',
      },
    ]);
    expect(openAI.requests[0]?.stream).toBe(true);
  });

  it('Anthropic: the message becomes text and finish (and a forced tool’s input its JSON)', async () => {
    const model = createAnthropic({ baseURL: anthropicServer.url, apiKey: KEY, maxRetries: 0 })('claude-opus-4-6');
    anthropicServer.enqueue(
      { kind: 'text', text: 'Hello there', id: 'msg_7', usage: { inputTokens: 30, outputTokens: 3 } },
      { kind: 'text', text: '{"ok":true}' },
    );
    expect(await collect(model.doStream!({ messages }))).toEqual([
      { type: 'text-delta', text: 'Hello there' },
      // The test server reports cache_read_input_tokens 0, which is a cachedTokens of 0.
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 30, outputTokens: 3, cachedTokens: 0 },
        responseId: 'msg_7',
        responseModelId: 'claude-opus-4-6',
      },
    ]);
    const structured = await collect(
      model.doStream!({ messages, responseFormat: { type: 'json', name: 'r', schema: { type: 'object' } } }),
    );
    expect(structured[0]).toEqual({ type: 'text-delta', text: '{"ok":true}' });
    expect(structured[1]).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('Gemini: the generateContent reply becomes reasoning, text and finish', async () => {
    const model = createGemini({ baseURL: geminiServer.url, apiKey: KEY, maxRetries: 0 })('gemini-2.5-flash');
    geminiServer.enqueue({
      kind: 'text',
      text: 'Paris.',
      reasoning: 'capital of France',
      id: 'resp-3',
      usage: { inputTokens: 8, outputTokens: 12, reasoningTokens: 10 },
    });
    expect(await collect(model.doStream!({ messages }))).toEqual([
      { type: 'reasoning-delta', text: 'capital of France' },
      { type: 'text-delta', text: 'Paris.' },
      // outputTokens counts thoughts too: 2 candidate tokens + 10 thought tokens.
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 8, outputTokens: 12, reasoningTokens: 10 },
        responseId: 'resp-3',
        responseModelId: 'gemini-2.5-flash',
      },
    ]);
    expect(geminiServer.requests[0]?.path).toContain(':streamGenerateContent');
  });

  it('reads an error inside the body as doGenerate does, retrying a retryable one', async () => {
    const clock = createFakeClock();
    const model = createOpenRouter({ baseURL: openRouter.url, apiKey: KEY, maxRetries: 1, clock })('a/b');
    openRouter.enqueue(
      { kind: 'error', status: 503, message: 'upstream overloaded', inBody: true },
      { kind: 'text', text: 'second try' },
    );
    const parts = await collect(model.doStream!({ messages }));
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'second try' });
    expect(openRouter.requests).toHaveLength(2);

    openRouter.enqueue({ kind: 'error', status: 402, message: 'Insufficient credits', inBody: true });
    await expect(collect(model.doStream!({ messages }))).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
  });

  it('holds the reply to the size limit and calls an empty one empty', async () => {
    const model = createOpenAICompatible({
      name: 'proxy',
      baseURL: openAI.url,
      maxRetries: 0,
      maxResponseBytes: 64 * 1024,
    })('m');
    openAI.enqueue({ kind: 'huge', bytes: 1024 * 1024 });
    await expect(collect(model.doStream!({ messages }))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    openAI.enqueue({ kind: 'text', text: '' });
    await expect(collect(model.doStream!({ messages }))).rejects.toMatchObject({
      code: 'EMPTY_RESPONSE',
      reason: 'empty',
    });
  });

  it('fails a reply that is not JSON though it says so, as doGenerate does', async () => {
    openAI.enqueue({ kind: 'raw', body: '<html>gateway</html>' });
    const model = createOpenAICompatible({ name: 'proxy', baseURL: openAI.url, maxRetries: 0 })('m');
    await expect(collect(model.doStream!({ messages }))).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });
});
