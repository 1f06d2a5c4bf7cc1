import type { CliCommand } from '../cli-command.js';
import { parseIntegerOption, parseStringOption } from '../parse-option.js';
import type { ServeCommandOptions } from './serve-command.js';

export const serveCliCommand: CliCommand<ServeCommandOptions> = {
  name: 'serve',
  description: 'The chat, history and dashboard in your browser: a local web UI and JSON API with live session events',
  options: [
    { flags: '--port <n>', description: 'The port (default: a free one)' },
    {
      flags: '--host <address>',
      description:
        'The one address to bind (default 127.0.0.1; another needs --token or --token-file of 32+ characters; not 0.0.0.0 or ::)',
    },
    {
      flags: '--token <secret>',
      description:
        'The bearer token the page and API clients send (default: a random one per launch, printed in the URL)',
    },
    {
      flags: '--token-file <path>',
      description: 'Read the token from this file (keeps it out of ps and shell history)',
    },
    { flags: '--open', description: 'Open the page in the default browser' },
    {
      flags: '--demo',
      description:
        'Offline: sessions on the simulated personas of council demo, saved under a temporary home (or --home); a home without sessions starts with the 41 of council demo',
    },
  ],
  examples: [
    'council serve --demo --open',
    'council serve --port 8787',
    'council serve --host 192.168.1.20 --token-file ~/.council-serve-token',
  ],
  parse: ({ options: o }) => ({
    port: parseIntegerOption('port', o['port'], { min: 0, max: 65535 }),
    host: parseStringOption('host', o['host']),
    token: parseStringOption('token', o['token']),
    tokenFile: parseStringOption('token-file', o['tokenFile']),
    open: o['open'] === true,
    demo: o['demo'] === true,
  }),
  run: async (options, ctx) => (await import('./serve-command.js')).runServeCommand(options, ctx),
};
