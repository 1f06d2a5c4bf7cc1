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

/** The server in this process, over the SDK's in-memory transport, on a history of hand-written sessions. */
async function connect(entries: ReturnType<typeof historyEntry>[]) {
  const home = mkdtempSync(join(tmpdir(), 'council-mcp-unit-'));
  writeHistory(join(home, 'history.jsonl'), entries);
  const t = testContext({ env: { LLM_COUNCIL_HOME: home }, home });
  const logged: string[] = [];
  const server = createCouncilMcpServer({ ctx: t.ctx, log: (line) => void logged.push(line) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(b);
  return { client, stdout: t.out, logged };
}

const ranking = ['m/a', 'm/b', 'm/c'];
const scores = { 'm/a': 1, 'm/b': 0.5, 'm/c': 0 };

describe('the council MCP server on a saved history', () => {
  it('serves a session written before a key was added to the session document, and one with a key it does not know', async () => {
    const old = historyEntry({
      id: 'old-session-0001',
      timestamp: '2026-11-01T10:00:00.000Z',
      ranking,
      bordaScores: scores,
    });
    delete (old.session as { warnings?: unknown }).warnings;
    const future = historyEntry({
      id: 'new-session-0002',
      timestamp: '2026-11-02T10:00:00.000Z',
      ranking,
      bordaScores: scores,
    });
    (future.session as unknown as Record<string, unknown>)['addedLater'] = { any: 'thing' };
    const { client, stdout } = await connect([old, future]);
    for (const id of ['old-session', 'new-session']) {
      const result = (await client.callTool({ name: 'get_session', arguments: { id } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect((result.structuredContent as { sessionId: string }).sessionId.startsWith(id)).toBe(true);
    }
    // Nothing a command printed reached stdout: it belongs to the protocol.
    expect(stdout()).toBe('');
  });

  it('lists the newest sessions first, up to the limit, and ranks the leaderboard over all of them', async () => {
    const entries = ['2026-11-01', '2026-11-02', '2026-11-03'].map((day, i) =>
      historyEntry({ id: `session-${i}`, timestamp: `${day}T10:00:00.000Z`, ranking, bordaScores: scores }),
    );
    const { client } = await connect(entries);
    const listed = (await client.callTool({ name: 'list_sessions', arguments: { limit: 2 } })) as CallToolResult;
    expect(
      (listed.structuredContent as { sessions: { sessionId: string }[] }).sessions.map((s) => s.sessionId),
    ).toEqual(['session-2', 'session-1']);
    const board = (await client.callTool({ name: 'leaderboard', arguments: {} })) as CallToolResult;
    const doc = board.structuredContent as { sessions: number; borda: { candidate: string; rank: number }[] };
    expect(doc.sessions).toBe(3);
    // m/a leads every session (Borda 1), m/c trails every one (0).
    expect(doc.borda.map((b) => [b.candidate, b.rank])).toEqual([
      ['m/a', 1],
      ['m/b', 2],
      ['m/c', 3],
    ]);
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual([
      'council://sessions/session-2',
      'council://sessions/session-1',
      'council://sessions/session-0',
    ]);
  });

  it('get_session {id: "last"} is the newest saved session, as `council history show last` (issue 30 item 10)', async () => {
    const entries = ['2026-11-01', '2026-11-03', '2026-11-02'].map((day, i) =>
      historyEntry({ id: `session-${i}`, timestamp: `${day}T10:00:00.000Z`, ranking, bordaScores: scores }),
    );
    const { client } = await connect(entries);
    const result = (await client.callTool({ name: 'get_session', arguments: { id: 'last' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // The newest saved is the last line of the history (session-2), whatever its timestamp says.
    expect((result.structuredContent as { sessionId: string }).sessionId).toBe('session-2');
    const empty = await connect([]);
    const none = (await empty.client.callTool({ name: 'get_session', arguments: { id: 'last' } })) as CallToolResult;
    expect(none.isError).toBe(true);
    expect(none.content).toEqual([
      {
        type: 'text',
        text: 'No session yet: the history is empty. Ask a question first ("council ask"), or run "council demo".',
      },
    ]);
  });

  it('an ambiguous prefix is a one-line tool error naming how many sessions it matches', async () => {
    const entries = [0, 1].map((i) =>
      historyEntry({ id: `same-prefix-${i}`, timestamp: '2026-11-01T10:00:00.000Z', ranking, bordaScores: scores }),
    );
    const { client } = await connect(entries);
    const result = (await client.callTool({ name: 'get_session', arguments: { id: 'same-prefix' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: '"same-prefix" matches 2 sessions; give more characters of the id.' },
    ]);
  });

  it('refuses a session resource whose id is no valid percent-encoding with one line, not a raw URIError', async () => {
    const { client } = await connect([]);
    await expect(client.readResource({ uri: 'council://sessions/%E0' })).rejects.toThrow(
      'MCP error -32602: "%E0" in council://sessions/%E0 is not a percent-encoded session id: read council://sessions/<id> with an id from list_sessions.',
    );
  });

  it('a single member is a tool error naming the members input, not the CLI flag', async () => {
    const { client } = await connect([]);
    const result = (await client.callTool({
      name: 'consult_council',
      arguments: { query: 'Which queue?', members: ['simulated:ada'], save: false },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'A council needs at least two models: give two or more model ids (or a pool "@name") in the members input, list them under members: in config.yaml, or set LLM_COUNCIL_MODELS.',
      },
    ]);
  });

  it('consult_council with continueFrom and no members keeps the council it continues, as `ask --continue` (issue 30 item 4)', async () => {
    const { client } = await connect([]);
    const members = ['simulated:cleo', 'simulated:ada', 'simulated:basil'];
    const first = (await client.callTool({
      name: 'consult_council',
      arguments: { query: 'Which queue?', members, chairman: 'simulated:basil', strategy: 'risk-averse' },
    })) as CallToolResult;
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    const next = (await client.callTool({
      name: 'consult_council',
      arguments: { query: 'And for a small team?', continueFrom: 'last' },
    })) as CallToolResult;
    expect(next.isError, JSON.stringify(next.content)).toBeFalsy();
    const session = (await client.callTool({ name: 'get_session', arguments: { id: 'last' } })) as CallToolResult;
    expect((session.structuredContent as { config: unknown }).config).toMatchObject({
      members,
      chairman: 'simulated:basil',
      strategy: 'risk-averse',
    });
  });

  it('reports several input problems at once as one line', async () => {
    const { client } = await connect([]);
    const result = (await client.callTool({
      name: 'consult_council',
      arguments: { query: '', members: [], mode: 'democracy' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).not.toContain('\n');
    for (const problem of [/query is empty/, /members is empty/, /mode/]) expect(text).toMatch(problem);
  });
});
