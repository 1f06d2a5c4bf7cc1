import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RecordedRequest, TestHugeResponse, TestResponse } from './test-response.js';
import type { VendorFormat } from './vendor-format.js';

export interface TestServerOptions {
  /** When set, requests must carry this key (in the vendor's header) or get the vendor's auth error. */
  apiKey?: string;
  /** Answers requests when the queue is empty. Default: the text `ok`. */
  respond?: (request: RecordedRequest) => TestResponse;
  /**
   * Answer stream requests as if they had not asked to stream: the whole reply as `application/json`, as some
   * proxies do (`text`, `hang`, `huge` and `truncated` responses alike). `RecordedRequest.stream` still says
   * what the request asked for.
   */
  ignoreStream?: boolean;
}

/** A vendor-format HTTP server on 127.0.0.1 (a free port) for tests and benchmarks. */
export interface TestServer {
  /** The API base URL to give a provider as `baseURL`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queues responses; each request takes the next one, then `respond` takes over. */
  enqueue(...responses: TestResponse[]): void;
  /** Requests being handled right now (for concurrency checks). */
  readonly inFlight: number;
  /** The most requests ever handled at once. */
  readonly maxInFlight: number;
  /** Bytes written so far for `huge` responses (all of them together): what their clients let through. */
  readonly hugeBytesSent: number;
  /** Forgets queued responses, recorded requests and `maxInFlight`, for reuse across tests. */
  reset(): void;
  /** Stops the server and destroys open connections (hanging responses included). */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  options: { status: number; body: unknown; headers?: Record<string, string> },
): void {
  const text = JSON.stringify(options.body);
  res.writeHead(options.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...options.headers,
  });
  res.end(text);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const HUGE_BLOCK = 64 * 1024;
const HUGE_MARKER = 'HUGE-REPLY-TEXT';

/** Writes one piece, waiting while the socket's buffer is full; false once the client has gone. */
async function writeWithBackpressure(res: ServerResponse, piece: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(piece)) return true;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
  return !res.destroyed;
}

/** The pieces of a `huge` answer, made one at a time: the text never exists whole on the server either. */
function* hugePieces(
  format: VendorFormat,
  options: { response: TestHugeResponse; request: RecordedRequest; streaming: boolean },
): Generator<string> {
  const { response, request } = options;
  const block = 'x'.repeat(HUGE_BLOCK);
  const blocks = Math.ceil(response.bytes / HUGE_BLOCK);
  const text = { kind: 'text' as const, ...(response.usage ? { usage: response.usage } : {}) };
  if (!options.streaming) {
    const [head, tail] = JSON.stringify(format.json({ ...text, text: HUGE_MARKER }, request)).split(HUGE_MARKER) as [
      string,
      string,
    ];
    yield head;
    for (let i = 0; i < blocks; i++)
      yield i < blocks - 1 || response.bytes % HUGE_BLOCK === 0 ? block : block.slice(0, response.bytes % HUGE_BLOCK);
    yield tail;
    return;
  }
  const events = format
    .stream({ ...text, text: block, chunkSize: HUGE_BLOCK }, request)
    .map((e) => (e.startsWith('event:') || e.startsWith(':') ? e : `data: ${e}\n\n`));
  const delta = events.findIndex((e) => e.includes(block));
  yield* events.slice(0, delta);
  for (let i = 0; i < blocks; i++) yield events[delta]!;
  yield* events.slice(delta + 1);
}

/** Starts a server that speaks `format`. Vendor factories (`createOpenRouterTestServer`, …) call this. */
export async function startTestServer(format: VendorFormat, options: TestServerOptions = {}): Promise<TestServer> {
  const queue: TestResponse[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let maxInFlight = 0;
  let hugeBytesSent = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const path = req.url ?? '/';
    // Routed on the path alone, as real servers do; the recorded path keeps the query string (a base URL's `?key=`).
    const route = format.route({ method: req.method ?? 'GET', path: path.split('?')[0] ?? path, body });
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      body,
      stream: route?.stream ?? false,
      model: route?.model,
    };
    requests.push(recorded);
    if (!route) {
      sendJson(res, {
        status: 404,
        body: format.errorBody({ kind: 'error', status: 404, message: `No route for ${req.method ?? 'GET'} ${path}` }),
      });
      return;
    }
    if (options.apiKey !== undefined) {
      const received = format.apiKey(recorded.headers);
      if (received !== options.apiKey) {
        const auth = format.authError(received);
        sendJson(res, { status: auth.status, body: format.errorBody(auth) });
        return;
      }
    }
    const response = queue.shift() ?? options.respond?.(recorded) ?? { kind: 'text', text: 'ok' };
    // Whether the answer is an event stream: what the request asked, unless the server ignores that.
    const streaming = recorded.stream && options.ignoreStream !== true;
    switch (response.kind) {
      case 'text': {
        if (response.delayMs) await sleep(response.delayMs);
        if (!streaming) {
          sendJson(res, {
            status: 200,
            body: format.json(response, recorded),
            ...(response.headers ? { headers: response.headers } : {}),
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...response.headers });
        let first = true;
        for (const event of format.stream(response, recorded)) {
          if (!first && response.chunkDelayMs) await sleep(response.chunkDelayMs);
          first = false;
          if (res.destroyed) return;
          res.write(event.startsWith('event:') || event.startsWith(':') ? event : `data: ${event}\n\n`);
        }
        if (response.midStreamError) {
          const error = format.streamError(response.midStreamError);
          res.write(error.startsWith('event:') ? error : `data: ${error}\n\n`);
        }
        res.end();
        return;
      }
      case 'error': {
        const errorBody = format.errorBody(response);
        sendJson(res, {
          status: response.inBody ? 200 : response.status,
          body: errorBody,
          ...(response.headers ? { headers: response.headers } : {}),
        });
        return;
      }
      case 'raw':
        res.writeHead(response.status ?? 200, { 'content-type': 'application/json', ...response.headers });
        res.end(response.body);
        return;
      case 'hang':
        if (response.beforeHeaders) return;
        res.writeHead(200, { 'content-type': streaming ? 'text/event-stream' : 'application/json' });
        res.flushHeaders();
        if (response.partial) res.write(response.partial);
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'huge': {
        res.writeHead(200, { 'content-type': streaming ? 'text/event-stream' : 'application/json' });
        for (const piece of hugePieces(format, { response, request: recorded, streaming })) {
          if (!(await writeWithBackpressure(res, piece))) return;
          hugeBytesSent += Buffer.byteLength(piece);
        }
        res.end();
        return;
      }
      case 'truncated':
        res.writeHead(200, {
          'content-type': streaming ? 'text/event-stream' : 'application/json',
          'content-length': Buffer.byteLength(response.body) + 100,
        });
        res.write(response.body, () => setTimeout(() => req.socket.destroy(), 5));
        return;
    }
  };

  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    const done = (): void => {
      if (counted) inFlight--;
      counted = false;
    };
    res.on('close', done);
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, { status: 500, body: { error: { message: `test server failed: ${String(error)}` } } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${format.basePath}`,
    origin,
    requests,
    enqueue: (...responses) => void queue.push(...responses),
    reset() {
      queue.length = 0;
      requests.length = 0;
      maxInFlight = inFlight;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get hugeBytesSent() {
      return hugeBytesSent;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
