import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { errorBodySchema, sessionResponseSchema } from './api-schemas.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';

// Issue 30 items 5 and 15 through `council serve`: POST /api/sessions takes what `council ask` takes for one run — a
// system prompt, a temperature, and not keeping the question — checked on the wire (the bodies the OpenRouter-style
// test server received) and in the history file, through the real server on 127.0.0.1.

const KEY = 'sk-or-v1-SERVE-RUN-OPTIONS-KEY';
const TOKEN = 'serve-run-options-test-token-0123456789ab';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => provider.close());

interface Body {
  model: string;
  temperature?: number;
  messages: { role: string; content: string }[];
}

async function withServer<T>(run: (client: ReturnType<typeof createServeClient>, home: string) => Promise<T>) {
  const home = mkdtempSync(join(tmpdir(), 'council-serve-run-options-'));
  const ctx = testContext({ env: { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY }, home }).ctx;
  const server = await serveCouncil({
    ctx: { ...ctx, now: () => new Date() },
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: null,
    log: () => undefined,
  });
  try {
    return await run(createServeClient({ url: server.url, token: TOKEN }), home);
  } finally {
    await server.close();
  }
}

describe('POST /api/sessions: system, temperature and keepQuestion (issue 30 items 5 and 15)', () => {
  it("sends the system prompt before each member's question and the temperature in every call", async () => {
    await withServer(async (client) => {
      const before = provider.requests.length;
      const id = await client.start({
        query: 'Which sort is stable?',
        members: MEMBERS,
        system: 'Answer in one sentence.',
        temperature: 0.3,
      });
      const events = await client.events(id);
      expect(events.at(-1)?.data).toEqual({ status: 'finished' });
      const bodies = provider.requests.slice(before).map((r) => r.body as Body);
      const answers = bodies.filter((b) => b.messages.at(-1)?.content === 'Which sort is stable?');
      expect(answers.map((b) => b.model).sort()).toEqual(MEMBERS);
      for (const body of answers)
        expect(body.messages).toEqual([
          { role: 'system', content: 'Answer in one sentence.' },
          { role: 'user', content: 'Which sort is stable?' },
        ]);
      // Three answers, three reviews, one synthesis.
      expect(bodies).toHaveLength(7);
      for (const body of bodies) expect(body.temperature).toBe(0.3);
    });
  }, 30_000);

  it('keepQuestion: false saves the session without its question', async () => {
    await withServer(async (client, home) => {
      const id = await client.start({
        query: 'Rotate the CANARY-SERVE-31 keys?',
        members: MEMBERS,
        keepQuestion: false,
      });
      await client.events(id);
      expect(readFileSync(join(home, 'history.jsonl'), 'utf8')).not.toContain('CANARY-SERVE-31');
      const got = sessionResponseSchema.parse((await client.get(`/api/sessions/${id}`)).json());
      expect(got.session.sessionId).toBe(id);
      expect(got.question).toBeNull();
      // Left out, the history keeps it (history_questions defaults to true).
      const kept = await client.start({ query: 'Which queue should we use?', members: MEMBERS });
      await client.events(kept);
      expect(sessionResponseSchema.parse((await client.get(`/api/sessions/${kept}`)).json()).question).toBe(
        'Which queue should we use?',
      );
    });
  }, 30_000);

  it('refuses a bad value with a 400 that names the field and what to send, before any model is called', async () => {
    await withServer(async (client) => {
      const before = provider.requests.length;
      const cases: [Record<string, unknown>, string][] = [
        [{ temperature: 3 }, 'temperature: temperature must be from 0 to 2, e.g. 0.2'],
        [{ temperature: -0.1 }, 'temperature: temperature must be from 0 to 2, e.g. 0.2'],
        [{ temperature: 'warm' }, 'temperature: temperature must be a number from 0 to 2, e.g. 0.2'],
        [{ system: '' }, 'system: system is empty: leave it out for no system prompt'],
        [{ keepQuestion: 'no' }, 'keepQuestion: keepQuestion must be true or false'],
      ];
      for (const [extra, message] of cases) {
        const r = await client.post('/api/sessions', { query: 'Which sort?', members: MEMBERS, ...extra });
        expect(r.status, JSON.stringify(extra)).toBe(400);
        expect(errorBodySchema.parse(r.json()).error).toEqual({ code: 'INVALID_INPUT', message });
      }
      expect(provider.requests.length).toBe(before);
      // The OpenAPI document says the same.
      const openApi = (await client.get('/api/openapi.json')).json() as {
        components: { schemas: { SessionRequest: { properties: Record<string, Record<string, unknown>> } } };
      };
      const properties = openApi.components.schemas.SessionRequest.properties;
      expect(properties['temperature']).toMatchObject({ type: 'number', minimum: 0, maximum: 2 });
      expect(properties['system']).toMatchObject({ type: 'string', minLength: 1 });
      expect(properties['keepQuestion']).toMatchObject({ type: 'boolean' });
    });
  });
});
