import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the test server does with one request. */
export type IngestAnswer =
  | { kind: 'ok'; rejected?: { event_id: string; reason: string }[] }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Reads the request and never answers (the client must time out). */
  | { kind: 'hang' }
  /** Resets the connection before committing anything. */
  | { kind: 'reset' }
  /** Commits the events, then resets the connection instead of answering. */
  | { kind: 'commit-then-fail' };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  eventIds: string[];
}

export interface IngestTestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: ReceivedRequest[];
  /** Event ids committed, in order, with repeats when a batch was committed twice. */
  readonly committed: string[];
  /** Events committed by `commit-then-fail` answers (each is one duplicate once the client sends it again). */
  readonly committedWithoutAnswer: number;
  /** Every byte received on every connection (request lines, headers and bodies). */
  receivedBytes(): Buffer;
  close(): Promise<void>;
}

export interface IngestTestServerOptions {
  /** Decides each request's fate; default: commit all and answer 200. */
  answer?: (request: ReceivedRequest, index: number) => IngestAnswer;
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
  /** Keep request bodies and raw bytes (default true); benchmarks turn it off to stay small. */
  retain?: boolean;
}

/** A council-cloud ingest endpoint (`POST /v1/events`) on 127.0.0.1 with scriptable faults, for tests and benchmarks. */
export async function startIngestTestServer(options: IngestTestServerOptions = {}): Promise<IngestTestServer> {
  const requests: ReceivedRequest[] = [];
  const committed: string[] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  let committedWithoutAnswer = 0;
  const retain = options.retain ?? true;

  const server: Server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(body).toString('utf8');
      let eventIds: string[] = [];
      try {
        const parsed = JSON.parse(text) as { events?: { event_id?: unknown }[] };
        eventIds = (parsed.events ?? []).map((e) => String(e.event_id));
      } catch {
        // left empty: the answer function sees the raw body
      }
      const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: retain ? text : '', eventIds };
      const index = requests.push(request) - 1;
      if (request.method !== 'POST' || request.path !== '/v1/events') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'unauthorized', message: 'invalid token' } }));
        return;
      }
      const answer = options.answer?.(request, index) ?? { kind: 'ok' };
      switch (answer.kind) {
        case 'ok': {
          const refused = new Set((answer.rejected ?? []).map((r) => r.event_id));
          committed.push(...eventIds.filter((id) => !refused.has(id)));
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ accepted: eventIds.length - refused.size, rejected: answer.rejected ?? [] }));
          return;
        }
        case 'status':
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body ?? {}));
          return;
        case 'hang':
          return;
        case 'reset':
          req.socket.resetAndDestroy();
          return;
        case 'commit-then-fail':
          committed.push(...eventIds);
          committedWithoutAnswer += eventIds.length;
          req.socket.resetAndDestroy();
          return;
        default: {
          const unreachable: never = answer;
          throw new Error(`unknown answer ${JSON.stringify(unreachable)}`);
        }
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    if (retain) socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    committed,
    get committedWithoutAnswer() {
      return committedWithoutAnswer;
    },
    receivedBytes: () => Buffer.concat(chunks),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
