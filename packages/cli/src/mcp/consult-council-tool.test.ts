// consult_council when the module that runs the council cannot be loaded (a broken install, a missing chunk).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { createCouncilMcpServer } from './create-council-mcp-server.js';

vi.mock('../commands/ask-command.js', () => {
  throw new Error('chunk missing');
});

afterEach(() => vi.restoreAllMocks());

describe('consult_council when ask cannot be loaded', () => {
  it('answers with a tool error and clears its heartbeat, which would otherwise keep the server alive', async () => {
    const set = vi.spyOn(globalThis, 'setInterval');
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    const t = testContext({ env: { LLM_COUNCIL_HOME: '/nonexistent/council-home' } });
    const server = createCouncilMcpServer({ ctx: t.ctx, log: () => undefined });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(b);
    // A progress callback makes the client send a progress token: the tool then starts its heartbeat.
    const result = (await client.callTool({ name: 'consult_council', arguments: { query: 'q?' } }, undefined, {
      onprogress: () => undefined,
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const heartbeats = set.mock.results
      .filter((r, i) => set.mock.calls[i]![1] === 10_000)
      .map((r) => r.value as unknown);
    expect(heartbeats).toHaveLength(1);
    expect(cleared.mock.calls.map((c) => c[0] as unknown)).toContain(heartbeats[0]);
    await client.close();
  });
});
