import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import { createGemini } from './gemini-provider.js';
import { toGeminiSchema } from './gemini-schema.js';
import type { LanguageModelV1, ResponseFormat, StreamPart } from './language-model-v1.js';
import { createOllama } from './ollama-provider.js';
import { createOpenAI } from './openai-provider.js';
import { createOpenRouter } from './openrouter-provider.js';
import { StructuredOutputUnsupportedError } from './structured-output-unsupported-error.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createGeminiTestServer } from './test/create-gemini-test-server.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer } from './test/start-test-server.js';

const KEY = 'sk-structured-test-key-321';
let openAI: TestServer;
let openRouter: TestServer;
let anthropicServer: TestServer;
let geminiServer: TestServer;
beforeAll(async () => {
  [openAI, openRouter, anthropicServer, geminiServer] = await Promise.all([
    createOpenAICompatibleTestServer(),
    createOpenRouterTestServer(),
    createAnthropicTestServer(),
    createGeminiTestServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([openAI.close(), openRouter.close(), anthropicServer.close(), geminiServer.close()]);
});
afterEach(() => {
  for (const server of [openAI, openRouter, anthropicServer, geminiServer]) server.reset();
});

const messages = [{ role: 'user' as const, content: 'Rank responses A and B.' }];

/** A review schema of the shape the council's stage 2 sends. */
const schema = {
  type: 'object',
  additionalProperties: false,
  description: 'A ranking of the responses',
  properties: {
    ranking: { type: 'array', items: { type: 'string', enum: ['A', 'B'] }, minItems: 2, maxItems: 2 },
    scores: {
      type: 'object',
      additionalProperties: false,
      properties: { A: { type: 'integer', minimum: 1, maximum: 10 }, B: { type: 'integer', minimum: 1, maximum: 10 } },
      required: ['A', 'B'],
    },
    note: { type: ['string', 'null'], description: 'Anything else' },
  },
  required: ['ranking', 'scores', 'note'],
};
const responseFormat: ResponseFormat = {
  type: 'json',
  name: 'council_review',
  schema,
  description: 'The review of the responses',
};
const answer = '{"ranking":["B","A"],"scores":{"A":6,"B":8},"note":null}';

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const p of stream) parts.push(p);
  return parts;
}

const textOf = (parts: StreamPart[]): string => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');

describe('structured output: OpenAI-compatible servers', () => {
  it('sends response_format json_schema (strict) and reads the JSON answer, as JSON and as a stream', async () => {
    const model = createOpenAI({ baseURL: openAI.url, apiKey: KEY, maxRetries: 0 })('gpt-4o');
    expect(model.supportsStructuredOutput).toBe(true);
    openAI.enqueue({ kind: 'text', text: answer }, { kind: 'text', text: answer, chunkSize: 7 });
    expect((await model.doGenerate({ messages, responseFormat })).text).toBe(answer);
    expect(textOf(await collect(model.doStream!({ messages, responseFormat })))).toBe(answer);
    // OpenAI's documented field: { type: 'json_schema', json_schema: { name, description, schema, strict } }.
    const expected = {
      type: 'json_schema',
      json_schema: { name: 'council_review', description: 'The review of the responses', schema, strict: true },
    };
    expect(openAI.requests.map((r) => (r.body as Record<string, unknown>).response_format)).toEqual([
      expected,
      expected,
    ]);
  });

  it('leaves description out when the format has none, and sends nothing without a responseFormat', async () => {
    const model = createOllama({ baseURL: openAI.url })('llama3.2');
    expect(model.supportsStructuredOutput).toBe(true);
    openAI.enqueue({ kind: 'text', text: answer }, { kind: 'text', text: 'plain' });
    await model.doGenerate({ messages, responseFormat: { type: 'json', name: 'r', schema: { type: 'object' } } });
    await model.doGenerate({ messages });
    expect((openAI.requests[0]?.body as Record<string, unknown>).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'r', schema: { type: 'object' }, strict: true },
    });
    expect(openAI.requests[1]?.body).not.toHaveProperty('response_format');
  });

  it('OpenRouter: sends response_format beside its own fields', async () => {
    const model = createOpenRouter({ baseURL: openRouter.url, apiKey: KEY })('openai/gpt-4o');
    openRouter.enqueue({ kind: 'text', text: answer });
    expect((await model.doGenerate({ messages, responseFormat })).text).toBe(answer);
    expect(openRouter.requests[0]?.body).toMatchObject({
      usage: { include: true },
      response_format: { type: 'json_schema', json_schema: { name: 'council_review', strict: true } },
    });
  });
});

describe('structured output: Anthropic', () => {
  const model = () => createAnthropic({ baseURL: anthropicServer.url, apiKey: KEY, maxRetries: 0 })('claude-opus-4-6');

  it('forces one tool whose input_schema is the schema, and answers with its input as JSON', async () => {
    expect(model().supportsStructuredOutput).toBe(true);
    anthropicServer.enqueue({
      kind: 'raw',
      // A forced tool_use reply as the Messages API documents it (input is an object, stop_reason tool_use).
      body: '{"id":"msg_01Aq9w938a90dw8q","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"council_review","input":{"ranking": ["B", "A"], "scores": {"A": 6, "B": 8}, "note": null}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":89}}',
    });
    const result = await model().doGenerate({ messages, responseFormat });
    expect(result).toMatchObject({ text: answer, finishReason: 'stop', usage: { inputTokens: 472, outputTokens: 89 } });
    expect(anthropicServer.requests[0]?.body).toMatchObject({
      tools: [{ name: 'council_review', description: 'The review of the responses', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'council_review' },
    });
  });

  it('streams: gathers the input_json_delta pieces into one text-delta of the JSON', async () => {
    const ev = (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`;
    anthropicServer.enqueue({
      kind: 'raw',
      headers: { 'content-type': 'text/event-stream' },
      // The documented tool-use stream: content_block_start (tool_use, input {}), input_json_delta pieces, stop.
      body: [
        ev(
          'message_start',
          '{"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-opus-4-6","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2}}}',
        ),
        ev(
          'content_block_start',
          '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"council_review","input":{}}}',
        ),
        ev(
          'content_block_delta',
          '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}',
        ),
        ev(
          'content_block_delta',
          '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"ranking\\": [\\"B\\","}}',
        ),
        ev(
          'content_block_delta',
          '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" \\"A\\"], \\"scores\\": {\\"A\\": 6, \\"B\\": 8}, \\"note\\": null}"}}',
        ),
        ev('content_block_stop', '{"type":"content_block_stop","index":0}'),
        ev(
          'message_delta',
          '{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}',
        ),
        ev('message_stop', '{"type":"message_stop"}'),
      ].join(''),
    });
    expect(await collect(model().doStream!({ messages, responseFormat }))).toEqual([
      { type: 'text-delta', text: answer },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 472, outputTokens: 89 },
        responseId: 'msg_014p7gG3wDgGV9EUtLvnow3U',
        responseModelId: 'claude-opus-4-6',
      },
    ]);
  });

  it('streams: passes a tool input cut off by max_tokens on as sent, and reads a block the stream never closed', async () => {
    const ev = (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`;
    const start = ev(
      'message_start',
      '{"type":"message_start","message":{"id":"msg_cut","model":"claude-opus-4-6","usage":{"input_tokens":10,"output_tokens":1}}}',
    );
    const tool = ev(
      'content_block_start',
      '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"council_review","input":{}}}',
    );
    const piece = (json: string) =>
      ev(
        'content_block_delta',
        JSON.stringify({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: json },
        }),
      );
    const end = (reason: string) =>
      ev('message_delta', `{"type":"message_delta","delta":{"stop_reason":"${reason}"},"usage":{"output_tokens":16}}`) +
      ev('message_stop', '{"type":"message_stop"}');
    anthropicServer.enqueue(
      {
        kind: 'raw',
        headers: { 'content-type': 'text/event-stream' },
        body:
          start +
          tool +
          piece('{"ranking": ["B",') +
          ev('content_block_stop', '{"type":"content_block_stop","index":0}') +
          end('max_tokens'),
      },
      {
        kind: 'raw',
        headers: { 'content-type': 'text/event-stream' },
        body: start + tool + piece('{"ranking": ') + piece('["B", "A"]}') + end('tool_use'),
      },
    );
    const cut = await collect(model().doStream!({ messages, responseFormat }));
    expect(cut[0]).toEqual({ type: 'text-delta', text: '{"ranking": ["B",' });
    expect(cut[1]).toMatchObject({ type: 'finish', finishReason: 'length' });
    const unclosed = await collect(model().doStream!({ messages, responseFormat }));
    expect(unclosed[0]).toEqual({ type: 'text-delta', text: '{"ranking":["B","A"]}' });
    expect(unclosed[1]).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('the test server plays the same tool_use exchange', async () => {
    anthropicServer.enqueue({ kind: 'text', text: answer }, { kind: 'text', text: answer, chunkSize: 5 });
    expect((await model().doGenerate({ messages, responseFormat })).text).toBe(answer);
    expect(textOf(await collect(model().doStream!({ messages, responseFormat })))).toBe(answer);
  });
});

describe('structured output: Gemini', () => {
  const model = () => createGemini({ baseURL: geminiServer.url, apiKey: KEY, maxRetries: 0 })('gemini-2.5-flash');

  it('sends responseMimeType application/json and the schema in Gemini’s form', async () => {
    expect(model().supportsStructuredOutput).toBe(true);
    geminiServer.enqueue({ kind: 'text', text: answer }, { kind: 'text', text: answer, chunkSize: 9 });
    expect((await model().doGenerate({ messages, responseFormat, temperature: 0 })).text).toBe(answer);
    expect(textOf(await collect(model().doStream!({ messages, responseFormat })))).toBe(answer);
    // Converted by hand from `schema`: upper-case types, additionalProperties dropped, ["string","null"] as
    // nullable, property order kept, minItems/maxItems as int64 strings.
    const responseSchema = {
      type: 'OBJECT',
      description: 'A ranking of the responses',
      properties: {
        ranking: { type: 'ARRAY', items: { type: 'STRING', enum: ['A', 'B'] }, minItems: '2', maxItems: '2' },
        scores: {
          type: 'OBJECT',
          properties: {
            A: { type: 'INTEGER', minimum: 1, maximum: 10 },
            B: { type: 'INTEGER', minimum: 1, maximum: 10 },
          },
          propertyOrdering: ['A', 'B'],
          required: ['A', 'B'],
        },
        note: { type: 'STRING', nullable: true, description: 'Anything else' },
      },
      propertyOrdering: ['ranking', 'scores', 'note'],
      required: ['ranking', 'scores', 'note'],
    };
    expect(geminiServer.requests[0]?.body).toMatchObject({
      generationConfig: { temperature: 0, responseMimeType: 'application/json', responseSchema },
    });
    expect((geminiServer.requests[1]?.body as { generationConfig: unknown }).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema,
    });
  });

  it('leaves out a number enum (Gemini’s enums are strings) and anything outside its subset', () => {
    expect(
      toGeminiSchema({
        type: 'integer',
        enum: [1, 2, 3],
        minimum: 1,
        maximum: 3,
        pattern: '^x$',
        additionalProperties: false,
      }),
    ).toEqual({ type: 'INTEGER', minimum: 1, maximum: 3 });
  });
});

/** Each vendor's refusal of structured output, as its server words it. */
const refusals: Array<{
  name: string;
  server: () => TestServer;
  model: (modelId?: string) => LanguageModelV1;
  status: number;
  message: string;
}> = [
  {
    name: 'llama.cpp behind the OpenAI-compatible API',
    server: () => openAI,
    model: (modelId = 'qwen') => createOllama({ baseURL: openAI.url, maxRetries: 2, maxConcurrency: 1 })(modelId),
    status: 400,
    message: "Unsupported response_format type 'json_schema'",
  },
  {
    name: 'Anthropic',
    server: () => anthropicServer,
    model: (modelId = 'claude-opus-4-6') =>
      createAnthropic({ baseURL: anthropicServer.url, apiKey: KEY, maxRetries: 2, maxConcurrency: 1 })(modelId),
    status: 400,
    // With the key echoed, as some proxies do: it must not reach the error.
    message: `Thinking may not be enabled when tool_choice forces tool use. (x-api-key ${KEY})`,
  },
  {
    name: 'Gemini',
    server: () => geminiServer,
    // Gemini names its field, not "format" or "schema".
    model: (modelId = 'gemini-1.0-pro') =>
      createGemini({ baseURL: geminiServer.url, apiKey: KEY, maxRetries: 2, maxConcurrency: 1 })(modelId),
    status: 400,
    message: 'response_mime_type application/json is not supported for this model.',
  },
];

describe('a server that refuses structured output', () => {
  it.each(refusals)(
    '$name: StructuredOutputUnsupportedError, remembered per endpoint and model, other calls untouched',
    async ({ server, model, status, message }) => {
      const first = model();
      server().enqueue({ kind: 'error', status, message });
      const error = await first.doGenerate({ messages, responseFormat }).catch((e: unknown) => e);
      expect(StructuredOutputUnsupportedError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'STRUCTURED_OUTPUT_UNSUPPORTED',
        statusCode: status,
        isRetryable: false,
        remembered: false,
        modelId: first.modelId,
      });
      expect((error as Error).message).toContain(first.provider);
      expect((error as Error).message).toContain(first.modelId);
      expect((error as Error).message).toContain('falls back to text reviews');
      expect((error as Error).message).not.toContain(KEY);
      expect(JSON.stringify((error as { responseBody?: string }).responseBody ?? '')).not.toContain(KEY);
      expect(server().requests).toHaveLength(1); // not retried

      // Later calls to the same endpoint and model (another model object of the same provider instance too) fail at once.
      const again = await first.doGenerate({ messages, responseFormat }).catch((e: unknown) => e);
      expect(again).toMatchObject({ code: 'STRUCTURED_OUTPUT_UNSUPPORTED', remembered: true, statusCode: status });
      await expect(collect(first.doStream!({ messages, responseFormat }))).rejects.toMatchObject({
        code: 'STRUCTURED_OUTPUT_UNSUPPORTED',
        remembered: true,
      });
      expect(server().requests).toHaveLength(1);

      // Without responseFormat the model is still asked.
      server().enqueue({ kind: 'text', text: 'free text' });
      expect((await first.doGenerate({ messages })).text).toBe('free text');
      expect(server().requests).toHaveLength(2);
    },
  );

  it('remembers for the process: a new provider instance for the same endpoint and model does not ask again', async () => {
    openAI.enqueue({ kind: 'error', status: 400, message: "Unsupported response_format type 'json_schema'" });
    const before = openAI.requests.length;
    await expect(
      createOllama({ baseURL: openAI.url, maxRetries: 0 })('per-process').doGenerate({ messages, responseFormat }),
    ).rejects.toMatchObject({ remembered: false });
    await expect(
      createOllama({ baseURL: openAI.url, maxRetries: 0 })('per-process').doGenerate({ messages, responseFormat }),
    ).rejects.toMatchObject({ remembered: true });
    expect(openAI.requests.length - before).toBe(1);
  });

  it('remembers by model: another model of the same server is still asked', async () => {
    const local = createOllama({ baseURL: openAI.url, maxRetries: 0 });
    openAI.enqueue(
      { kind: 'error', status: 400, message: "Unsupported response_format type 'json_schema'" },
      { kind: 'text', text: answer },
    );
    await expect(local('small').doGenerate({ messages, responseFormat })).rejects.toMatchObject({
      code: 'STRUCTURED_OUTPUT_UNSUPPORTED',
    });
    expect((await local('large').doGenerate({ messages, responseFormat })).text).toBe(answer);
    expect(openAI.requests.map((r) => r.model)).toEqual(['small', 'large']);
  });

  it('fails a call that waited in the queue while another was refused, without a request', async () => {
    const model = createOllama({ baseURL: openAI.url, maxRetries: 0, maxConcurrency: 1 })('queued');
    openAI.enqueue({ kind: 'error', status: 501, message: 'json_schema grammar sampling is not implemented' });
    const results = await Promise.allSettled([
      model.doGenerate({ messages, responseFormat }),
      model.doGenerate({ messages, responseFormat }),
    ]);
    expect(
      results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string; remembered: boolean }) : undefined)),
    ).toMatchObject([
      { code: 'STRUCTURED_OUTPUT_UNSUPPORTED', remembered: false },
      { code: 'STRUCTURED_OUTPUT_UNSUPPORTED', remembered: true },
    ]);
    expect(openAI.requests).toHaveLength(1);
  });

  it('keeps other failures of a structured request as they were', async () => {
    const model = createOllama({ baseURL: openAI.url, maxRetries: 0 })('other');
    openAI.enqueue(
      { kind: 'error', status: 400, message: "Invalid value for 'temperature': must be at most 2." },
      { kind: 'error', status: 404, message: 'model "other" not found, try pulling it first' },
      { kind: 'text', text: answer },
    );
    await expect(model.doGenerate({ messages, responseFormat })).rejects.toMatchObject({
      code: 'API_CALL',
      statusCode: 400,
    });
    await expect(model.doGenerate({ messages, responseFormat })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    // Neither was remembered as a refusal: the next structured call is sent.
    expect((await model.doGenerate({ messages, responseFormat })).text).toBe(answer);
    expect(openAI.requests).toHaveLength(3);
  });

  it('reads the same 400 of a request without responseFormat as a plain API error', async () => {
    openAI.enqueue({ kind: 'error', status: 400, message: "Unsupported response_format type 'json_schema'" });
    await expect(
      createOllama({ baseURL: openAI.url, maxRetries: 0 })('plain').doGenerate({ messages }),
    ).rejects.toMatchObject({ code: 'API_CALL', statusCode: 400 });
  });
});
