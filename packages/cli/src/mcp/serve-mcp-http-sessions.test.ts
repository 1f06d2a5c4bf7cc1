// `council mcp --http`'s client sessions expire after SESSION_IDLE_MS without a request (issue 27), on a clock the
// test moves: the next request naming one gets 404 (the Streamable HTTP spec's answer for a session the server
// has ended, on which the client starts a new one), and the sweep closes those no client comes back to.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { testContext } from '../testing/capture-io.js';
import { createCouncilMcpServer } from './create-council-mcp-server.js';
import { SESSION_IDLE_MS, serveMcpHttp } from './serve-mcp-http.js';
import type { McpHttpServer } from './serve-mcp-http.js';

const TOKEN = 'mcp-sessions-test-token-0123456789abcdef';
const headers = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

let clock = 0;
let server: McpHttpServer | undefined;
const log: string[] = [];

async function start(options: { sweepEveryMs?: number } = {}): Promise<McpHttpServer> {
  clock = 1_000_000;
  log.length = 0;
  const ctx = testContext({ home: mkdtempSync(join(tmpdir(), 'council-mcp-sessions-')) }).ctx;
  server = await serveMcpHttp({
    createServer: () => createCouncilMcpServer({ ctx, log: (l) => log.push(l) }),
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    log: (l) => log.push(l),
    now: () => clock,
    ...options,
  });
  return server;
}

/** The server started by this test. */
function running(): McpHttpServer {
  if (server === undefined) throw new Error('start() first');
  return server;
}
afterEach(() => server?.close());

/** A session opened by hand: initialize, then the initialized notification. Its id. */
async function openSession(): Promise<string> {
  const init = await fetch(running().url, { method: 'POST', headers, body: initialize });
  expect(init.status).toBe(200);
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  const note = await fetch(running().url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await note.text();
  return id;
}

function listTools(id: string): Promise<Response> {
  return fetch(running().url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
}

describe('council mcp --http: sessions expire when idle (issue 27)', () => {
  it('the idle time is 30 minutes', () => {
    expect(SESSION_IDLE_MS).toBe(30 * 60 * 1000);
  });

  it('a request to a session idle for 30 minutes gets 404 (-32001) and the session is gone; one a moment younger is served', async () => {
    await start();
    const id = await openSession();
    expect(running().sessions()).toBe(1);
    clock += SESSION_IDLE_MS - 1;
    const fresh = await listTools(id);
    expect(fresh.status).toBe(200);
    await fresh.text();
    // A request resets the idle time.
    clock += SESSION_IDLE_MS;
    const expired = await listTools(id);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32001,
        message:
          'Session not found: it was closed after 30 min without a request, or by a restart. Start a new session: an initialize request without Mcp-Session-Id.',
      },
      id: null,
    });
    expect(running().sessions()).toBe(0);
    expect(log).toContain('closed 1 session idle for 30 min (a client that comes back gets 404 and starts a new one)');
    // GET and DELETE on it too; a request without a session id is still a 400.
    expect((await fetch(running().url, { headers: { ...headers, 'mcp-session-id': id } })).status).toBe(404);
    expect(
      (await fetch(running().url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': id } })).status,
    ).toBe(404);
    expect(
      (
        await fetch(running().url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
        })
      ).status,
    ).toBe(400);
  });

  it('the SDK client sees the 404; a new client session is served', async () => {
    await start();
    // A client that opens no event stream of its own (GET): one that did would keep its session in use.
    const noStream: typeof fetch = (url, init) =>
      init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(url, init);
    const transport = () =>
      new StreamableHTTPClientTransport(new URL(running().url), {
        fetch: noStream,
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      });
    const first = new Client({ name: 't', version: '1' });
    await first.connect(transport());
    expect((await first.listTools()).tools).toHaveLength(5);
    clock += SESSION_IDLE_MS;
    const error = await first.listTools().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(404);
    const second = new Client({ name: 't', version: '1' });
    await second.connect(transport());
    expect((await second.listTools()).tools).toHaveLength(5);
    await first.close();
    await second.close();
  });

  it('a session with a request in progress (an open event stream) does not expire, however long it lasts', async () => {
    await start();
    const id = await openSession();
    const controller = new AbortController();
    const stream = await fetch(running().url, {
      headers: { ...headers, accept: 'text/event-stream', 'mcp-session-id': id },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    clock += 10 * SESSION_IDLE_MS;
    const during = await listTools(id);
    expect(during.status).toBe(200);
    await during.text();
    controller.abort();
    await stream.text().catch(() => undefined);
  });

  it('the sweep closes sessions no client comes back to: 200 abandoned, none left', async () => {
    await start({ sweepEveryMs: 10 });
    for (let i = 0; i < 200; i++) await openSession();
    expect(running().sessions()).toBe(200);
    clock += SESSION_IDLE_MS;
    // The sweep runs on its own timer: wait for it by counting, a bounded number of times.
    for (let i = 0; i < 500 && running().sessions() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(running().sessions()).toBe(0);
    expect(log).toContain(
      'closed 200 sessions idle for 30 min (a client that comes back gets 404 and starts a new one)',
    );
  }, 30_000);
});
