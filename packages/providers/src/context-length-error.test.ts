import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import { ContextLengthError } from './context-length-error.js';
import { createGemini } from './gemini-provider.js';
import { isContextLengthExceeded } from './is-context-length-exceeded.js';
import type { LanguageModelV1 } from './language-model-v1.js';
import { createOllama } from './ollama-provider.js';
import { createOpenAICompatible } from './openai-compatible-provider.js';
import { createOpenAI } from './openai-provider.js';
import { createVLLM } from './vllm-provider.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createGeminiTestServer } from './test/create-gemini-test-server.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import type { TestServer } from './test/start-test-server.js';

const KEY = 'sk-context-test-key-789';
let openAI: TestServer;
let anthropicServer: TestServer;
let geminiServer: TestServer;
beforeAll(async () => {
  [openAI, anthropicServer, geminiServer] = await Promise.all([
    createOpenAICompatibleTestServer(),
    createAnthropicTestServer(),
    createGeminiTestServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([openAI.close(), anthropicServer.close(), geminiServer.close()]);
});

const messages = [{ role: 'user' as const, content: 'A very long review prompt' }];
// maxRetries 2: a context-length error must still be sent once only.
const settings = { apiKey: KEY, maxRetries: 2 };

/** Each server's own words for a prompt that is too long (their documented or observed error bodies). */
const cases: Array<{
  name: string;
  server: () => TestServer;
  model: () => LanguageModelV1;
  body: string;
  quote: string;
  advice: RegExp;
}> = [
  {
    name: 'OpenAI',
    server: () => openAI,
    model: () => createOpenAI({ ...settings, baseURL: openAI.url })('gpt-4o'),
    body: '{"error":{"message":"This model\'s maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
    quote: "This model's maximum context length is 8192 tokens.",
    advice: /longer context; or use fewer council members/,
  },
  {
    name: 'llama.cpp server',
    server: () => openAI,
    model: () => createOpenAICompatible({ ...settings, name: 'llamacpp', baseURL: openAI.url })('qwen'),
    body: '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}',
    quote: 'the request exceeds the available context size',
    advice: /-c \/ --ctx-size/,
  },
  {
    name: 'vLLM',
    server: () => openAI,
    model: () => createVLLM({ ...settings, baseURL: openAI.url })('Qwen/Qwen3-8B'),
    body: '{"object":"error","message":"The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.","type":"BadRequestError","param":null,"code":400}',
    quote: 'is longer than the maximum model length of 4096',
    advice: /--max-model-len/,
  },
  {
    name: 'Ollama',
    server: () => openAI,
    model: () => createOllama({ ...settings, baseURL: openAI.url })('llama3.2'),
    body: '{"error":{"message":"input length exceeds maximum context length","type":"api_error","param":null,"code":null}}',
    quote: 'input length exceeds maximum context length',
    advice: /num_ctx parameter, or OLLAMA_CONTEXT_LENGTH/,
  },
  {
    name: 'Anthropic',
    server: () => anthropicServer,
    model: () => createAnthropic({ ...settings, baseURL: anthropicServer.url })('claude-opus-4-6'),
    body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208000 tokens > 200000 maximum"}}',
    quote: 'prompt is too long: 208000 tokens > 200000 maximum',
    advice: /longer context; or use fewer council members/,
  },
  {
    name: 'Gemini',
    server: () => geminiServer,
    model: () => createGemini({ ...settings, baseURL: geminiServer.url })('gemini-2.5-flash'),
    body: '{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
    quote: 'exceeds the maximum number of tokens allowed (1048576)',
    advice: /longer context; or use fewer council members/,
  },
];

describe('a prompt longer than the context window', () => {
  it.each(cases)(
    '$name: a ContextLengthError that quotes the server and says what to do, sent once',
    async ({ server, model, body, quote, advice }) => {
      server().reset();
      server().enqueue({ kind: 'raw', status: 400, body });
      const error = await model()
        .doGenerate({ messages })
        .catch((e: unknown) => e);
      expect(ContextLengthError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'CONTEXT_LENGTH_EXCEEDED', statusCode: 400, isRetryable: false });
      const { message } = error as Error;
      expect(message).toContain('context window');
      expect(message).toContain(quote);
      expect(message).toMatch(advice);
      expect(message).toContain("the review prompt holds every member's answer");
      expect(message).not.toContain(KEY);
      expect(server().requests).toHaveLength(1);
    },
  );

  it('is recognised in a stream request too', async () => {
    openAI.reset();
    openAI.enqueue({ kind: 'raw', status: 400, body: cases[0]!.body });
    const stream = createOpenAI({ ...settings, baseURL: openAI.url })('gpt-4o').doStream!({ messages });
    await expect(
      (async () => {
        for await (const part of stream) void part;
      })(),
    ).rejects.toMatchObject({ code: 'CONTEXT_LENGTH_EXCEEDED' });
  });

  it('leaves other 400s alone', async () => {
    openAI.reset();
    openAI.enqueue({ kind: 'error', status: 400, message: "Invalid value for 'temperature': must be at most 2." });
    await expect(
      createOpenAI({ ...settings, baseURL: openAI.url })('gpt-4o').doGenerate({ messages }),
    ).rejects.toMatchObject({ code: 'API_CALL', statusCode: 400 });
  });
});

describe('isContextLengthExceeded', () => {
  it.each([
    [400, "Requested token count exceeds the model's maximum context length of 131072 tokens"],
    [400, 'Your input exceeds the context window of this model'],
    [
      400,
      'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again',
    ],
    [
      400,
      'Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.',
    ],
    [413, '{"error":{"code":"context_length_exceeded"}}'],
  ])('HTTP %i "%s": yes', (statusCode, text) => {
    expect(isContextLengthExceeded({ statusCode, text })).toBe(true);
  });

  it.each([
    [400, 'messages must not be empty'],
    [500, "This model's maximum context length is 8192 tokens"],
    [429, 'prompt is too long'],
    [400, 'n_ctx_slot is busy'],
  ])('HTTP %i "%s": no', (statusCode, text) => {
    expect(isContextLengthExceeded({ statusCode, text })).toBe(false);
  });
});
