import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the test server does with one request. */
export type IngestAnswer =
  /** Stores the events (each `event_id` once; see `IngestTestServer.committed`) and answers 200, refusing `rejected` individually. */
  | { kind: 'ok'; rejected?: { event_id: string; reason: string }[] }
  /** Stores nothing and answers `status` with `body` as JSON. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Stores nothing and answers `status` with `body` as it is: a proxy's or gateway's own page, not council-cloud's answer. */
  | { kind: 'raw'; status: number; body: string; contentType: string }
  /** council-cloud's structured refusal (default 422): nothing of the batch is stored; the events named in `rejected` are refused. */
  | { kind: 'refuse'; status?: number; rejected: { event_id: string; reason: string }[]; message?: string }
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
  /**
   * Event ids stored, in order. The ingest contract makes each event's `event_id` its idempotency key, so an
   * event sent again in any batch is recognised and not stored twice. A request that still carries a batch
   * `Idempotency-Key` header (the contract before issue 27) is handled as that contract said: the key, not the
   * events, identifies it, so a replay of the same key stores nothing but the same events in another batch are
   * stored again — then this list holds repeats.
   */
  readonly committed: string[];
  /** Event ids sent again after they were stored, recognised by their `event_id` and not stored again (answered in `duplicates`). */
  readonly duplicates: string[];
  /** Events committed by `commit-then-fail` answers (each is sent again once the client retries). */
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
  const duplicates: string[] = [];
  const stored = new Set<string>();
  const batchKeys = new Set<string>();
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  let committedWithoutAnswer = 0;
  const retain = options.retain ?? true;

  /** Stores the events of a request as the contract it speaks says; returns the ids it recognised as sent before. */
  const commit = (request: ReceivedRequest, ids: readonly string[]): string[] => {
    const key = request.headers['idempotency-key'];
    if (typeof key === 'string') {
      // The contract before issue 27: one key per batch (a hash of its event ids).
      if (batchKeys.has(key)) return [];
      batchKeys.add(key);
      committed.push(...ids);
      for (const id of ids) stored.add(id);
      return [];
    }
    const again: string[] = [];
    for (const id of ids) {
      if (stored.has(id)) {
        again.push(id);
        continue;
      }
      stored.add(id);
      committed.push(id);
    }
    duplicates.push(...again);
    return again;
  };

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
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: retain ? text : '',
        eventIds,
      };
      const index = requests.push(request) - 1;
      if (request.method !== 'POST' || request.path !== '/v1/events') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'unauthorized', message: 'invalid token' } }));
        return;
      }
      const answer = options.answer?.(request, index) ?? { kind: 'ok' };
      switch (answer.kind) {
        case 'ok': {
          const refused = new Set((answer.rejected ?? []).map((r) => r.event_id));
          const taken = eventIds.filter((id) => !refused.has(id));
          const again = commit(request, taken);
          const legacy = typeof request.headers['idempotency-key'] === 'string';
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              accepted: taken.length - again.length,
              ...(legacy ? {} : { duplicates: again }),
              rejected: answer.rejected ?? [],
            }),
          );
          return;
        }
        case 'status':
          res
            .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
            .end(JSON.stringify(answer.body ?? {}));
          return;
        case 'raw':
          res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
          return;
        case 'refuse':
          res.writeHead(answer.status ?? 422, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              error: {
                code: 'events_refused',
                message: answer.message ?? `${answer.rejected.length} events refused; nothing stored`,
              },
              rejected: answer.rejected,
            }),
          );
          return;
        case 'hang':
          return;
        case 'reset':
          req.socket.resetAndDestroy();
          return;
        case 'commit-then-fail':
          commit(request, eventIds);
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
    duplicates,
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
