// consult_council on a partial council (issue 26): a result that says what it lacks, never a tool error.
import { existsSync, mkdtempSync } from 'node:fs';
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

const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: 'k' });
});
afterAll(() => server.close());

async function consult(args: Record<string, unknown>) {
  const home = mkdtempSync(join(tmpdir(), 'council-mcp-outcome-'));
  const t = testContext({
    env: {
      LLM_COUNCIL_HOME: home,
      OPENROUTER_BASE_URL: server.url,
      OPENROUTER_API_KEY: 'k',
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    },
    home,
  });
  const mcp = createCouncilMcpServer({ ctx: t.ctx, log: () => undefined });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(b);
  const result = (await client.callTool({
    name: 'consult_council',
    arguments: { query: 'How do I test a legacy module?', ...args },
  })) as CallToolResult;
  await client.close();
  const text = (result.content[0] as { text: string }).text;
  return {
    result,
    text,
    home,
    out: result.structuredContent as {
      complete: boolean;
      shortfalls: string[];
      synthesis: string | null;
      leaderboard: unknown[];
      saved: { biasRecords: number; history: boolean };
    },
  };
}

describe('consult_council reports a partial council in its result (issue 26)', () => {
  it('no chairman answered: complete false with the shortfall, the leaderboard kept, and no isError', async () => {
    const { result, out, text } = await consult({ members: MEMBERS, chairman: 'test/broken' });
    expect(result.isError).toBeFalsy();
    expect(out.complete).toBe(false);
    expect(out.shortfalls).toEqual(['no-synthesis']);
    expect(out.synthesis).toBeNull();
    expect(out.leaderboard).toHaveLength(3);
    // The chairman's failure is an exclusion at stage 3, named after what is missing.
    expect(text).toMatch(
      /^PARTIAL COUNCIL: no synthesis\. Dropped test\/broken \(stage 3, error\)\. The result below is what finished\.\n/,
    );
  }, 20_000);

  it('no review could be read: complete false although synthesised, and the session added no bias records', async () => {
    const { result, out, text, home } = await consult({
      members: ['test/vague-a', 'test/vague-b', 'test/vague-c'],
      chairman: 'test/alpha',
    });
    expect(result.isError).toBeFalsy();
    expect(out.synthesis).toContain('characterisation tests');
    expect(out.complete).toBe(false);
    expect(out.shortfalls).toContain('no-review-read');
    expect(text).toMatch(
      /^PARTIAL COUNCIL: (not ranked; )?no review could be read\. The result below is what finished\.\n/,
    );
    expect(out.saved).toMatchObject({ history: true, biasRecords: 0 });
    expect(existsSync(join(home, 'bias_metrics.jsonl'))).toBe(false);
  }, 20_000);

  it('a member dropped while the rest answered, reviewed and were synthesised is complete, and the text still names it', async () => {
    const { out, text } = await consult({ members: [...MEMBERS, 'test/broken'] });
    expect([out.complete, out.shortfalls]).toEqual([true, []]);
    expect(text).toMatch(
      /^Dropped test\/broken \(stage 1, error\); the council went on with the members that answered\.\n/,
    );
  }, 20_000);
});
