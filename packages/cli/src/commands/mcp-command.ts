import { CliError } from '../cli-error.js';
import { commandSettings } from '../command-context.js';
import type { CommandContext } from '../command-context.js';
import { checkedServerToken, refuseWildcardHost } from '../local-server-token.js';
import { createCouncilMcpServer } from '../mcp/create-council-mcp-server.js';
import { StdioLineTransport } from '../mcp/stdio-line-transport.js';
import type { McpLog } from '../mcp/tool-context.js';
import { readTokenFile } from '../token-file.js';
import { waitForSignal } from '../wait-for-signal.js';

export interface McpCommandOptions {
  /** Serve the streamable HTTP transport instead of stdio. */
  http: boolean;
  /** With `http`: the port; default 0 (a free one). */
  port?: number;
  /** With `http`: the address to bind; default 127.0.0.1. */
  host?: string;
  /** With `http`: the bearer token clients must send; default `LLM_COUNCIL_MCP_TOKEN`, else a random one per launch. */
  token?: string;
  /** With `http`: a file holding the token (so it is not in argv, visible to `ps` and shell history). */
  tokenFile?: string;
}

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

/** The token given by `--token`, `--token-file` or `LLM_COUNCIL_MCP_TOKEN` (in that order), with where it came from. */
function givenToken(options: McpCommandOptions, ctx: CommandContext): { token: string; source: string } | undefined {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw usage('--token and --token-file both give the token: give one of them.');
  if (options.token !== undefined) return { token: options.token, source: '--token' };
  if (options.tokenFile !== undefined) return readTokenFile(options.tokenFile);
  const fromEnv = commandSettings(ctx).secrets.mcpToken;
  return fromEnv === null ? undefined : { token: fromEnv, source: 'LLM_COUNCIL_MCP_TOKEN' };
}

/** Sends anything a dependency prints with `console` to the log: on stdio, stdout carries protocol messages only. */
function consoleToLog(log: McpLog): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
  const write = (...parts: unknown[]): void => log(parts.map(String).join(' '));
  Object.assign(console, { log: write, info: write, debug: write, warn: write });
  return () => void Object.assign(console, saved);
}

async function serveHttp(options: McpCommandOptions, ctx: CommandContext, log: McpLog): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  refuseWildcardHost(host);
  const given = givenToken(options, ctx);
  const token = checkedServerToken({ host, given, ways: 'LLM_COUNCIL_MCP_TOKEN, --token-file or --token' });
  // Loaded only here: the HTTP transport (and the server library under it) is no part of a stdio start.
  const { serveMcpHttp } = await import('../mcp/serve-mcp-http.js');
  const server = await serveMcpHttp({
    createServer: () => createCouncilMcpServer({ ctx, log }),
    host: host === 'localhost' ? '127.0.0.1' : host,
    port: options.port ?? 0,
    token,
    log,
  });
  log(`streamable HTTP on ${server.url}`);
  if (given === undefined) log(`token for this launch (send it as "Authorization: Bearer <token>"): ${token}`);
  const signal = await waitForSignal();
  log(`${signal}: stopping`);
  await server.close();
  return 0;
}

async function serveStdio(ctx: CommandContext, log: McpLog): Promise<number> {
  const server = createCouncilMcpServer({ ctx, log });
  // Not the SDK's StdioServerTransport: that one closes on a message over 10 MiB (and the process exits 13, with
  // no answer and no log line) and leaves a line that is not JSON unanswered. This one answers both and serves on.
  const transport = new StdioLineTransport({ log });
  // The client closing stdin ends the server; a council still running is aborted and saves nothing.
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  log('serving on stdio (tools: consult_council, bias_report, leaderboard, get_session, list_sessions)');
  await ended;
  await server.close();
  return 0;
}

/** `council mcp`: the council as a Model Context Protocol server, on stdio (default) or `--http`. */
export async function runMcpCommand(options: McpCommandOptions, ctx: CommandContext): Promise<number> {
  const log: McpLog = (line) => ctx.io.stderr(`council mcp: ${line}\n`);
  const restore = consoleToLog(log);
  try {
    return options.http ? await serveHttp(options, ctx, log) : await serveStdio(ctx, log);
  } finally {
    restore();
  }
}
