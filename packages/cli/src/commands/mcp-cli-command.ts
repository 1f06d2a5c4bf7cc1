import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { parseIntegerOption, parseStringOption } from '../parse-option.js';
import type { McpCommandOptions } from './mcp-command.js';

const httpOnly = [
  ['port', 'port'],
  ['host', 'host'],
  ['token', 'token'],
  ['token-file', 'tokenFile'],
] as const;

export const mcpCliCommand: CliCommand<McpCommandOptions> = {
  name: 'mcp',
  description:
    'Serve the council to MCP clients (coding agents, desktop assistants): consult_council and the reports, on stdio',
  options: [
    {
      flags: '--http',
      description:
        'Serve the streamable HTTP transport on 127.0.0.1 instead of stdio (a per-launch token, printed on stderr)',
    },
    { flags: '--port <n>', description: 'With --http: the port (default: a free one)' },
    {
      flags: '--host <address>',
      description:
        'With --http: the one address to bind (default 127.0.0.1; another needs a token of 32+ characters; not 0.0.0.0 or ::)',
    },
    {
      flags: '--token <secret>',
      description:
        'With --http: the bearer token clients must send (default: LLM_COUNCIL_MCP_TOKEN, else a random one per launch)',
    },
    {
      flags: '--token-file <path>',
      description: 'With --http: read the token from this file (keeps it out of ps and shell history)',
    },
  ],
  examples: ['council mcp', 'council mcp --http --port 8765'],
  parse: ({ options: o }) => {
    const http = o['http'] === true;
    const stray = httpOnly.find(([, key]) => o[key] !== undefined);
    if (!http && stray !== undefined)
      throw new CliError({
        code: 'USAGE',
        message: `--${stray[0]} needs --http: without it council mcp serves stdio, which has no port, host or token.`,
      });
    return {
      http,
      port: parseIntegerOption('port', o['port'], { min: 0, max: 65535 }),
      host: parseStringOption('host', o['host']),
      token: parseStringOption('token', o['token']),
      tokenFile: parseStringOption('token-file', o['tokenFile']),
    };
  },
  run: async (options, ctx) => (await import('./mcp-command.js')).runMcpCommand(options, ctx),
};
