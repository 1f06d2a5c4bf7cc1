import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CliError } from '../cli-error.js';
import { commandSettings } from '../command-context.js';
import type { CommandContext } from '../command-context.js';
import { createCouncilMcpServer } from '../mcp/create-council-mcp-server.js';
import type { McpLog } from '../mcp/tool-context.js';

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

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** The shortest token a server reachable from other machines accepts (a per-launch one is 32 characters). */
const MIN_REMOTE_TOKEN_LENGTH = 32;

function usage(message: string): CliError {
  return new CliError({ code: 'USAGE', message });
}

/** The token given by `--token`, `--token-file` or `LLM_COUNCIL_MCP_TOKEN` (in that order), with where it came from. */
function givenToken(options: McpCommandOptions, ctx: CommandContext): { token: string; source: string } | undefined {
  if (options.token !== undefined && options.tokenFile !== undefined) throw usage('--token and --token-file both give the token: give one of them.');
  if (options.token !== undefined) return { token: options.token, source: '--token' };
  if (options.tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.tokenFile, 'utf8');
    } catch (error) {
      throw usage(`--token-file ${options.tokenFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): give a readable file holding the token.`);
    }
    // A file written by `echo` ends with a newline: that is no part of the token.
    return { token: text.trim(), source: `--token-file ${options.tokenFile}` };
  }
  const fromEnv = commandSettings(ctx).secrets.mcpToken;
  return fromEnv === null ? undefined : { token: fromEnv, source: 'LLM_COUNCIL_MCP_TOKEN' };
}

/** `0.0.0.0`, `::` and the like: every interface, so no single address a client's `Host` header could name. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || (isIP(host) === 6 && /^[0:]+$/.test(host));
}

/** The token clients must send, checked: visible ASCII (a bearer token cannot hold anything else), long enough off loopback. */
function checkedToken(host: string, given: { token: string; source: string } | undefined): string {
  if (given !== undefined && !/^[\x21-\x7e]+$/.test(given.token)) {
    throw usage(`The token from ${given.source} holds a character a bearer token cannot have (a space, a control character or a non-ASCII letter; it is not shown here), so no client could send it. Use letters, digits and punctuation only.`);
  }
  if (LOOPBACK.has(host)) return given?.token ?? randomBytes(24).toString('base64url');
  if (given === undefined) {
    throw usage(`--host ${host} is reachable from other machines: give a token of at least ${MIN_REMOTE_TOKEN_LENGTH} characters (LLM_COUNCIL_MCP_TOKEN, --token-file or --token), or keep the default 127.0.0.1.`);
  }
  if (given.token.length < MIN_REMOTE_TOKEN_LENGTH) {
    throw usage(`--host ${host} is reachable from other machines, and the token from ${given.source} has ${given.token.length} characters: give one of at least ${MIN_REMOTE_TOKEN_LENGTH} (e.g. from \`openssl rand -base64 32\`).`);
  }
  return given.token;
}

/** Sends anything a dependency prints with `console` to the log: on stdio, stdout carries protocol messages only. */
function consoleToLog(log: McpLog): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
  const write = (...parts: unknown[]): void => log(parts.map(String).join(' '));
  Object.assign(console, { log: write, info: write, debug: write, warn: write });
  return () => void Object.assign(console, saved);
}

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function serveHttp(options: McpCommandOptions, ctx: CommandContext, log: McpLog): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  if (isWildcard(host)) {
    throw usage(`--host ${host} binds every interface, and clients could only reach it under an address the server cannot check: give the one address clients use (e.g. --host 192.168.1.20).`);
  }
  const given = givenToken(options, ctx);
  const token = checkedToken(host, given);
  // Loaded only here: the HTTP transport (and the server library under it) is no part of a stdio start.
  const { serveMcpHttp } = await import('../mcp/serve-mcp-http.js');
  const server = await serveMcpHttp({ createServer: () => createCouncilMcpServer({ ctx, log }), host: host === 'localhost' ? '127.0.0.1' : host, port: options.port ?? 0, token, log });
  log(`streamable HTTP on ${server.url}`);
  if (given === undefined) log(`token for this launch (send it as "Authorization: Bearer <token>"): ${token}`);
  const signal = await waitForSignal();
  log(`${signal}: stopping`);
  await server.close();
  return 0;
}

async function serveStdio(ctx: CommandContext, log: McpLog): Promise<number> {
  const server = createCouncilMcpServer({ ctx, log });
  const transport = new StdioServerTransport();
  // The client closing stdin ends the server; a council still running is aborted and saves nothing.
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
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
