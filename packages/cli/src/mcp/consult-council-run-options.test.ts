import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { createCouncilMcpServer } from './create-council-mcp-server.js';

// Issue 30 items 5 and 15 over MCP: consult_council takes what `council ask` takes for one run — system,
// temperature, keepQuestion: false — checked on the wire (the bodies the OpenRouter-style test server received) and
// in the history file.

const KEY = 'sk-or-v1-MCP-RUN-OPTIONS-KEY';
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

async function connect(home: string): Promise<Client> {
  const env = { LLM_COUNCIL_HOME: home, OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY };
  const server = createCouncilMcpServer({ ctx: testContext({ env, home }).ctx, log: () => undefined });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(b);
  return client;
}

async function consult(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({
    name: 'consult_council',
    arguments: { members: MEMBERS, ...args },
  })) as CallToolResult;
}

describe('consult_council: system, temperature and keepQuestion (issue 30 items 5 and 15)', () => {
  it("sends the system prompt before each member's question and the temperature in every call", async () => {
    const client = await connect(mkdtempSync(join(tmpdir(), 'council-mcp-run-options-')));
    const before = provider.requests.length;
    const result = await consult(client, {
      query: 'Which sort is stable?',
      system: 'Answer in one sentence.',
      temperature: 1.5,
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const bodies = provider.requests.slice(before).map((r) => r.body as Body);
    const answers = bodies.filter((b) => b.messages.at(-1)?.content === 'Which sort is stable?');
    expect(answers.map((b) => b.model).sort()).toEqual(MEMBERS);
    for (const body of answers)
      expect(body.messages).toEqual([
        { role: 'system', content: 'Answer in one sentence.' },
        { role: 'user', content: 'Which sort is stable?' },
      ]);
    expect(bodies).toHaveLength(7);
    for (const body of bodies) expect(body.temperature).toBe(1.5);
    await client.close();
  }, 30_000);

  it('keepQuestion: false saves the session without its question; left out, the history keeps it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-mcp-keep-question-'));
    const client = await connect(home);
    const hidden = await consult(client, { query: 'Rotate the CANARY-MCP-52 keys?', keepQuestion: false });
    expect(hidden.isError, JSON.stringify(hidden.content)).toBeFalsy();
    expect((hidden.structuredContent as { saved: { history: boolean } }).saved.history).toBe(true);
    const kept = await consult(client, { query: 'Which queue should we use?' });
    expect(kept.isError).toBeFalsy();
    const lines = readFileSync(join(home, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { question?: string });
    expect(lines.map((l) => l.question)).toEqual([undefined, 'Which queue should we use?']);
    expect(readFileSync(join(home, 'history.jsonl'), 'utf8')).not.toContain('CANARY-MCP-52');
    await client.close();
  }, 30_000);

  it('refuses a bad value with an error naming the field and what to send, before any model is called', async () => {
    const client = await connect(mkdtempSync(join(tmpdir(), 'council-mcp-run-options-bad-')));
    const before = provider.requests.length;
    for (const [extra, message] of [
      [{ temperature: 2.5 }, 'temperature must be from 0 to 2, e.g. 0.2'],
      [{ temperature: 'warm' }, 'temperature must be a number from 0 to 2, e.g. 0.2'],
      [{ system: '' }, 'system is empty: leave it out for no system prompt'],
    ] as const) {
      const result = await consult(client, { query: 'Which sort?', ...extra });
      expect(result.isError, JSON.stringify(extra)).toBe(true);
      expect((result.content[0] as { text: string }).text).toContain(message);
    }
    expect(provider.requests.length).toBe(before);
    await client.close();
  });
});
