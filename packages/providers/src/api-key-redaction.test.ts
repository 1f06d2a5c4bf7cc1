import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAnthropic } from './anthropic-provider.js';
import { createGemini } from './gemini-provider.js';
import type { LanguageModelV1 } from './language-model-v1.js';
import { createOpenAI } from './openai-provider.js';
import { createOpenRouter } from './openrouter-provider.js';
import { createAnthropicTestServer } from './test/create-anthropic-test-server.js';
import { createGeminiTestServer } from './test/create-gemini-test-server.js';
import { createOpenAICompatibleTestServer } from './test/create-openai-compatible-test-server.js';
import { createOpenRouterTestServer } from './test/create-openrouter-test-server.js';
import type { TestServer, TestServerOptions } from './test/start-test-server.js';
import type { TestResponse } from './test/test-response.js';

const CANARY = `sk-canary-${randomBytes(12).toString('hex')}`;
const ENV = ['OPENROUTER_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY'] as const;
/** The environment handed to the providers (they never read the process's): every key variable holds the canary. */
const env: Record<string, string> = Object.fromEntries(ENV.map((k) => [k, CANARY]));

/** Everything reachable from a value: own properties (enumerable or not, symbols too), causes, and util.inspect's view. */
function serialise(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || typeof value !== 'object') return String(value);
  if (seen.has(value)) return '';
  seen.add(value);
  const parts = [inspect(value, { depth: 8, showHidden: true, getters: true })];
  if (value instanceof Error) parts.push(value.message, value.stack ?? '');
  for (const key of Reflect.ownKeys(value)) {
    const v = (value as Record<PropertyKey, unknown>)[key];
    parts.push(String(key), serialise(v, seen));
  }
  try {
    parts.push(JSON.stringify(value) ?? '');
  } catch {
    // circular: the walk above already covered it
  }
  return parts.join('\n');
}

type Vendor = {
  name: string;
  start: (o: TestServerOptions) => Promise<TestServer>;
  make: (url: string) => LanguageModelV1;
};
const vendors: Vendor[] = [
  {
    name: 'openrouter',
    start: createOpenRouterTestServer,
    make: (url) =>
      createOpenRouter({ baseURL: url, env, maxRetries: 1, retry: { initialDelayMs: 1, maxDelayMs: 2 } })('x/y'),
  },
  {
    name: 'openai',
    start: createOpenAICompatibleTestServer,
    make: (url) =>
      createOpenAI({ baseURL: url, env, maxRetries: 1, retry: { initialDelayMs: 1, maxDelayMs: 2 } })('gpt-5'),
  },
  {
    name: 'anthropic',
    start: createAnthropicTestServer,
    make: (url) =>
      createAnthropic({ baseURL: url, env, maxRetries: 1, retry: { initialDelayMs: 1, maxDelayMs: 2 } })(
        'claude-opus-4-6',
      ),
  },
  {
    name: 'gemini',
    start: createGeminiTestServer,
    make: (url) =>
      createGemini({ baseURL: url, env, maxRetries: 1, retry: { initialDelayMs: 1, maxDelayMs: 2 } })(
        'gemini-2.5-flash',
      ),
  },
];

const responseFormat = {
  type: 'json' as const,
  name: 'answer',
  schema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
};

const scenarios: Array<{ name: string; response: TestResponse; stream?: boolean; structured?: boolean }> = [
  { name: 'success', response: { kind: 'text', text: 'fine' } },
  { name: 'stream', response: { kind: 'text', text: 'fine', reasoning: 'why' }, stream: true },
  { name: '402', response: { kind: 'error', status: 402, message: `no credits for key ${CANARY}` } },
  { name: '404', response: { kind: 'error', status: 404, message: 'No endpoints found' } },
  { name: '429', response: { kind: 'error', status: 429, message: 'slow', headers: { 'retry-after': '0' } } },
  { name: '500', response: { kind: 'error', status: 500, message: `internal error while handling ${CANARY}` } },
  { name: '529', response: { kind: 'error', status: 529, message: 'Overloaded' } },
  { name: 'in-body', response: { kind: 'error', status: 403, message: `forbidden: ${CANARY}`, inBody: true } },
  { name: 'malformed', response: { kind: 'raw', body: `{"echo": "${CANARY}", ` } },
  {
    name: 'wrong-shape',
    response: { kind: 'raw', body: JSON.stringify({ choices: 'x', content: 'x', candidates: 'x', echo: CANARY }) },
  },
  { name: 'truncated', response: { kind: 'truncated', body: '{"id":' } },
  { name: 'reset', response: { kind: 'reset' } },
  { name: 'hang', response: { kind: 'hang' } },
  {
    name: 'mid-stream',
    response: { kind: 'text', text: 'part', midStreamError: { message: `stream died ${CANARY}`, code: 502 } },
    stream: true,
  },
  {
    name: 'empty-reasoning',
    response: {
      kind: 'text',
      text: '',
      reasoning: 'r',
      finishReason: 'length',
      usage: { inputTokens: 1, outputTokens: 9, reasoningTokens: 9 },
    },
  },
  {
    name: 'context-length',
    response: {
      kind: 'error',
      status: 400,
      message: `prompt is too long for key ${CANARY}: maximum context length is 10 tokens`,
    },
  },
  { name: 'structured', response: { kind: 'text', text: '{"a":1}' }, structured: true },
  // Last: the refusal is remembered, so the structured calls after it would send nothing.
  {
    name: 'structured-refused',
    response: { kind: 'error', status: 400, message: `response_format json_schema is not supported (key ${CANARY})` },
    structured: true,
  },
  { name: 'structured-remembered', response: { kind: 'text', text: '{"a":1}' }, structured: true },
];

const produced: string[] = [];
const servers: TestServer[] = [];
const logged: string[] = [];

beforeAll(() => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) => void logged.push(args.map((a) => serialise(a)).join(' ')),
    );
  }
  const capture = (stream: NodeJS.WriteStream) => {
    const original = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    });
  };
  capture(process.stdout);
  capture(process.stderr);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.map((s) => s.close()));
});

describe('API keys never leak', () => {
  it.each(vendors)('$name: no error, result, stream part or log line contains the key', async (vendor) => {
    let current: TestResponse = { kind: 'text', text: 'fine' };
    const server = await vendor.start({ apiKey: CANARY, respond: () => current });
    const wrongKeyServer = await vendor.start({ apiKey: 'a-different-key' });
    servers.push(server, wrongKeyServer);
    const model = vendor.make(server.url);
    for (const scenario of scenarios) {
      current = scenario.response;
      try {
        const options = {
          messages: [{ role: 'user' as const, content: 'q' }],
          timeoutMs: 300,
          ...(scenario.structured ? { responseFormat } : {}),
        };
        if (scenario.stream) {
          for await (const part of model.doStream!(options)) produced.push(serialise(part));
        } else {
          produced.push(serialise(await model.doGenerate(options)));
        }
      } catch (error) {
        produced.push(serialise(error));
      }
    }
    // The server echoes the wrong key it received; the error must not carry it.
    for (const stream of [false, true]) {
      try {
        if (stream)
          for await (const part of vendor.make(wrongKeyServer.url).doStream!({
            messages: [{ role: 'user', content: 'q' }],
          }))
            produced.push(serialise(part));
        else await vendor.make(wrongKeyServer.url).doGenerate({ messages: [{ role: 'user', content: 'q' }] });
      } catch (error) {
        expect((error as { name?: string }).name).toBe('AuthenticationError');
        expect((error as { responseBody?: string }).responseBody).toContain('[REDACTED]');
        produced.push(serialise(error));
      }
    }
    // The test means something: the key did travel to the servers, in the vendor's header.
    const sent = [...server.requests, ...wrongKeyServer.requests].map((r) => JSON.stringify(r.headers));
    expect(sent.filter((h) => h.includes(CANARY)).length).toBeGreaterThanOrEqual(scenarios.length);
    const everything = [...produced, ...logged].join('\n');
    expect(everything.length).toBeGreaterThan(10_000);
    expect(everything.includes(CANARY)).toBe(false);
  });
});

describe('credentials in a base URL never leak (issue 27)', () => {
  const USER_CANARY = `user-canary-${randomBytes(6).toString('hex')}`;
  const QUERY_CANARY = `query-canary-${randomBytes(6).toString('hex')}`;
  const withCredentials = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.protocol}//someone:${USER_CANARY}@${parsed.host}${parsed.pathname}?key=${QUERY_CANARY}`;
  };
  const options = { messages: [{ role: 'user' as const, content: 'q' }], timeoutMs: 2_000 };

  async function outcome(model: LanguageModelV1, stream: boolean): Promise<{ text: string; error: unknown }> {
    try {
      if (stream) {
        const parts: string[] = [];
        for await (const part of model.doStream!(options)) parts.push(serialise(part));
        return { text: parts.join('\n'), error: undefined };
      }
      return { text: serialise(await model.doGenerate(options)), error: undefined };
    } catch (error) {
      return { text: serialise(error), error };
    }
  }

  it.each(vendors)(
    '$name: a server that quotes the URL it was sent in its 404 gets the key and password into no error',
    async (vendor) => {
      // A proxy's 404 quoting the request line, as many servers do: "No route for POST <path and query>".
      const server = await vendor.start({
        respond: (request) => ({ kind: 'error', status: 404, message: `No route for POST ${request.path}` }),
      });
      servers.push(server);
      for (const model of [
        vendor.make(withCredentials(server.url)),
        vendor.make(`${server.url}?key=${QUERY_CANARY}`),
      ]) {
        for (const stream of [false, true]) {
          const { text, error } = await outcome(model, stream);
          expect(error, text).toBeDefined();
          expect(text).not.toContain(USER_CANARY);
          expect(text).not.toContain(QUERY_CANARY);
          expect(text).not.toContain(CANARY);
        }
      }
      // The test means something: the key went out in the query string, and came back quoted in the 404's body.
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
      for (const request of server.requests) expect(request.path).toContain(`key=${QUERY_CANARY}`);
    },
  );

  it.each(vendors)(
    '$name: a working server gets the query string after the endpoint path, and no result carries it',
    async (vendor) => {
      const server = await vendor.start({ apiKey: CANARY, respond: () => ({ kind: 'text', text: 'fine' }) });
      servers.push(server);
      const keyOnly = vendor.make(`${server.url}?key=${QUERY_CANARY}`);
      for (const stream of [false, true]) {
        const { text, error } = await outcome(keyOnly, stream);
        expect(error, text).toBeUndefined();
        expect(text).not.toContain(QUERY_CANARY);
      }
      // The key reached the server where the base URL put it: after the endpoint's path (and Gemini's own alt=sse).
      for (const request of server.requests)
        expect(request.path).toMatch(
          new RegExp(`^${new URL(server.url).pathname}/[^?]+\\?(alt=sse&)?key=${QUERY_CANARY}$`),
        );
    },
  );

  it.each(vendors)(
    '$name: a user name and password in the base URL are sent as Basic authentication, or refused in a clear error when the key takes that header',
    async (vendor) => {
      const server = await vendor.start({ respond: () => ({ kind: 'text', text: 'fine' }) });
      servers.push(server);
      const model = vendor.make(withCredentials(server.url));
      const { text, error } = await outcome(model, false);
      expect(text).not.toContain(USER_CANARY);
      expect(text).not.toContain(QUERY_CANARY);
      if (vendor.name === 'openrouter' || vendor.name === 'openai') {
        // These send the API key as "Authorization: Bearer": a request cannot also carry Basic credentials.
        expect((error as { code?: string }).code).toBe('INVALID_SETTINGS');
        expect((error as Error).message).toMatch(
          /holds a user name and password, which would be sent as HTTP Basic authentication, but .* sends its API key in the Authorization header/,
        );
        expect((error as Error).message).toContain(`?key=[REDACTED]`);
        expect(server.requests).toHaveLength(0);
      } else {
        expect(error, text).toBeUndefined();
        expect(server.requests[0]!.headers.authorization).toBe(
          `Basic ${Buffer.from(`someone:${USER_CANARY}`).toString('base64')}`,
        );
      }
    },
  );
});
