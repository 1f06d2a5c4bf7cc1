import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkLocalRequest } from './check-local-request.js';
import type { McpLog } from './tool-context.js';

/** Largest JSON-RPC request body accepted (a question can be long; a megabyte is plenty). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface McpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, options: { status: number; message: string }): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: options.message }, id: null });
  res.writeHead(options.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The body as text, or null when it is over the limit. */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is read and dropped (not kept), so that the client reads the 413 rather than a reset.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * `council mcp --http`: the streamable HTTP transport on `host:port` (127.0.0.1 by default) at `/mcp`. Every
 * request must carry the per-launch token and address the bound host from no foreign origin (see
 * `checkLocalRequest`); each client session gets its own MCP server, so a cancellation reaches the council it
 * is about.
 */
export async function serveMcpHttp(options: { createServer: () => McpServer; host: string; port: number; token: string; log: McpLog }): Promise<McpHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = options.port;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refusal = checkLocalRequest(req.headers, { host: options.host, port, token: options.token });
    if (refusal !== null) return refuse(res, refusal);
    if (path !== '/mcp') return refuse(res, { status: 404, message: 'Not found: the MCP endpoint is /mcp.' });
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (known === undefined) return refuse(res, { status: 400, message: 'Unknown or missing Mcp-Session-Id.' });
      return known.handleRequest(req, res);
    }
    const text = await readBody(req);
    if (text === null) return refuse(res, { status: 413, message: `Request body over ${MAX_BODY_BYTES} bytes.` });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return refuse(res, { status: 400, message: 'The request body is not JSON.' });
    }
    if (known !== undefined) return known.handleRequest(req, res, body);
    if (sessionId !== undefined || !isInitializeRequest(body)) return refuse(res, { status: 400, message: 'Unknown or missing Mcp-Session-Id: start with an initialize request.' });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await options.createServer().connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, { status: 500, message: 'Internal error.' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    port,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
