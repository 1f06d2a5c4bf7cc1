import { mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsk } from '../commands/ask-command.js';
import type { AskCommandOptions, AskHooks } from '../commands/ask-command.js';
import type { CommandContext } from '../command-context.js';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { createServeApp } from './create-serve-app.js';
import { createSessionHub } from './session-hub.js';
import type { SessionHub } from './session-hub.js';
import { createServeClient } from './serve-test-client.js';
import type { ServeClient } from './serve-test-client.js';

const KEY = 'sk-or-v1-SESSION-HUB-KEY';
const TOKEN = 'session-hub-test-token-0123456789abcdef';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const QUERY = 'Where should a legacy refactor begin?';
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => provider.close());

function context(home: string, env: Record<string, string> = {}): CommandContext {
  return {
    ...testContext({
      env: { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_BIAS_PERSISTENCE: 'true', ...env },
      home,
    }).ctx,
    now: () => new Date(),
  };
}

function lines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

type RunAsk = (options: AskCommandOptions, ctx: CommandContext, hooks: AskHooks) => ReturnType<typeof runAsk>;

/** The hub behind the real HTTP app on 127.0.0.1, with `runAsk` as given (the real one, wrapped by a test). */
async function serve(
  ctx: CommandContext,
  wrap: RunAsk = runAsk,
): Promise<{ hub: SessionHub; client: ServeClient; close: () => Promise<void> }> {
  const hub = createSessionHub({ ctx, log: () => undefined, runAsk: wrap });
  let port = 0;
  const app = createServeApp({
    hub,
    ctx,
    host: '127.0.0.1',
    port: () => port,
    token: TOKEN,
    demo: false,
    assets: null,
    log: () => undefined,
  });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    hub,
    client: createServeClient({ url: `http://127.0.0.1:${port}`, token: TOKEN }),
    close: async () => {
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a cancel against the save (the council has finished; the session is about to be saved)', () => {
  it('a cancel accepted once the council finished but before saving began: 202, the run ends cancelled, nothing is saved', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-hub-early-'));
    let cancel: { status: number; text: string } | undefined;
    // The cancel is sent, and answered, after the council produced its session and before the hub's save hook.
    const wrapped: RunAsk = (options, ctx, hooks) =>
      runAsk(options, ctx, {
        ...hooks,
        beforeSave: async (session) => {
          const [run] = served.hub.runs();
          cancel = await served.client.post(`/api/sessions/${run!.id}/cancel`, {});
          await hooks.beforeSave!(session);
        },
      });
    const served = await serve(context(home), wrapped);
    const { client } = served;
    try {
      const id = await client.start({ query: QUERY, members: MEMBERS });
      const events = await client.events(id);
      expect(cancel?.status).toBe(202);
      expect(events.map((e) => e.type).slice(-2)).toEqual(['cancelled', 'done']);
      expect(events.at(-1)!.data).toEqual({ status: 'cancelled' });
      expect(events.map((e) => e.type)).not.toContain('session');
      expect(served.hub.get(id)?.status).toBe('cancelled');
      expect(lines(join(home, 'history.jsonl'))).toEqual([]);
      expect(lines(join(home, 'bias_metrics.jsonl'))).toEqual([]);
      expect(lines(join(home, 'contributions.jsonl'))).toEqual([]);
    } finally {
      await served.close();
    }
  }, 30_000);

  it('a cancel once saving has begun: 409 CONFLICT, and the run is saved and ends finished', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-hub-late-'));
    let cancel: { status: number; text: string } | undefined;
    const wrapped: RunAsk = (options, ctx, hooks) =>
      runAsk(options, ctx, {
        ...hooks,
        beforeSave: async (session) => {
          await hooks.beforeSave!(session);
          const [run] = served.hub.runs();
          expect(run!.saving).toBe(true);
          cancel = await served.client.post(`/api/sessions/${run!.id}/cancel`, {});
        },
      });
    const served = await serve(context(home), wrapped);
    const { client } = served;
    try {
      const id = await client.start({ query: QUERY, members: MEMBERS });
      const events = await client.events(id);
      expect(cancel?.status).toBe(409);
      expect(JSON.parse(cancel!.text)).toEqual({
        error: {
          code: 'CONFLICT',
          message: `Session run "${id}" has finished and is being saved; it can no longer be cancelled.`,
        },
      });
      expect(events.map((e) => e.type).slice(-2)).toEqual(['session', 'done']);
      expect(events.at(-1)!.data).toEqual({ status: 'finished' });
      const history = lines(join(home, 'history.jsonl'));
      expect(history).toHaveLength(1);
      expect((JSON.parse(history[0]!) as { session: { sessionId: string } }).session.sessionId).toBe(
        served.hub.get(id)?.sessionId,
      );
      expect(lines(join(home, 'bias_metrics.jsonl')).length).toBeGreaterThan(0);
    } finally {
      await served.close();
    }
  }, 30_000);
});
