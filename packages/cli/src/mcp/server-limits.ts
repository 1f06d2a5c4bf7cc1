import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';

/**
 * What a local Council server (`council serve`, `council mcp --http`) holds for a client, and for how long. A
 * response in progress is never cut short: a stream of events lasts as long as its session (both servers send
 * a comment line every 15 s on a quiet stream).
 */
export interface ServerLimits {
  /**
   * A connection with no request in progress is closed after this long without a byte: before its first request
   * (a client that connects and sends nothing) and between requests (keep-alive; Node adds 1 s to this).
   */
  idleTimeoutMs: number;
  /** A request's line and headers must all arrive within this of its first byte, else 408 and the connection closes. */
  headersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this (at least `headersTimeoutMs`), else 408. Not the response. */
  requestTimeoutMs: number;
  /** Connections open at once. One more is refused: closed at once, unread (not queued), with one log line per episode. */
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  idleTimeoutMs: 10_000,
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  maxConnections: 256,
};

/**
 * The `node:http` server options that carry the limits. Node checks the header and request deadlines on a
 * timer; it runs four times per `headersTimeoutMs` (a request past its deadline is answered 408 within a
 * quarter of it), at most every 5 s.
 */
export function httpServerOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: Math.min(Math.max(Math.floor(limits.headersTimeoutMs / 4), 10), 5_000),
  };
}

/**
 * Makes `server` shed what it should not hold, beside `httpServerOptions`: a new connection is closed after
 * `idleTimeoutMs` without a byte until its first request arrives (Node itself only times out a request once it
 * has begun, so one that never begins would be held for ever); no idle timeout runs while a request is in
 * progress (its deadlines are Node's; its response may be a long stream); and connections past
 * `maxConnections` are refused. `log` gets one line when the cap is first reached and one when connections
 * are accepted again, with how many were refused in between.
 */
export function shedIdleConnections(
  server: Server,
  options: { limits: ServerLimits; log: (line: string) => void },
): void {
  const { limits, log } = options;
  server.maxConnections = limits.maxConnections;
  let open = 0;
  let refused = 0;
  server.on('connection', (socket) => {
    open += 1;
    socket.setTimeout(limits.idleTimeoutMs);
    socket.once('close', () => {
      open -= 1;
      if (refused > 0 && open < limits.maxConnections) {
        log(`accepting connections again; ${refused} refused while ${limits.maxConnections} were open`);
        refused = 0;
      }
    });
  });
  // Between the end of a response and the next request Node sets its own keep-alive timeout (`idleTimeoutMs`).
  server.on('request', (req) => void req.socket.setTimeout(0));
  server.on('drop', () => {
    if (refused === 0)
      log(
        `${limits.maxConnections} connections are open, the most this server holds: refusing new ones until some close (an idle one closes after ${limits.idleTimeoutMs / 1000} s)`,
      );
    refused += 1;
  });
}

/**
 * On a refusal (413, 401, 403…): the rest of the request's body is read and dropped, up to `maxBytes` more, and then
 * the connection is closed, once the answer has been written. Closing at once would leave the body unread, and the
 * reset that follows can reach a client still sending before it has read the answer; reading on without a bound is
 * what the limit is there to prevent. (A body that ends within the bound leaves the connection open for the next
 * request; a client that stops sending is closed by the request timeout.)
 */
export function dropRestOfBody(options: { req: IncomingMessage; res: ServerResponse; maxBytes: number }): void {
  const { req, res, maxBytes } = options;
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  const close = () => req.socket.destroy();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped <= maxBytes) return;
    req.pause();
    if (res.writableFinished) close();
    else res.once('finish', close);
  });
  req.on('error', () => undefined);
  req.resume();
}

/**
 * A request's body read whole; `tooLarge` as soon as more than `maxBytes` have arrived, or a longer one is declared,
 * without reading on (the refusal then drops at most as much again: `dropRestOfBody`); `gone` when the request ended
 * before its body did (the client left, or Node timed the request out and answered 408 itself).
 */
export function readLimitedBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'tooLarge' | 'gone'> {
  if (Number(req.headers['content-length'] ?? '0') > maxBytes) return Promise.resolve('tooLarge');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      resolve('tooLarge');
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve('gone'));
    req.on('close', () => resolve('gone'));
  });
}
