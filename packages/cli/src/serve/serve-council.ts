import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { CliError } from '../cli-error.js';
import { DEFAULT_SERVER_LIMITS, httpServerOptions, shedIdleConnections } from '../mcp/server-limits.js';
import type { ServerLimits } from '../mcp/server-limits.js';
import type { CommandContext } from '../command-context.js';
import type { AskHooks } from '../commands/ask-command.js';
import { omitUndefined } from '../omit-undefined.js';
import { createServeApp } from './create-serve-app.js';
import type { WebAsset } from './web-assets.js';
import { createSessionHub } from './session-hub.js';
import type { SessionHub } from './session-hub.js';

export interface ServeCouncilOptions {
  ctx: CommandContext;
  host: string;
  port: number;
  token: string;
  demo: boolean;
  /** Passed to every session (the demo's simulated personas). */
  hooks?: Pick<AskHooks, 'simulated'>;
  assets: readonly WebAsset[] | null;
  /** The server's log: one line per session and per failed request, never a query or a key. */
  log: (line: string) => void;
  /** Finished runs whose event logs are kept. Default 100. */
  keepFinished?: number;
  /** Timeouts and the connection cap (default `DEFAULT_SERVER_LIMITS`); tests shorten them. */
  limits?: Partial<ServerLimits>;
}

export interface CouncilServer {
  /** The base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  hub: SessionHub;
  /** Stops accepting, cancels running sessions (their streams end with `cancelled` and `done`), closes every connection. */
  close(): Promise<void>;
}

/** `council serve`'s HTTP server (Hono on node:http) bound to `host:port`. */
export async function serveCouncil(options: ServeCouncilOptions): Promise<CouncilServer> {
  const hub = createSessionHub({
    ctx: options.ctx,
    log: options.log,
    ...omitUndefined({ hooks: options.hooks, keepFinished: options.keepFinished }),
  });
  let port = options.port;
  const app = createServeApp({
    hub,
    ctx: options.ctx,
    host: options.host,
    port: () => port,
    token: options.token,
    demo: options.demo,
    assets: options.assets,
    log: options.log,
  });
  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const server = createAdaptorServer({
    fetch: app.fetch,
    hostname: options.host,
    serverOptions: httpServerOptions(limits),
  }) as Server;
  shedIdleConnections(server, { limits, log: options.log });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${options.port} is in use: choose another with --port, or --port 0 for a free one`
          : error.code === 'EADDRNOTAVAIL'
            ? `${options.host} is no address of this machine`
            : `${error.code ?? error.message}`;
      reject(
        new CliError({
          code: 'RUNTIME',
          message: `council serve cannot listen on ${options.host}:${options.port}: ${why}.`,
          cause: error,
        }),
      );
    });
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    hub,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await hub.close();
      // The streams end after `done`; give them a moment to flush, then close whatever is left.
      await new Promise((resolve) => setTimeout(resolve, 50));
      server.closeAllConnections();
      await closed;
    },
  };
}
