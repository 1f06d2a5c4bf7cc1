import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// Servers as they are (issue 26): a llama.cpp-style server that answers one call at a time, slowly, and a proxy that
// answers a streamed request with plain JSON. The members are `llamacpp:` models, so Council's queue for the endpoint
// (one call at a time by default for llamacpp) is what is tested; the server plays the council by model id.
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma', 'test/delta'];
const ids = MEMBERS.map((m) => `llamacpp:${m}`);
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ask(args: string[], options: { config?: string } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-local-'));
  if (options.config !== undefined) writeFileSync(join(home, 'config.yaml'), options.config);
  const c = captureIo({ tty: false });
  const env = { LLAMACPP_BASE_URL: server!.url, LLM_COUNCIL_HOME: home };
  const code = await runCli(
    ['ask', 'How do I test a legacy module?', '--models', ids.join(','), '--no-persist', ...args],
    { version: '1.2.3', io: c.io, env, cwd: home },
  );
  return { code, out: c.out(), err: c.err() };
}

describe('ask against a local one-slot server', () => {
  it('queues the calls for the endpoint, one at a time, and no call times out while it waits', async () => {
    // Each reply takes 1 s; the deadline is 3.5 s a call (2.5 s to spare on a loaded machine). Four answers one after
    // another take 4 s, so a deadline that ran while a call waited its turn would time out the fourth member.
    server = await startCouncilTestServer({ contributors: MEMBERS, delayMs: 1000 });
    const r = await ask(['--timeout', '3.5s', '--json']);
    expect(r.err).not.toMatch(/timed out|timeout/i);
    expect(r.code).toBe(0);
    expect(server.maxInFlight).toBe(1);
    const session = JSON.parse(r.out) as {
      complete: boolean;
      excluded: unknown[];
      stage1: Array<{ text: string | null }>;
      stage2: Array<{ readPath: string }>;
      leaderboard: unknown[];
    };
    expect(session.complete).toBe(true);
    expect(session.excluded).toEqual([]);
    expect(session.stage1.every((a) => a.text !== null)).toBe(true);
    expect(session.stage2.map((s) => s.readPath)).toEqual(['structured', 'structured', 'structured', 'structured']);
    expect(session.leaderboard).toHaveLength(4);
    // 4 answers + 4 reviews + 1 chairman, all sent one at a time.
    expect(server.requests).toHaveLength(9);
  }, 60_000);

  it('sends as many calls at once as --concurrency or config.yaml providers.llamacpp.max_concurrency allow', async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS, delayMs: 300 });
    expect((await ask(['--concurrency', '2'])).code).toBe(0);
    expect(server.maxInFlight).toBe(2);
    server.reset();
    expect((await ask([], { config: 'providers:\n  llamacpp:\n    max_concurrency: 4\n' })).code).toBe(0);
    expect(server.maxInFlight).toBe(4);
    server.reset();
    // The flag wins over the file.
    expect(
      (await ask(['--concurrency', '1'], { config: 'providers:\n  llamacpp:\n    max_concurrency: 4\n' })).code,
    ).toBe(0);
    expect(server.maxInFlight).toBe(1);
  }, 60_000);

  it('reads a plain JSON reply to the streamed synthesis as the whole answer', async () => {
    server = await startCouncilTestServer({
      contributors: MEMBERS,
      ignoreStream: true,
      chairman: { text: 'Start with characterisation tests.' },
    });
    const r = await ask([]);
    // Text mode streams the chairman: the request asked to stream and got application/json.
    const chairman = server.requests.at(-1)!;
    expect(chairman.stream).toBe(true);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Start with characterisation tests.');
    expect(r.out).not.toContain('No synthesis');
    expect(r.err).not.toContain('broke off');
  }, 60_000);

  it('rejects a --concurrency outside 1 to 256, naming the flag', async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS });
    const r = await ask(['--concurrency', '0']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--concurrency');
    expect(server.requests).toHaveLength(0);
  });
});
