import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { CONTENT_SECURITY_POLICY } from './create-serve-app.js';
import { serveCouncil } from './serve-council.js';
import type { CouncilServer } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';
import type { ServeClient } from './serve-test-client.js';
import { webAssets } from './web-assets.js';

const CANARY_KEY = 'sk-or-CANARY-KEY-5e0d1c2b';
const CANARY_QUERY = 'CANARY-QUERY-7f3a';
const TOKEN = 'serve-security-test-token-0123456789';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let provider: TestServer;
let server: CouncilServer;
let client: ServeClient;
const log: string[] = [];

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: CANARY_KEY });
  const home = mkdtempSync(join(tmpdir(), 'council-serve-security-'));
  const { ctx } = testContext({
    env: { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: CANARY_KEY, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' },
    home,
  });
  server = await serveCouncil({
    ctx: { ...ctx, now: () => new Date() },
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: webAssets(),
    log: (l) => log.push(l),
  });
  client = createServeClient({ url: server.url, token: TOKEN });
});
afterAll(async () => {
  await server.close();
  await provider.close();
});

/** A request with headers fetch will not set (Host), over node:http. */
function raw(options: {
  path: string;
  method?: string;
  headers: Record<string, string>;
}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const API = [
  '/api/config',
  '/api/sessions',
  '/api/leaderboard',
  '/api/bias-report',
  '/api/contributions',
  '/api/openapi.json',
];

describe('council serve is safe on localhost (issue 16)', () => {
  it('refuses every API call without the token or with a wrong one (401), with the error body', async () => {
    for (const path of API) {
      const none = await fetch(`${server.url}${path}`);
      expect(none.status, path).toBe(401);
      expect(await none.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
      // Same length, other characters: the constant-time comparison itself decides.
      const wrong = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${TOKEN.replace(/.$/, 'X')}` },
      });
      expect(wrong.status, path).toBe(401);
    }
    const post = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      body: JSON.stringify({ query: 'x', members: MEMBERS }),
    });
    expect(post.status).toBe(401);
    expect((await client.get('/api/config')).status).toBe(200);
  });

  it('refuses a rebinding Host (403) on the API and the page, and a foreign Origin (403); its own origin passes', async () => {
    const evil = await raw({
      path: '/api/config',
      headers: { host: `evil.example:${server.port}`, authorization: `Bearer ${TOKEN}` },
    });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await raw({ path: '/', headers: { host: `evil.example:${server.port}` } })).status).toBe(403);
    expect((await raw({ path: '/', headers: { host: `localhost:${server.port}` } })).status).toBe(200);
    const foreign = await client.request('/api/config', { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    const foreignPost = await client.request('/api/sessions', {
      method: 'POST',
      body: JSON.stringify({ query: 'x', members: MEMBERS }),
      headers: { origin: `http://evil.example:${server.port}` },
    });
    expect(foreignPost.status).toBe(403);
    expect((await client.request('/api/config', { headers: { origin: server.url } })).status).toBe(200);
  });

  it('sends no CORS header, even to a preflight', async () => {
    const responses = [
      await client.get('/api/config'),
      await client.request('/api/sessions', {
        method: 'OPTIONS',
        headers: { origin: server.url, 'access-control-request-method': 'POST' },
      }),
      await client.request('/api/config', { headers: { origin: 'http://evil.example' } }),
    ];
    for (const r of responses) expect([...r.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses a body over 1 MiB (413), invalid JSON and bad fields (400 naming the field)', async () => {
    const big = await client.post('/api/sessions', { query: 'x'.repeat(2 * 1024 * 1024), members: MEMBERS });
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'TOO_LARGE' } });
    const notJson = await client.request('/api/sessions', {
      method: 'POST',
      body: '{"query": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json()).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const simple = await client.request('/api/sessions', {
        method: 'POST',
        body: JSON.stringify({ query: 'x', members: MEMBERS }),
        headers: type === undefined ? {} : { 'content-type': type },
      });
      expect(simple.status, String(type)).toBe(415);
      expect(simple.json()).toEqual({
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Send the session as JSON, with "Content-Type: application/json".',
        },
      });
    }
    const cases: [Record<string, unknown>, string][] = [
      [{ query: '' }, 'query'],
      [{ query: 'x', mode: 'loud' }, 'mode'],
      [{ query: 'x', members: ['a', 7] }, 'members.1'],
      [{ query: 'x', seed: 1.5 }, 'seed'],
      [{ query: 'x', colour: 'red' }, 'colour'],
      [{ query: 'x'.repeat(100_001) }, 'query'],
    ];
    for (const [body, field] of cases) {
      const r = await client.post('/api/sessions', body);
      expect(r.status, field).toBe(400);
      const error = (r.json() as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message, field).toContain(field);
    }
    const list = await client.get('/api/sessions?limit=zero');
    expect(list.status).toBe(400);
    expect(list.text).toContain('limit');
    const date = await client.get('/api/sessions?from=last-week');
    expect(date.status).toBe(400);
    expect(date.text).toContain('from');
  });

  it('sets nosniff, no-referrer and the CSP on every response, refusals and event streams included; the API no-store', async () => {
    const id = await client.start({ query: 'Which queue should we use?', members: MEMBERS });
    const events = await fetch(`${server.url}/api/sessions/${id}/events`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    await events.text();
    const header = (r: { headers: Headers }) => (name: string) => r.headers.get(name);
    const rawHeader = (r: { headers: Record<string, unknown> }) => (name: string) =>
      r.headers[name] as string | undefined;
    const responses: [string, (name: string) => string | null | undefined, boolean][] = [
      ['config', header(await client.get('/api/config')), true],
      ['events', header(events), true],
      ['unknown API path', header(await client.get('/api/nothing')), true],
      ['no token', header(await fetch(`${server.url}/api/config`)), true],
      [
        'rebinding Host',
        rawHeader(
          await raw({
            path: '/api/config',
            headers: { host: `evil.example:${server.port}`, authorization: `Bearer ${TOKEN}` },
          }),
        ),
        false,
      ],
      ['page', rawHeader(await raw({ path: '/', headers: { host: `127.0.0.1:${server.port}` } })), false],
    ];
    for (const [name, get, api] of responses) {
      expect(get('x-content-type-options'), name).toBe('nosniff');
      expect(get('referrer-policy'), name).toBe('no-referrer');
      expect(get('content-security-policy'), name).toBe(CONTENT_SECURITY_POLICY);
      if (api) expect(get('cache-control'), name).toBe('no-store');
    }
  });

  it('counts a body sent without a length (chunked): over 1 MiB 413, a small one is read and validated', async () => {
    const chunked = (text: string, pieces: number) => {
      const bytes = new TextEncoder().encode(text);
      const size = Math.ceil(bytes.length / pieces);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.subarray(i, i + size));
          controller.close();
        },
      });
      return fetch(`${server.url}/api/sessions`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      });
    };
    const big = await chunked(JSON.stringify({ query: 'x'.repeat(2 * 1024 * 1024), members: MEMBERS }), 64);
    expect(big.headers.get('content-length')).not.toBeNull();
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'TOO_LARGE' } });
    const small = await chunked(JSON.stringify({ query: '', members: MEMBERS }), 3);
    expect(small.status).toBe(400);
    expect(((await small.json()) as { error: { message: string } }).error.message).toMatch(/^query/);
  });

  it('never puts the query or the key in a response other than the run’s answers and the history’s own view, nor in the log', async () => {
    const id = await client.start({ query: `${CANARY_QUERY}: how do I test a legacy module?`, members: MEMBERS });
    const events = await client.events(id);
    expect(events.at(-1)!.data).toEqual({ status: 'finished' });
    // A failing session too: every member is refused, so the run ends with an error event.
    const failedId = await client.start({ query: `${CANARY_QUERY} PLEASE-FAIL`, members: MEMBERS });
    const failed = await client.events(failedId);
    expect(failed.map((e) => e.type).slice(-2)).toEqual(['error', 'done']);
    const sessionId = (events.at(-2)!.data as { session: { sessionId: string } }).session.sessionId;
    // The history is the user's own (issue 30 item 5): its list titles the session by the question, and the session
    // itself carries it. Nothing else does.
    const history = ['/api/sessions', `/api/sessions/${sessionId}`];
    for (const path of history) expect((await client.get(path)).text, path).toContain(CANARY_QUERY);
    const bodies = [
      ...(await Promise.all(
        [...API.filter((p) => !history.includes(p)), '/api/bias-report?last=5', '/api/contributions?last=5'].map(
          async (path) => `${path}: ${(await client.get(path)).text}`,
        ),
      )),
      ...events.filter((e) => e.type !== 'answer').map((e) => JSON.stringify(e)),
      ...failed.map((e) => JSON.stringify(e)),
      (await client.get('/')).text,
    ];
    for (const body of bodies) {
      expect(body).not.toContain(CANARY_QUERY);
      expect(body).not.toContain(CANARY_KEY);
    }
    for (const e of events) expect(JSON.stringify(e)).not.toContain(CANARY_KEY);
    expect(log.length).toBeGreaterThan(0);
    for (const line of log) {
      expect(line).not.toContain(CANARY_QUERY);
      expect(line).not.toContain(CANARY_KEY);
    }
  }, 30_000);
});
