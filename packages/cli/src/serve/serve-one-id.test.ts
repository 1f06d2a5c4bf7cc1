import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { configResponseSchema, sessionListSchema, sessionResponseSchema, sessionRunningSchema } from './api-schemas.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';

// Issue 30 item 13: one id per session, from POST /api/sessions's answer to the history, through the real server.

const KEY = 'sk-or-v1-SERVE-ONE-ID-KEY';
const TOKEN = 'serve-one-id-test-token-0123456789abcdef';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => provider.close());

async function start(home: string, env: Record<string, string> = {}) {
  const ctx = testContext({ env: { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY, ...env }, home }).ctx;
  const server = await serveCouncil({
    ctx: { ...ctx, now: () => new Date() },
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: null,
    log: () => undefined,
  });
  return { server, client: createServeClient({ url: server.url, token: TOKEN }) };
}

function historyIds(home: string): string[] {
  return readFileSync(join(home, 'history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { session: { sessionId: string } }).session.sessionId);
}

describe('council serve: one id per session (issue 30 item 13)', () => {
  it('GET /api/sessions/{id} with the id POST returned: 202 while it runs, 200 after, and the history has that id', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-one-id-'));
    const { server, client } = await start(home);
    try {
      // test/hang never answers: the session stays running until it is cancelled.
      const hanging = await client.start({ query: 'Which tests first?', members: [...MEMBERS, 'test/hang'] });
      const during = await client.get(`/api/sessions/${hanging}`);
      expect(during.status).toBe(202);
      expect(sessionRunningSchema.parse(during.json())).toEqual({
        id: hanging,
        running: true,
        events: `/api/sessions/${hanging}/events`,
      });
      const listed = sessionListSchema.parse((await client.get('/api/sessions')).json()).sessions;
      expect(listed.map((s) => [s.id, s.running])).toEqual([[hanging, true]]);
      expect((await client.post(`/api/sessions/${hanging}/cancel`, {})).status).toBe(202);
      await client.events(hanging);
      // Cancelled: nothing saved, so the id is no session at all.
      expect((await client.get(`/api/sessions/${hanging}`)).status).toBe(404);

      const id = await client.start({ query: 'How do I test a legacy module?', members: MEMBERS });
      const events = await client.events(id);
      const streamed = (events.at(-2)!.data as { session: { sessionId: string } }).session.sessionId;
      expect(streamed).toBe(id);
      const after = await client.get(`/api/sessions/${id}`);
      expect(after.status).toBe(200);
      expect(sessionResponseSchema.parse(after.json()).session.sessionId).toBe(id);
      expect(historyIds(home)).toEqual([id]);
      const list = sessionListSchema.parse((await client.get('/api/sessions')).json()).sessions;
      // Listed once, under the same id, no longer running; no second id beside it.
      expect(list.map((s) => [s.id, s.running])).toEqual([[id, false]]);
      expect(JSON.stringify(list)).not.toContain('runId');
    } finally {
      await server.close();
    }
  }, 30_000);

  it('the list titles sessions by their questions and searches them (q); GET gives the question (issue 30 item 5)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-one-id-questions-'));
    const { server, client } = await start(home);
    try {
      const first = await client.start({ query: 'How do I test a legacy module?\nIt is old.', members: MEMBERS });
      await client.events(first);
      const second = await client.start({ query: 'Which module first?', members: MEMBERS, continueFrom: first });
      await client.events(second);
      const list = sessionListSchema.parse((await client.get('/api/sessions')).json()).sessions;
      expect(list.map((s) => [s.id, s.title, s.conversation, s.previousSessionId])).toEqual([
        [second, 'Which module first?', first, first],
        [first, 'How do I test a legacy module?', null, null],
      ]);
      const found = sessionListSchema.parse((await client.get('/api/sessions?q=LEGACY%20test')).json()).sessions;
      expect(found.map((s) => s.id)).toEqual([first]);
      const got = sessionResponseSchema.parse((await client.get(`/api/sessions/${first}`)).json());
      expect(got.question).toBe('How do I test a legacy module?\nIt is old.');
    } finally {
      await server.close();
    }
  }, 30_000);

  it("GET /api/config's persist.biasRecords honours config.yaml's bias_persistence: true (no variable set)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-one-id-config-'));
    writeFileSync(join(home, 'config.yaml'), 'bias_persistence: true\n');
    const { server, client } = await start(home);
    try {
      const config = configResponseSchema.parse((await client.get('/api/config')).json());
      expect(config.persist.biasRecords).toBe(true);
    } finally {
      await server.close();
    }
    const off = mkdtempSync(join(tmpdir(), 'council-one-id-config-off-'));
    const other = await start(off);
    try {
      expect(configResponseSchema.parse((await other.client.get('/api/config')).json()).persist.biasRecords).toBe(
        false,
      );
    } finally {
      await other.server.close();
    }
  }, 30_000);
});
