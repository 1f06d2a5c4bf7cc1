// Both local servers shed what they should not hold (issue 27): idle connections, slow headers and bodies, more
// connections than the cap, bodies over the limit — and keep the streams that are meant to last. Each runs on
// 127.0.0.1 in this process with its limits shortened; every wait is for an event (a socket closing, a line
// logged), never for a time.
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCouncil } from '../serve/serve-council.js';
import { createServeClient } from '../serve/serve-test-client.js';
import type { ReadEvent } from '../serve/serve-test-client.js';
import { testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { createCouncilMcpServer } from './create-council-mcp-server.js';
import { serveMcpHttp } from './serve-mcp-http.js';
import type { ServerLimits } from './server-limits.js';

const TOKEN = 'server-limits-test-token-0123456789abcdef';
const KEY = 'sk-or-server-limits';
const MEMBERS = ['test/alpha', 'test/beta', 'test/hang'];
const MiB = 1024 * 1024;
let models: TestServer;

beforeAll(async () => {
  models = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => models.close());

function context() {
  const home = mkdtempSync(join(tmpdir(), 'council-server-limits-'));
  return {
    ...testContext({ env: { OPENROUTER_BASE_URL: models.url, OPENROUTER_API_KEY: KEY }, home }).ctx,
    now: () => new Date(),
  };
}

interface Running {
  port: number;
  log: string[];
  close(): Promise<void>;
}

/** A server under test, and a request of each kind it takes. */
interface Target {
  name: 'council serve' | 'council mcp --http';
  start(limits: Partial<ServerLimits>): Promise<Running>;
  /** A request that succeeds (200): its method, path and headers. */
  ok: { method: string; path: string; headers: Record<string, string>; body: string };
  /** Where a body goes, with the headers that get it read. */
  upload: { path: string; headers: Record<string, string>; limit: number };
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const mcpHeaders = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

const targets: Target[] = [
  {
    name: 'council serve',
    async start(limits) {
      const log: string[] = [];
      const server = await serveCouncil({
        ctx: context(),
        host: '127.0.0.1',
        port: 0,
        token: TOKEN,
        demo: false,
        assets: null,
        log: (l) => log.push(l),
        limits,
      });
      return { port: server.port, log, close: () => server.close() };
    },
    ok: { method: 'GET', path: '/api/config', headers: { authorization: `Bearer ${TOKEN}` }, body: '' },
    upload: {
      path: '/api/sessions',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      limit: 1 * MiB,
    },
  },
  {
    name: 'council mcp --http',
    async start(limits) {
      const log: string[] = [];
      const ctx = context();
      const server = await serveMcpHttp({
        createServer: () => createCouncilMcpServer({ ctx, log: (l) => log.push(l) }),
        host: '127.0.0.1',
        port: 0,
        token: TOKEN,
        log: (l) => log.push(l),
        limits,
      });
      return { port: server.port, log, close: () => server.close() };
    },
    ok: { method: 'POST', path: '/mcp', headers: mcpHeaders, body: initialize },
    upload: { path: '/mcp', headers: mcpHeaders, limit: 4 * MiB },
  },
];

/** A raw connection to the port, once connected. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves when the server closes the socket, with what it sent (an error such as ECONNRESET counts as a close). */
function closed(socket: Socket): Promise<{ received: string }> {
  let received = '';
  socket.setEncoding('utf8').on('data', (c: string) => (received += c));
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('close', () => resolve({ received })));
}

/** One request on its own connection (no pooling): its status, or the error that ended it. */
function send(
  port: number,
  r: { method: string; path: string; headers: Record<string, string>; body: string },
): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(r.body);
  });
}

/**
 * POSTs `total` bytes (declared, or chunked) 64 KiB at a time, as fast as the connection takes them, until the
 * server answers or cuts the upload off: the answer's status (or the error) and how many bytes were handed to
 * the connection by then.
 */
function upload(
  port: number,
  target: Target,
  options: { total: number; chunked: boolean },
): Promise<{ status: number | null; error: string | null; sent: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (status: number | null, error: string | null) => {
      if (done) return;
      done = true;
      resolve({ status, error, sent });
      req.destroy();
    };
    const headers = options.chunked
      ? target.upload.headers
      : { ...target.upload.headers, 'content-length': String(options.total) };
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: target.upload.path, headers, agent: false },
      (res: IncomingMessage) => finish(res.statusCode ?? 0, null),
    );
    req.on('error', (e: NodeJS.ErrnoException) => finish(null, e.code ?? e.message));
    // A JSON object's start, then padding inside a string.
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      if (sent === 0) {
        req.write('{"query":"');
        sent += 10;
      }
      while (!done && sent < options.total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}

describe.each(targets)('$name sheds load (issue 27)', (target) => {
  it('closes a connection that sends nothing, after the idle time; and one left open after a response', async () => {
    const server = await target.start({ idleTimeoutMs: 150 });
    try {
      expect(await closed(await open(server.port))).toEqual({ received: '' });
      // A keep-alive connection: one answered request, then silence.
      const socket = await open(server.port);
      const ended = closed(socket);
      const r = target.ok;
      socket.write(
        `${r.method} ${r.path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${Object.entries(r.headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}content-length: ${Buffer.byteLength(r.body)}\r\n\r\n${r.body}`,
      );
      expect((await ended).received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('answers 408 and closes a connection whose headers do not all arrive in time, or whose body does not', async () => {
    const server = await target.start({ idleTimeoutMs: 60_000, headersTimeoutMs: 200, requestTimeoutMs: 400 });
    try {
      const partial = await open(server.port);
      const partialClosed = closed(partial);
      partial.write(`POST ${target.upload.path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
      expect((await partialClosed).received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      const slow = await open(server.port);
      const slowClosed = closed(slow);
      const headers = Object.entries(target.upload.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      slow.write(
        `POST ${target.upload.path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${headers}content-length: 1000\r\n\r\n{"query":"`,
      );
      expect((await slowClosed).received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      // Node answered it: the server has nothing to add (no failed request in its log).
      expect(server.log.filter((l) => l.includes('failed'))).toEqual([]);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('refuses connections past the cap (closed unanswered), logs it once, and accepts again once one closes', async () => {
    const server = await target.start({ maxConnections: 3, idleTimeoutMs: 60_000 });
    try {
      const held = [await open(server.port), await open(server.port), await open(server.port)];
      for (const s of held) s.on('error', () => undefined);
      // The fourth (and fifth): closed at once, with no answer.
      expect(await send(server.port, target.ok)).toEqual({
        error: expect.stringMatching(/^(ECONNRESET|EPIPE|socket hang up)$/) as unknown,
      });
      expect(await send(server.port, target.ok)).toEqual({
        error: expect.stringMatching(/^(ECONNRESET|EPIPE|socket hang up)$/) as unknown,
      });
      expect(server.log.filter((l) => l.includes('connections are open'))).toEqual([
        '3 connections are open, the most this server holds: refusing new ones until some close (an idle one closes after 60 s)',
      ]);
      const gone = closed(held[0]!);
      held[0]!.destroy();
      await gone;
      // The server learns of the close when it reads it: try again until it has (a bounded number of times).
      let answer: { status: number } | { error: string } = { error: 'not tried' };
      for (let attempt = 0; attempt < 200 && !('status' in answer); attempt++)
        answer = await send(server.port, target.ok);
      expect(answer).toEqual({ status: 200 });
      expect(server.log.some((l) => /^accepting connections again; \d+ refused while 3 were open$/.test(l))).toBe(true);
      for (const s of held) s.destroy();
    } finally {
      await server.close();
    }
  }, 20_000);

  for (const chunked of [false, true]) {
    it(`answers 413 to a 300 MB body ${chunked ? 'sent chunked' : 'of declared length'} at once, and reads no more than twice the limit of it`, async () => {
      const server = await target.start({});
      try {
        const total = 300 * MiB;
        const result = await upload(server.port, target, { total, chunked });
        expect(result).toMatchObject({ status: 413, error: null });
        // What the connection took: the limit, as much again dropped after the 413, and what the two sockets' buffers
        // hold (a few MiB on loopback); never the whole body.
        expect(result.sent).toBeLessThan(2 * target.upload.limit + 16 * MiB);
        // The server is still serving.
        expect(await send(server.port, target.ok)).toEqual({ status: 200 });
      } finally {
        await server.close();
      }
    }, 30_000);
  }
});

describe('long-lived streams outlast the idle time (issue 27)', () => {
  /** Resolves once a connection that sends nothing has been closed for idleness: at least the idle time has passed. */
  const idleTimePassed = async (port: number) => void (await closed(await open(port)));

  it("council serve: a session's event stream stays open through quiet stretches until the session ends", async () => {
    const log: string[] = [];
    const server = await serveCouncil({
      ctx: context(),
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      demo: false,
      assets: null,
      log: (l) => log.push(l),
      limits: { idleTimeoutMs: 100, headersTimeoutMs: 100, requestTimeoutMs: 100 },
    });
    try {
      const client = createServeClient({ url: server.url, token: TOKEN });
      const id = await client.start({ query: 'Which queue should we use?', members: MEMBERS });
      let answers = 0;
      let quiet: () => void = () => undefined;
      const twoAnswered = new Promise<void>((resolve) => (quiet = resolve));
      const events: Promise<ReadEvent[]> = client.events(id, {
        onEvent: (e) => {
          if (e.type === 'answer' && ++answers === 2) quiet();
        },
      });
      // test/hang never answers: the stream has nothing to send until the run is cancelled.
      await twoAnswered;
      await idleTimePassed(server.port);
      await idleTimePassed(server.port);
      expect((await client.post(`/api/sessions/${id}/cancel`, {})).status).toBe(202);
      expect((await events).map((e) => e.type).slice(-2)).toEqual(['cancelled', 'done']);
    } finally {
      await server.close();
    }
  }, 30_000);

  it("council mcp --http: a session's event stream (GET) stays open until the session is deleted", async () => {
    const log: string[] = [];
    const ctx = context();
    const server = await serveMcpHttp({
      createServer: () => createCouncilMcpServer({ ctx, log: (l) => log.push(l) }),
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      log: (l) => log.push(l),
      limits: { idleTimeoutMs: 100, headersTimeoutMs: 100, requestTimeoutMs: 100 },
    });
    const url = server.url;
    try {
      const init = await fetch(url, { method: 'POST', headers: mcpHeaders, body: initialize });
      await init.text();
      const session = init.headers.get('mcp-session-id')!;
      const headers = { ...mcpHeaders, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
      await (
        await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        })
      ).text();
      // On a connection of its own (fetch would reuse one that has served a request already).
      const stream = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = request(url, { headers: { ...headers, accept: 'text/event-stream' }, agent: false }, resolve);
        req.on('error', reject);
        req.end();
      });
      expect(stream.statusCode).toBe(200);
      let ended = false;
      stream.resume();
      stream.on('error', () => undefined);
      const read = new Promise<void>((resolve) => stream.once('close', () => resolve(void (ended = true))));
      await idleTimePassed(server.port);
      await idleTimePassed(server.port);
      expect(ended).toBe(false);
      expect(server.sessions()).toBe(1);
      expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(200);
      await read;
      expect(ended).toBe(true);
    } finally {
      await server.close();
    }
  }, 30_000);
});
