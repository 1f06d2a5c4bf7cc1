import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { historyEntry, writeHistory } from '../testing/history-fixture.js';
import { createCouncilMcpServer } from './create-council-mcp-server.js';

// Issue 30 item 5 over MCP: get_session and list_sessions give what `council history show|list --json` give, the
// question the local history kept included.

const ranking = ['m/a', 'm/b', 'm/c'];
const scores = { 'm/a': 1, 'm/b': 0.5, 'm/c': 0 };

describe('MCP get_session and list_sessions with the kept question', () => {
  it('return the question and its title, and null for a line saved without one', async () => {
    const asked = {
      ...historyEntry({ id: 'asked-0001', timestamp: '2026-11-02T10:00:00.000Z', ranking, bordaScores: scores }),
      question: 'How do I test a legacy module?\nIt has no tests.',
    };
    const old = historyEntry({ id: 'older-0002', timestamp: '2026-11-01T10:00:00.000Z', ranking, bordaScores: scores });
    const home = mkdtempSync(join(tmpdir(), 'council-mcp-questions-'));
    writeHistory(join(home, 'history.jsonl'), [old, asked]);
    const server = createCouncilMcpServer({
      ctx: testContext({ env: { LLM_COUNCIL_HOME: home }, home }).ctx,
      log: () => undefined,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(b);

    const got = (await client.callTool({ name: 'get_session', arguments: { id: 'asked' } })) as CallToolResult;
    expect((got.structuredContent as { question: string | null }).question).toBe(asked.question);
    expect((got.content[0] as { text: string }).text).toContain(
      'Question: How do I test a legacy module?\nIt has no tests.\n',
    );
    const none = (await client.callTool({ name: 'get_session', arguments: { id: 'older' } })) as CallToolResult;
    expect((none.structuredContent as { question: string | null }).question).toBeNull();

    const listed = (await client.callTool({ name: 'list_sessions', arguments: {} })) as CallToolResult;
    expect((listed.structuredContent as { sessions: { sessionId: string; title: string | null }[] }).sessions).toEqual([
      expect.objectContaining({ sessionId: 'asked-0001', title: 'How do I test a legacy module?' }),
      expect.objectContaining({ sessionId: 'older-0002', title: null }),
    ]);
    expect((listed.content[0] as { text: string }).text).toContain('· How do I test a legacy module? ·');
  });
});
