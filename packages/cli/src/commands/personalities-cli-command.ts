import type { CliCommand } from '../cli-command.js';
import { argText, parseStringOption } from '../parse-option.js';
import type { PersonalitiesCommandOptions } from './personalities-command.js';

export const personalitiesCliCommand: CliCommand<PersonalitiesCommandOptions> = {
  name: 'personalities',
  args: '[action] [...ids]',
  actions: ['list', 'show', 'evolve'],
  description: 'List (the default), show or evolve the YAML personalities in $LLM_COUNCIL_HOME/personalities',
  options: [
    { flags: '--model <id>', description: "evolve: the model that designs the offspring (default the first parent's)" },
    { flags: '--save', description: 'evolve: save the offspring as personalities/<id>.yaml (never overwrites)' },
    { flags: '--json', description: 'Print JSON' },
  ],
  examples: [
    'council personalities list',
    'council personalities show careful-engineer',
    'council personalities evolve careful-engineer bold-architect --save',
  ],
  parse: ({ args, options: o }) => {
    const ids = args[1];
    return {
      // `council personalities` alone lists them, as `council history` alone does.
      action: argText(args[0]) ?? 'list',
      ids: Array.isArray(ids) ? ids.map((x) => argText(x) ?? '') : [],
      model: parseStringOption('model', o['model']),
      save: o['save'] === true,
      json: o['json'] === true,
    };
  },
  run: async (options, ctx) => (await import('./personalities-command.js')).runPersonalitiesCommand(options, ctx),
};
