import type { CliCommand } from '../cli-command.js';
import { parseIntegerOption, parseStringOption } from '../parse-option.js';
import type { McpCommandOptions } from './mcp-command.js';

export const mcpCliCommand: CliCommand<McpCommandOptions> = {
  name: 'mcp',
  description: 'Serve the council to MCP clients (coding agents, desktop assistants): consult_council and the reports, on stdio',
  options: [
    { flags: '--http', description: 'Serve the streamable HTTP transport on 127.0.0.1 instead of stdio (a per-launch token, printed on stderr)' },
    { flags: '--port <n>', description: 'With --http: the port (default: a free one)' },
    { flags: '--host <address>', description: 'With --http: the address to bind (default 127.0.0.1; another needs --token)' },
    { flags: '--token <secret>', description: 'With --http: the bearer token clients must send (default: a random one per launch)' },
  ],
  examples: ['council mcp', 'council mcp --http --port 8765'],
  parse: ({ options: o }) => {
    const http = o['http'] === true;
    return {
      http,
      port: parseIntegerOption('port', o['port'], { min: 0, max: 65535 }),
      host: parseStringOption('host', o['host']),
      token: parseStringOption('token', o['token']),
    };
  },
  run: async (options, ctx) => (await import('./mcp-command.js')).runMcpCommand(options, ctx),
};
