import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkLocalRequest } from './check-local-request.js';
import {
  DEFAULT_SERVER_LIMITS,
  dropRestOfBody,
  httpServerOptions,
  readLimitedBody,
  shedIdleConnections,
} from './server-limits.js';
import type { ServerLimits } from './server-limits.js';
import type { McpLog } from './tool-context.js';

/** Largest JSON-RPC request body accepted (a question can be long; 4 MiB is plenty). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A client session with no request for this long is closed; its next request gets 404 and the client starts a new one. */
export const SESSION_IDLE_MS = 30 * 60_000;

export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  port: number;
  /** Client sessions open now. */
  sessions(): number;
  close(): Promise<void>;
}

export interface ServeMcpHttpOptions {
  createServer: () => McpServer;
  host: string;
  port: number;
  token: string;
  log: McpLog;
  /** Timeouts and the connection cap (default `DEFAULT_SERVER_LIMITS`). */
  limits?: Partial<ServerLimits>;
  /** A session with no request for this long is closed (default `SESSION_IDLE_MS`). */
  sessionIdleMs?: number;
  /** How often idle sessions are looked for (default the idle time, at most a minute); a request to one finds it expired at once. */
  sweepEveryMs?: number;
  /** The clock sessions age by (default `Date.now`); tests move it. */
  now?: () => number;
}

/** A client session: its transport, when it last had a request, and its requests in progress (a stream included). */
interface Session {
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
  busy: number;
}

/**
 * A JSON-RPC error as the HTTP answer. What is left of the request's body is dropped, up to MAX_BODY_BYTES more
 * (see `dropRestOfBody`), so that a client still sending one reads this answer rather than a reset.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  options: { status: number; message: string; code?: number },
): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    error: { code: options.code ?? -32000, message: options.message },
    id: null,
  });
  res.writeHead(options.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
  dropRestOfBody({ req, res, maxBytes: MAX_BODY_BYTES });
}

function shownDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

/**
 * `council mcp --http`: the streamable HTTP transport on `host:port` (127.0.0.1 by default) at `/mcp`. Every
 * request must carry the per-launch token and address the bound host from no foreign origin (see
 * `checkLocalRequest`); each client session gets its own MCP server, so a cancellation reaches the council it
 * is about. A session with no request for `sessionIdleMs` (none in progress either) is closed; a request naming
 * it, or any unknown session, gets 404 (JSON-RPC -32001), on which the Streamable HTTP spec has the client start
 * a new session.
 */
export async function serveMcpHttp(options: ServeMcpHttpOptions): Promise<McpHttpServer> {
  const sessions = new Map<string, Session>();
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  const now = options.now ?? Date.now;
  let port = options.port;

  const idle = (session: Session) => session.busy === 0 && now() - session.lastUsed >= idleMs;
  const expire = (entries: [string, Session][]) => {
    for (const [id, session] of entries) {
      sessions.delete(id);
      void session.transport.close();
    }
    const n = entries.length;
    if (n > 0)
      options.log(
        `closed ${n} session${n === 1 ? '' : 's'} idle for ${shownDuration(idleMs)} (a client that comes back gets 404 and starts a new one)`,
      );
  };
  const sweep = setInterval(
    () => expire([...sessions].filter(([, s]) => idle(s))),
    options.sweepEveryMs ?? Math.min(idleMs, 60_000),
  );
  sweep.unref();
  /** The session named, unless it is unknown or has just expired. */
  const lookup = (id: string): Session | undefined => {
    const session = sessions.get(id);
    if (session === undefined || !idle(session)) return session;
    expire([[id, session]]);
    return undefined;
  };
  /** Hands a request to its session, which counts as busy until the response is over (a stream: until it closes). */
  const route = (
    session: Session,
    { req, res, body }: { req: IncomingMessage; res: ServerResponse; body?: unknown },
  ): Promise<void> => {
    session.busy += 1;
    session.lastUsed = now();
    res.once('close', () => {
      session.busy -= 1;
      session.lastUsed = now();
    });
    return session.transport.handleRequest(req, res, body);
  };
  const unknownSession = {
    status: 404,
    code: -32001,
    message: `Session not found: it was closed after ${shownDuration(idleMs)} without a request, or by a restart. Start a new session: an initialize request without Mcp-Session-Id.`,
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refusal = checkLocalRequest(req.headers, { host: options.host, port, token: options.token });
    if (refusal !== null) return refuse(req, res, refusal);
    if (path !== '/mcp') return refuse(req, res, { status: 404, message: 'Not found: the MCP endpoint is /mcp.' });
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? lookup(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (sessionId === undefined)
        return refuse(req, res, { status: 400, message: 'Missing Mcp-Session-Id: start with an initialize request.' });
      if (known === undefined) return refuse(req, res, unknownSession);
      return route(known, { req, res });
    }
    const read = await readLimitedBody(req, MAX_BODY_BYTES);
    if (read === 'gone') return;
    if (read === 'tooLarge')
      return refuse(req, res, { status: 413, message: `Request body over ${MAX_BODY_BYTES} bytes (4 MiB).` });
    let body: unknown;
    try {
      body = JSON.parse(read.toString('utf8'));
    } catch {
      return refuse(req, res, { status: 400, message: 'The request body is not JSON.' });
    }
    if (known !== undefined) return route(known, { req, res, body });
    if (sessionId !== undefined) return refuse(req, res, unknownSession);
    if (!isInitializeRequest(body))
      return refuse(req, res, { status: 400, message: 'Missing Mcp-Session-Id: start with an initialize request.' });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, lastUsed: now(), busy: 0 }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await options.createServer().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer(httpServerOptions(limits), (req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(req, res, { status: 500, message: 'Internal error.' });
      else res.end();
    });
  });
  shedIdleConnections(server, { limits, log: options.log });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    port,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
