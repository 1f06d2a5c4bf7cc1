// Issue 27: one council-size cap, MAX_COUNCIL_MEMBERS of @council/core (32), for ask, batch, serve and MCP alike;
// before it, the CLI took 5,000 members while serve stopped at 50 and MCP at 32.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_COUNCIL_MEMBERS } from '@council/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCouncilMcpServer } from './mcp/create-council-mcp-server.js';
import { runCli } from './run-cli.js';
import { serveCouncil } from './serve/serve-council.js';
import { createServeClient } from './serve/serve-test-client.js';
import { captureIo, testContext } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

const KEY = 'sk-or-v1-CAP-TEST-KEY';
const TOKEN = 'cap-test-serve-token-0123456789abcdef';
/** 33 distinct members: one over the documented cap of 32. */
const OVER = Array.from({ length: 33 }, (_, i) => `test/m${i + 1}`);
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: OVER, apiKey: KEY });
});
afterAll(() => server.close());

function home(): { home: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'council-cap-'));
  // A pool of 40 models: a pool counts as the models it holds.
  writeFileSync(
    join(dir, 'config.yaml'),
    `pools:\n  big: [${Array.from({ length: 40 }, (_, i) => `test/p${i + 1}`).join(', ')}]\n`,
  );
  writeFileSync(join(dir, 'prompts.txt'), 'How do I test a legacy module?\n');
  return { home: dir, env: { LLM_COUNCIL_HOME: dir, OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY } };
}

async function cli(args: string[]) {
  const { home: dir, env } = home();
  const c = captureIo();
  const code = await runCli(args, { version: '1.2.3', io: c.io, env, cwd: dir });
  return { code, out: c.out(), err: c.err() };
}

const capLine = (count: number, source: string) =>
  `council: A council has at most 32 members (got ${count} from ${source}, pools counted as their models). Every reviewer reads every member's answer, so the reviews grow with the square of the council: choose at most 32.\n`;

describe('the council-size cap, the same everywhere (issue 27)', () => {
  it('is 32', () => {
    expect(MAX_COUNCIL_MEMBERS).toBe(32);
  });

  it('council ask and batch: 33 members, or a pool of 40, are a usage error naming the cap, before any model is called', async () => {
    const before = server.requests.length;
    for (const [args, count, source] of [
      [['ask', 'q?', '--models', OVER.join(',')], 33, '--models'],
      [['ask', 'q?', '--models', '@big'], 40, '--models'],
      [['batch', 'prompts.txt', '--models', OVER.join(',')], 33, '--models'],
      [['batch', 'prompts.txt', '--models', '@big,test/x'], 41, '--models'],
    ] as const) {
      const r = await cli([...args]);
      expect([r.code, r.err, r.out]).toEqual([2, capLine(count, source), '']);
    }
    expect(server.requests.length).toBe(before);
  });

  it('council serve: 33 members in the request, or a pool of 40, are a 400 naming the cap', async () => {
    const { home: dir, env } = home();
    const ctx = { ...testContext({ env, home: dir }).ctx, now: () => new Date() };
    const served = await serveCouncil({
      ctx,
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: null,
      log: () => undefined,
    });
    try {
      const client = createServeClient({ url: served.url, token: TOKEN });
      const listed = await client.post('/api/sessions', { query: 'q?', members: OVER });
      expect(listed.status).toBe(400);
      expect(listed.text).toContain('a council has at most 32 members');
      const pooled = await client.post('/api/sessions', { query: 'q?', members: ['@big'] });
      expect(pooled.status).toBe(400);
      expect((pooled.json() as { error: { message: string } }).error.message).toBe(
        capLine(40, 'members').slice('council: '.length, -1),
      );
    } finally {
      await served.close();
    }
  });

  it('council mcp: consult_council with 33 members, or a pool of 40, is a tool error naming the cap', async () => {
    const { home: dir, env } = home();
    const t = testContext({ env, home: dir });
    const mcp = createCouncilMcpServer({ ctx: t.ctx, log: () => undefined });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'cap-test', version: '1.0.0' });
    await client.connect(b);
    try {
      const listed = (await client.callTool({
        name: 'consult_council',
        arguments: { query: 'q?', members: OVER },
      })) as CallToolResult;
      expect(listed.isError).toBe(true);
      expect(JSON.stringify(listed.content)).toContain('a council has at most 32 members');
      const pooled = (await client.callTool({
        name: 'consult_council',
        arguments: { query: 'q?', members: ['@big'] },
      })) as CallToolResult;
      expect(pooled.isError).toBe(true);
      expect(pooled.content).toEqual([
        { type: 'text', text: capLine(40, 'the members input').slice('council: '.length, -1) },
      ]);
    } finally {
      await client.close();
    }
  });
});
