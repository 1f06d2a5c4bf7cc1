import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderV1 } from './provider-v1.js';
import { createLlamaCpp } from './llamacpp-provider.js';
import { createLMStudio } from './lmstudio-provider.js';
import { createOllama } from './ollama-provider.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import { createOpenAI } from './openai-provider.js';
import { createVLLM } from './vllm-provider.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import type { TestServer } from './test/start-test-server.js';

let open: TestServer;
let keyed: TestServer;
beforeAll(async () => {
  open = await createOpenAICompatibleTestServer();
  keyed = await createOpenAICompatibleTestServer({ apiKey: 'sk-proj-test' });
});
afterAll(async () => {
  await open.close();
  await keyed.close();
});
afterEach(() => {
  open.requests.length = 0;
  keyed.requests.length = 0;
});

const messages = [{ role: 'user' as const, content: 'Hi' }];

/** The environment the providers below are given (they never read the process's). */
const env: Record<string, string | undefined> = {};

function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete env[k];
      else env[k] = value;
    }
  };
  apply(vars);
  return fn().finally(() => apply(saved));
}

describe('OpenAI-compatible providers', () => {
  it('Ollama: base URL from OLLAMA_BASE_URL, no key sent, cost 0', async () => {
    open.enqueue({
      kind: 'raw',
      // Ollama's /v1/chat/completions answer shape (no cost field).
      body: '{"id":"chatcmpl-455","object":"chat.completion","created":1737000000,"model":"llama3.2","system_fingerprint":"fp_ollama","choices":[{"index":0,"message":{"role":"assistant","content":"Hello!"},"finish_reason":"stop"}],"usage":{"prompt_tokens":26,"completion_tokens":3,"total_tokens":29}}',
    });
    const result = await withEnv({ OLLAMA_BASE_URL: open.url, OLLAMA_API_KEY: undefined }, () =>
      createOllama({ maxRetries: 0, env })('llama3.2').doGenerate({ messages, seed: 3 }),
    );
    expect(result).toMatchObject({
      text: 'Hello!',
      usage: { inputTokens: 26, outputTokens: 3, costUsd: 0 },
      systemFingerprint: 'fp_ollama',
      seed: 3,
    });
    expect(open.requests[0]?.headers.authorization).toBeUndefined();
    expect(open.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('Ollama: a server that is not running is a clear, retryable connection error', async () => {
    const closed = await createOpenAICompatibleTestServer();
    const url = closed.url;
    await closed.close();
    const error = await createOllama({ baseURL: url, maxRetries: 0 })('llama3.2')
      .doGenerate({ messages })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'APICallError', isRetryable: true, statusCode: undefined });
    expect((error as Error).message).toMatch(/ECONNREFUSED|connect/);
    expect((error as Error).message).toMatch(/must be running/);
  });

  it('OpenAI: OPENAI_API_KEY and OPENAI_BASE_URL, max_completion_tokens, usage without cost', async () => {
    keyed.enqueue({
      kind: 'text',
      text: 'Hello from OpenAI',
      usage: { inputTokens: 5, outputTokens: 4, cachedTokens: 2, reasoningTokens: 1 },
    });
    const result = await withEnv({ OPENAI_API_KEY: 'sk-proj-test', OPENAI_BASE_URL: keyed.url }, () =>
      createOpenAI({ maxRetries: 0, env })('gpt-5').doGenerate({ messages, maxTokens: 30 }),
    );
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 4, cachedTokens: 2, reasoningTokens: 1 });
    expect(keyed.requests[0]?.headers.authorization).toBe('Bearer sk-proj-test');
    expect(keyed.requests[0]?.body).toMatchObject({ model: 'gpt-5', max_completion_tokens: 30 });
    expect(keyed.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('OpenAI: a missing key fails before any request, naming OPENAI_API_KEY', async () => {
    await withEnv({ OPENAI_API_KEY: undefined }, async () => {
      await expect(createOpenAI({ baseURL: keyed.url, env })('gpt-5').doGenerate({ messages })).rejects.toMatchObject({
        code: 'MISSING_API_KEY',
        message: expect.stringContaining('OPENAI_API_KEY') as unknown,
      });
    });
    expect(keyed.requests).toHaveLength(0);
  });

  it('vLLM and LM Studio presets talk to their base URLs with no key', async () => {
    await withEnv({ VLLM_API_KEY: undefined, LMSTUDIO_API_KEY: undefined }, async () => {
      expect(
        (await createVLLM({ baseURL: open.url, env })('Qwen/Qwen3-8B').doGenerate({ messages })).usage.costUsd,
      ).toBe(0);
      expect((await createLMStudio({ baseURL: open.url, env })('qwen3-8b').doGenerate({ messages })).text).toBe('ok');
    });
    expect(open.requests.map((r) => r.model)).toEqual(['Qwen/Qwen3-8B', 'qwen3-8b']);
  });

  it('a custom provider: its name in results and errors, its key variable, its providerOptions', async () => {
    const together = createOpenAICompatible({
      name: 'together',
      baseURL: keyed.url,
      apiKeyEnvVar: 'TOGETHER_API_KEY',
      maxRetries: 0,
      env,
    });
    const m = together('meta/llama');
    expect(m.provider).toBe('together');
    await withEnv({ TOGETHER_API_KEY: 'sk-proj-test' }, async () => {
      await m.doGenerate({ messages, providerOptions: { together: { top_k: 40 }, openrouter: { ignored: true } } });
    });
    expect(keyed.requests[0]?.body).toMatchObject({ top_k: 40 });
    expect(keyed.requests[0]?.body).not.toHaveProperty('ignored');
    await withEnv({ TOGETHER_API_KEY: 'wrong' }, async () => {
      await expect(m.doGenerate({ messages })).rejects.toMatchObject({
        name: 'AuthenticationError',
        provider: 'together',
        message: expect.stringContaining('TOGETHER_API_KEY') as unknown,
      });
    });
  });

  it('sends nothing of another provider’s options: the body is the one sent without them, streaming or not', async () => {
    // What @council/core adds to every call (the simulated provider's council context), and another vendor's fields.
    const others = {
      simulated: { council: { stage: 'review', responses: [{ label: 'Response A', text: 'the secret answer' }] } },
      openrouter: { provider: { sort: 'price' } },
    };
    const providers = [
      createOllama({ baseURL: open.url, maxRetries: 0 }),
      createOpenAICompatible({ name: 'together', baseURL: open.url, maxRetries: 0, env }),
    ];
    const stream = async (iterable: AsyncIterable<unknown>) => {
      for await (const part of iterable) void part;
    };
    for (const provider of providers) {
      await provider('m').doGenerate({ messages, seed: 3 });
      await provider('m').doGenerate({ messages, seed: 3, providerOptions: others });
      await stream(provider('m').doStream!({ messages }));
      await stream(provider('m').doStream!({ messages, providerOptions: others }));
    }
    const bodies = open.requests.map((r) => r.body);
    expect(bodies).toHaveLength(8);
    for (const i of [0, 2, 4, 6]) expect(bodies[i + 1]).toEqual(bodies[i]);
    expect(JSON.stringify(bodies)).not.toMatch(/secret answer|council|sort/);
  });

  it('refuses the name "simulated", whose options namespace carries the council context', () => {
    expect(() => createOpenAICompatible({ name: 'simulated', baseURL: open.url })).toThrow(
      expect.objectContaining({ code: 'INVALID_SETTINGS', message: expect.stringContaining('"simulated"') as unknown }),
    );
  });

  it('vLLM: an error object in the stream ends it with a typed error', async () => {
    open.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      body: 'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"object":"error","message":"The engine is overloaded","type":"ServiceUnavailableError","param":null,"code":503}\n\n',
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const part of createVLLM({ baseURL: open.url, maxRetries: 0 })('m').doStream!({ messages }))
        if (part.type === 'text-delta') seen.push(part.text);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['Hi']);
    expect(error).toMatchObject({
      name: 'APICallError',
      statusCode: 503,
      provider: 'vllm',
      message: expect.stringContaining('The engine is overloaded') as unknown,
    });
  });

  it('rejects bad settings with a message that says what to do', () => {
    expect(() => createOpenAICompatible({ name: 'Bad Name', baseURL: 'http://127.0.0.1:1/v1' })).toThrow(/lower-case/);
    expect(() => createOpenAICompatible({ name: 'nourl' })).toThrow(/needs a baseURL/);
    expect(() => createOpenAICompatible({ name: 'x', baseURL: 'http://127.0.0.1:1', maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
  });
});

describe('llama.cpp', () => {
  it('base URL from LLAMACPP_BASE_URL, the optional LLAMACPP_API_KEY as a bearer token, cost 0', async () => {
    keyed.enqueue({
      kind: 'raw',
      // llama-server's /v1/chat/completions answer shape (timings left out).
      body: '{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"Hello!"}}],"created":1737000000,"model":"qwen3-0.6b","system_fingerprint":"b6000-abc","object":"chat.completion","usage":{"completion_tokens":3,"prompt_tokens":12,"total_tokens":15},"id":"chatcmpl-llama"}',
    });
    const result = await withEnv({ LLAMACPP_BASE_URL: keyed.url, LLAMACPP_API_KEY: 'sk-proj-test' }, () =>
      createLlamaCpp({ maxRetries: 0, env })('qwen3-0.6b').doGenerate({ messages }),
    );
    expect(result).toMatchObject({
      text: 'Hello!',
      usage: { inputTokens: 12, outputTokens: 3, costUsd: 0 },
      responseModelId: 'qwen3-0.6b',
    });
    expect(keyed.requests[0]?.headers.authorization).toBe('Bearer sk-proj-test');
    expect(keyed.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('sends no key when none is set, and names itself llamacpp', async () => {
    const model = createLlamaCpp({ baseURL: open.url, maxRetries: 0 })('qwen3-0.6b');
    expect(model.provider).toBe('llamacpp');
    await model.doGenerate({ messages });
    expect(open.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('default concurrency per local server', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await createOpenAICompatibleTestServer({ respond: () => ({ kind: 'text', text: 'ok', delayMs: 30 }) });
  });
  afterAll(() => slow.close());

  /**
   * Sends `calls` calls at once and counts the ones that had to wait for a slot (the limiter decides that when
   * each call starts, so the count is exact) and the most the server ever had in flight.
   */
  async function load(provider: ProviderV1, calls: number): Promise<{ maxInFlight: number; queued: number }> {
    slow.reset();
    let queued = 0;
    await Promise.all(
      Array.from({ length: calls }, () => provider('m').doGenerate({ messages, onQueued: () => queued++ })),
    );
    return { maxInFlight: slow.maxInFlight, queued };
  }

  it.each([
    ['Ollama', createOllama],
    ['LM Studio', createLMStudio],
    ['llama.cpp', createLlamaCpp],
  ])('%s: one call at a time unless maxConcurrency says otherwise', async (_name, create) => {
    expect(await load(create({ baseURL: slow.url, maxRetries: 0 }), 3)).toEqual({ maxInFlight: 1, queued: 2 });
    const wider = await load(create({ baseURL: slow.url, maxRetries: 0, maxConcurrency: 3 }), 3);
    expect(wider.queued).toBe(0);
    expect(wider.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('vLLM batches: 16 at once by default', async () => {
    const result = await load(createVLLM({ baseURL: slow.url, maxRetries: 0 }), 17);
    expect(result.queued).toBe(1);
    expect(result.maxInFlight).toBeLessThanOrEqual(16);
  });
});
