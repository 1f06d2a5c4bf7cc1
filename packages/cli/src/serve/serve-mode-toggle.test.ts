import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';
import type { ServeClient } from './serve-test-client.js';

const KEY = 'sk-or-v1-MODE-TOGGLE-KEY';
const TOKEN = 'serve-mode-toggle-token-0123456789abcdef';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const QUERY = 'Where should a legacy refactor begin?';
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => provider.close());

/** `council serve`'s server on `home` (under the organization `org` when given), over real HTTP. */
async function withServer<T>(
  options: { home: string; org?: string },
  use: (client: ServeClient) => Promise<T>,
): Promise<T> {
  const env: Record<string, string> = {
    OPENROUTER_BASE_URL: provider.url,
    OPENROUTER_API_KEY: KEY,
    ...(options.org === undefined ? {} : { LLM_COUNCIL_ORG: options.org }),
  };
  const ctx = { ...testContext({ env, home: options.home }).ctx, now: () => new Date() };
  const server = await serveCouncil({
    ctx,
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: null,
    log: () => undefined,
  });
  try {
    return await use(createServeClient({ url: server.url, token: TOKEN }));
  } finally {
    await server.close();
  }
}

function organization(home: string, org: string, yaml: string): void {
  mkdirSync(join(home, 'organizations', org, 'config'), { recursive: true });
  writeFileSync(join(home, 'organizations', org, 'config', 'system-prompts.yaml'), yaml);
}

async function config(client: ServeClient): Promise<{ modeToggle: boolean; defaultMode: string }> {
  const response = await client.get('/api/config');
  expect(response.status).toBe(200);
  return response.json() as { modeToggle: boolean; defaultMode: string };
}

describe('council serve and mode_toggle (design doc §8.1: the Voting/Consensus toggle only where the organization allows it)', () => {
  it('GET /api/config reports the cascade’s mode_toggle: true by default, false from an organization’s file or config.yaml', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-toggle-'));
    organization(home, 'acme', 'mode: voting\nmode_toggle: false\n');
    expect(await withServer({ home }, config)).toMatchObject({ modeToggle: true, defaultMode: 'consensus' });
    expect(await withServer({ home, org: 'acme' }, config)).toMatchObject({ modeToggle: false, defaultMode: 'voting' });
    const own = mkdtempSync(join(tmpdir(), 'council-serve-toggle-own-'));
    writeFileSync(join(own, 'config.yaml'), 'mode_toggle: false\n');
    expect((await withServer({ home: own }, config)).modeToggle).toBe(false);
  });

  it('with mode_toggle: false a session asking for the other mode is refused (400 naming mode_toggle); the fixed mode, asked or not, runs', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-toggle-fixed-'));
    organization(home, 'acme', 'mode: voting\nmode_toggle: false\n');
    await withServer({ home, org: 'acme' }, async (client) => {
      const refused = await client.post('/api/sessions', { query: QUERY, members: MEMBERS, mode: 'consensus' });
      expect(refused.status).toBe(400);
      expect((refused.json() as { error: { message: string } }).error.message).toMatch(
        /^mode: .*"voting".*mode_toggle: false/,
      );
      expect(((await client.get('/api/sessions')).json() as { sessions: unknown[] }).sessions).toEqual([]);
      for (const body of [{ mode: 'voting' }, {}]) {
        const events = await client.events(await client.start({ query: QUERY, members: MEMBERS, ...body }));
        const session = events.find((e) => e.type === 'session')?.data as { session: { config: { mode: string } } };
        expect(session.session.config.mode).toBe('voting');
      }
    });
    // Where the toggle is allowed, the same request runs in the mode it asks for.
    await withServer({ home }, async (client) => {
      const events = await client.events(await client.start({ query: QUERY, members: MEMBERS, mode: 'consensus' }));
      expect(
        (events.find((e) => e.type === 'session')?.data as { session: { config: { mode: string } } }).session.config
          .mode,
      ).toBe('consensus');
    });
  }, 30_000);
});
