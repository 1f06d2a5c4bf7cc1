// The fixture itself, against the real model: what any model run through it guarantees (shapes, counts, order,
// grammar-constrained JSON that parses and matches its schema), never the model's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealModelServer } from './real-model-server.js';
import type { RealModelServer } from './real-model-server.js';
import { requireRealModel } from './real-model-test-setup.js';

const slow = 120_000;
let server: RealModelServer;
// A second server: small context, a low cap on generated tokens, and `stream: true` answered in plain JSON.
let smallServer: RealModelServer;

beforeAll(async () => {
  const modelPath = requireRealModel();
  server = await startRealModelServer({ modelPath });
  smallServer = await startRealModelServer({ modelPath, contextSize: 256, maxTokensCap: 8, ignoreStream: true });
}, slow);

afterAll(async () => {
  await server?.close();
  await smallServer?.close();
});

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: { index: number; message: { role: string; content: string }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function post(target: RealModelServer, body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${target.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

async function complete(target: RealModelServer, body: Record<string, unknown>): Promise<Completion> {
  const response = await post(target, body);
  expect(response.status).toBe(200);
  return (await response.json()) as Completion;
}

function dataEvents(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return block.slice('data: '.length);
    });
}

const question = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Why is the sky blue? Answer in two sentences.' },
];

// The grammar admits no end before the string holds 400 characters: the reply is always cut by max_tokens.
const endless = {
  type: 'json_schema',
  json_schema: {
    name: 'endless',
    schema: { type: 'object', properties: { text: { type: 'string', minLength: 400 } } },
  },
};

describe('POST /v1/chat/completions', () => {
  it(
    'answers in the OpenAI shape, echoing any model id, with usage that adds up',
    async () => {
      const body = await complete(server, {
        model: 'any-name-at-all',
        messages: question,
        max_tokens: 64,
        temperature: 0,
      });
      expect(body.object).toBe('chat.completion');
      expect(body.id).toMatch(/^chatcmpl-/);
      expect(body.model).toBe('any-name-at-all');
      expect(body.choices).toHaveLength(1);
      const [choice] = body.choices;
      expect(choice?.index).toBe(0);
      expect(choice?.message.role).toBe('assistant');
      expect(typeof choice?.message.content).toBe('string');
      expect(['stop', 'length']).toContain(choice?.finish_reason);
      expect(body.usage.prompt_tokens).toBeGreaterThan(0);
      expect(body.usage.completion_tokens).toBeGreaterThan(0);
      expect(body.usage.completion_tokens).toBeLessThanOrEqual(64);
      expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    },
    slow,
  );

  it(
    "stops at max_tokens with finish_reason 'length'",
    async () => {
      const body = await complete(server, { messages: question, max_tokens: 6, response_format: endless });
      expect(body.choices[0]?.finish_reason).toBe('length');
      expect(body.usage.completion_tokens).toBe(6);
    },
    slow,
  );

  it(
    'keeps no state between requests: the same greedy request gives the same reply after another one',
    async () => {
      const request = { messages: question, max_tokens: 48, temperature: 0 };
      const first = await complete(server, request);
      await complete(server, {
        messages: [{ role: 'user', content: 'Name three rivers.' }],
        max_tokens: 24,
        temperature: 0,
      });
      const again = await complete(server, request);
      expect(again.choices[0]?.message.content).toBe(first.choices[0]?.message.content);
      expect(again.usage).toEqual(first.usage);
    },
    slow,
  );

  it(
    'streams SSE chunks: the role, content deltas, one finish chunk, the usage chunk, then [DONE]',
    async () => {
      const response = await post(server, {
        model: 'streamer',
        messages: question,
        max_tokens: 40,
        temperature: 0,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const events = dataEvents(await response.text());
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.slice(0, -1).map(
        (e) =>
          JSON.parse(e) as {
            id: string;
            object: string;
            model: string;
            choices: { delta: { role?: string; content?: string | null }; finish_reason: string | null }[];
            usage?: Completion['usage'];
          },
      );
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'streamer')).toBe(true);
      expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
      const usageChunk = chunks.at(-1);
      expect(usageChunk?.choices).toEqual([]);
      const finishChunks = chunks.filter((c) => c.choices[0]?.finish_reason);
      expect(finishChunks).toHaveLength(1);
      expect(chunks.indexOf(finishChunks[0]!)).toBe(chunks.length - 2);
      expect(['stop', 'length']).toContain(finishChunks[0]?.choices[0]?.finish_reason);
      const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      expect(text.length).toBeGreaterThan(0);
      expect(usageChunk?.usage?.completion_tokens).toBeGreaterThan(0);
      expect(usageChunk?.usage?.total_tokens).toBe(
        (usageChunk?.usage?.prompt_tokens ?? 0) + (usageChunk?.usage?.completion_tokens ?? 0),
      );
      // The same greedy request without streaming writes the same text.
      const plain = await complete(server, { messages: question, max_tokens: 40, temperature: 0 });
      expect(text).toBe(plain.choices[0]?.message.content);
    },
    slow,
  );

  it(
    'constrains the output to a json_schema: it parses and matches the schema',
    async () => {
      const labels = ['Response A', 'Response B'];
      const schema = {
        type: 'object',
        properties: {
          evaluations: {
            type: 'array',
            minItems: 2,
            maxItems: 2,
            items: {
              type: 'object',
              properties: {
                response: { type: 'string', enum: labels },
                note: { type: 'string', maxLength: 60 },
                score: { type: 'integer', minimum: 1, maximum: 10 },
              },
              required: ['response', 'note', 'score'],
              additionalProperties: false,
            },
          },
          ranking: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', enum: labels } },
        },
        required: ['evaluations', 'ranking'],
        additionalProperties: false,
      };
      const body = await complete(server, {
        messages: [
          { role: 'system', content: 'You review answers and reply in JSON.' },
          {
            role: 'user',
            content:
              'Question: what is 2 + 2?\nResponse A: 4.\nResponse B: 5.\nScore each response from 1 to 10 and rank them.',
          },
        ],
        max_tokens: 400,
        temperature: 0.8,
        seed: 7,
        response_format: { type: 'json_schema', json_schema: { name: 'review', strict: true, schema } },
      });
      expect(body.choices[0]?.finish_reason).toBe('stop');
      const value = JSON.parse(body.choices[0]?.message.content ?? '') as Record<string, unknown>;
      expect(Object.keys(value).sort()).toEqual(['evaluations', 'ranking']);
      const evaluations = value.evaluations as Record<string, unknown>[];
      expect(evaluations).toHaveLength(2);
      for (const evaluation of evaluations) {
        expect(Object.keys(evaluation).sort()).toEqual(['note', 'response', 'score']);
        expect(labels).toContain(evaluation.response);
        expect(typeof evaluation.note).toBe('string');
        expect((evaluation.note as string).length).toBeLessThanOrEqual(60);
        expect(Number.isInteger(evaluation.score)).toBe(true);
        expect(evaluation.score).toBeGreaterThanOrEqual(1);
        expect(evaluation.score).toBeLessThanOrEqual(10);
      }
      const ranking = value.ranking as unknown[];
      expect(ranking).toHaveLength(2);
      for (const label of ranking) expect(labels).toContain(label);
    },
    slow,
  );

  it(
    'constrains the output to JSON for json_object',
    async () => {
      const body = await complete(server, {
        messages: [
          { role: 'user', content: 'Reply with a JSON object whose key "capital" holds the capital of France.' },
        ],
        max_tokens: 200,
        temperature: 0,
        response_format: { type: 'json_object' },
      });
      expect(body.choices[0]?.finish_reason).toBe('stop');
      const value: unknown = JSON.parse(body.choices[0]?.message.content ?? '');
      expect(typeof value).toBe('object');
    },
    slow,
  );

  it('refuses a schema it cannot turn into a grammar with a 400 naming response_format', async () => {
    const response = await post(server, {
      messages: question,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', schema: { type: 'string', pattern: '^[0-9]+$' } },
      },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('response_format');
  });

  it('refuses a prompt longer than the context with llama.cpp’s 400', async () => {
    const response = await post(smallServer, { messages: [{ role: 'user', content: 'word '.repeat(400) }] });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; n_ctx: number; n_prompt_tokens: number } };
    expect(body.error.message).toContain('the request exceeds the available context size');
    expect(body.error.n_ctx).toBe(256);
    expect(body.error.n_prompt_tokens).toBeGreaterThan(256);
  });

  it(
    'caps generated tokens at maxTokensCap whatever max_tokens asks, and answers stream: true in plain JSON when told to',
    async () => {
      const response = await post(smallServer, {
        messages: question,
        max_tokens: 100,
        stream: true,
        response_format: endless,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = (await response.json()) as Completion;
      expect(body.object).toBe('chat.completion');
      expect(body.choices[0]?.finish_reason).toBe('length');
      expect(body.usage.completion_tokens).toBe(8);
    },
    slow,
  );

  it('rejects a request without messages', async () => {
    const response = await post(server, { model: 'x' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});

describe('one slot', () => {
  it(
    'runs one generation at a time, in arrival order: each starts after the one before it finished',
    async () => {
      const before = server.stats().length;
      const replies = await Promise.all(
        ['first', 'second', 'third'].map((model) =>
          complete(server, { model, messages: question, max_tokens: 12, response_format: endless }),
        ),
      );
      expect(replies.map((r) => r.usage.completion_tokens)).toEqual([12, 12, 12]);
      const stats = server
        .stats()
        .slice(before)
        .sort((a, b) => a.order.queued - b.order.queued);
      expect(stats).toHaveLength(3);
      for (let i = 1; i < stats.length; i++) {
        expect(stats[i]!.order.started).toBeGreaterThan(stats[i - 1]!.order.finished);
      }
      for (const s of stats) {
        expect(s.promptTokens).toBeGreaterThan(0);
        expect(s.generatedTokens).toBe(12);
        expect(s.prefillMs).toBeGreaterThan(0);
        expect(s.generationMs).toBeGreaterThan(0);
        expect(s.queueWaitMs).toBeGreaterThanOrEqual(0);
      }
    },
    slow,
  );

  it(
    'stops a generation whose client left, so the next request gets the slot',
    async () => {
      const before = server.stats().length;
      const controller = new AbortController();
      const response = await post(
        server,
        { model: 'leaver', messages: question, max_tokens: 500, stream: true, response_format: endless },
        controller.signal,
      );
      const reader = response.body!.getReader();
      await reader.read(); // the role chunk: the generation has started
      controller.abort();
      await reader.cancel().catch(() => undefined);
      const next = await complete(server, { model: 'next', messages: question, max_tokens: 4 });
      expect(next.usage.completion_tokens).toBeLessThanOrEqual(4);
      const stats = server.stats().slice(before);
      const left = stats.find((s) => s.model === 'leaver');
      expect(left?.finishReason).toBe('aborted');
      expect(left?.generatedTokens).toBeLessThan(500);
      expect(left!.order.finished).toBeLessThan(stats.find((s) => s.model === 'next')!.order.started);
    },
    slow,
  );
});

describe('GET endpoints', () => {
  it('lists the model, reports health and the requests’ stats in snake_case', async () => {
    const models = (await (await fetch(`${server.baseURL}/models`)).json()) as {
      object: string;
      data: { id: string; object: string }[];
    };
    expect(models.object).toBe('list');
    expect(models.data).toHaveLength(1);
    expect(models.data[0]?.object).toBe('model');
    expect(((await (await fetch(`http://127.0.0.1:${server.port}/health`)).json()) as { status: string }).status).toBe(
      'ok',
    );
    const stats = (await (await fetch(`http://127.0.0.1:${server.port}/stats`)).json()) as {
      requests: Record<string, unknown>[];
    };
    expect(stats.requests).toHaveLength(server.stats().length);
    expect(Object.keys(stats.requests[0] ?? {})).toEqual(
      expect.arrayContaining(['queue_wait_ms', 'prompt_tokens', 'prefill_ms', 'generated_tokens', 'generation_ms']),
    );
  });
});
