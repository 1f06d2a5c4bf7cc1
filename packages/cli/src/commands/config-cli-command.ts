import type { CliCommand } from '../cli-command.js';
import { argText } from '../parse-option.js';
import type { ConfigCommandOptions } from './config-command.js';

export const configCliCommand: CliCommand<ConfigCommandOptions> = {
  name: 'config',
  args: '[action]',
  actions: ['show', 'path', 'init'],
  description:
    'Show the settings in effect (show, the default), where Council keeps its files (path), or write a commented config.yaml (init)',
  options: [
    { flags: '--json', description: 'Print one JSON document' },
    {
      flags: '--bias-records',
      description:
        'init: turn bias records on in the file written (bias_persistence: true), for council bias-report and council contributions',
    },
  ],
  examples: [
    'council config show',
    'council config path',
    'council config show --json',
    'council config init',
    'council config init --bias-records',
  ],
  parse: ({ args, options: o }) => ({
    action: argText(args[0]),
    json: o['json'] === true,
    biasRecords: o['biasRecords'] === true,
  }),
  run: async (options, ctx) => (await import('./config-command.js')).runConfigCommand(options, ctx),
};
