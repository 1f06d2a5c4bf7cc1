import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { errorBodySchema, sessionResponseSchema } from './api-schemas.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';

// Issue 32 through `council serve`: POST /api/sessions takes a verdict mode and evidence text, as `council ask
// --verdict --evidence` does, with the same secret scan before any model is called.

const KEY = 'sk-or-v1-SERVE-VERDICT-KEY';
const TOKEN = 'serve-verdict-test-token-0123456789abcdef';
const MEMBERS = ['test/approve-a', 'test/approve-b', 'test/reject-c'];
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: [], apiKey: KEY });
});
afterAll(() => provider.close());

async function withServer<T>(run: (client: ReturnType<typeof createServeClient>) => Promise<T>, configYaml?: string) {
  const home = mkdtempSync(join(tmpdir(), 'council-serve-verdict-'));
  if (configYaml !== undefined) writeFileSync(join(home, 'config.yaml'), configYaml);
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
    return await run(createServeClient({ url: server.url, token: TOKEN }));
  } finally {
    await server.close();
  }
}

// Built from pieces, so no scanner mistakes this file for a leak.
const planted = ['sk', 'proj', 'PLANTEDserve7Lp2Xv9Rt4W'].join('-');

describe("GET /api/config: the configured verdict, for the page's Verdict choice", () => {
  it("is null without config.yaml's verdict, and that verdict with one", async () => {
    const config = (client: ReturnType<typeof createServeClient>) =>
      client.get('/api/config').then((r) => (r.json() as { defaultVerdict: unknown }).defaultVerdict);
    expect(await withServer(config)).toBeNull();
    expect(await withServer(config, 'verdict: tie-breaker\n')).toBe('tie-breaker');
  }, 30_000);
});

describe('POST /api/sessions: verdict and evidence (issue 32)', () => {
  it('runs a jury over the evidence and stores its verdict with the session', async () => {
    await withServer(async (client) => {
      const before = provider.requests.length;
      const id = await client.start({
        query: 'Merge this change?',
        members: MEMBERS,
        verdict: 'binary',
        evidence: [{ name: 'change.diff', text: '+SERVE-EVIDENCE-LINE\n' }],
      });
      const events = await client.events(id);
      expect(events.at(-1)?.data).toEqual({ status: 'finished' });
      const sent = provider.requests.slice(before).map((r) => JSON.stringify(r.body));
      // Three answers, three reviews and a synthesis: every one carries the evidence.
      expect(sent).toHaveLength(7);
      for (const body of sent) expect(body).toContain('SERVE-EVIDENCE-LINE');
      const got = sessionResponseSchema.parse((await client.get(`/api/sessions/${id}`)).json());
      const session = got.session as unknown as {
        verdict: { decision: string; votes: { member: string; decision: string }[] };
        evidence: { name: string; chars: number }[];
      };
      // Two approvals weigh at least 1 + 1.5 against a reject of at most 2: approve.
      expect(session.verdict.decision).toBe('approve');
      expect(session.verdict.votes.map((v) => [v.member, v.decision])).toEqual([
        ['test/approve-a', 'approve'],
        ['test/approve-b', 'approve'],
        ['test/reject-c', 'reject'],
      ]);
      expect(session.evidence).toMatchObject([{ name: 'change.diff', chars: 21 }]);
    });
  }, 30_000);

  it('refuses evidence with a secret (400, naming item and line, never the secret) before any model is called', async () => {
    await withServer(async (client) => {
      const before = provider.requests.length;
      const r = await client.post('/api/sessions', {
        query: 'Merge this change?',
        members: MEMBERS,
        verdict: 'binary',
        evidence: [{ name: 'config.ts', text: `const a = 1;\nconst key = "${planted}";\n` }],
      });
      expect(r.status).toBe(400);
      const error = errorBodySchema.parse(r.json()).error;
      expect(error.message).toContain('config.ts:2:14: an OpenAI API key (sk-…)');
      expect(r.text).not.toContain('PLANTED');
      expect(provider.requests.length).toBe(before);
    });
  }, 30_000);

  it('redacts instead with redactSecrets, and refuses a bad verdict with a 400 naming the field', async () => {
    await withServer(async (client) => {
      const before = provider.requests.length;
      const id = await client.start({
        query: 'Merge this change?',
        members: MEMBERS,
        verdict: 'tie-breaker',
        redactSecrets: true,
        evidence: [{ name: 'config.ts', text: `const key = "${planted}";\n` }],
      });
      await client.events(id);
      const sent = provider.requests.slice(before).map((q) => JSON.stringify(q.body));
      for (const body of sent) expect(body).not.toContain('PLANTED');
      expect(sent.some((body) => body.includes('[REDACTED openai-key]'))).toBe(true);
      const bad = await client.post('/api/sessions', { query: 'q', members: MEMBERS, verdict: 'maybe' });
      expect(bad.status).toBe(400);
      expect(errorBodySchema.parse(bad.json()).error.message).toMatch(/^verdict: /);
    });
  }, 30_000);
});
