import type { CliCommand } from '../cli-command.js';
import type { ModelsCommandOptions } from './models-command.js';

export const modelsCliCommand: CliCommand<ModelsCommandOptions> = {
  name: 'models',
  description:
    'List the configured council: members, chairman, pools (@name), personalities and per-model options, and which providers have a key',
  options: [{ flags: '--json', description: 'Print one JSON document' }],
  examples: ['council models', 'council models --json'],
  parse: ({ options: o }) => ({ json: o['json'] === true }),
  run: async (options, ctx) => (await import('./models-command.js')).runModelsCommand(options, ctx),
};
