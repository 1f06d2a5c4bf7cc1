import type { CliCommand } from '../cli-command.js';
import { argText, parseIntegerOption } from '../parse-option.js';
import type { HistoryCommandOptions } from './history-command.js';

export const historyCliCommand: CliCommand<HistoryCommandOptions> = {
  name: 'history',
  args: '<action> [id]',
  description: 'List past sessions (list), show one (show <id>), each reviewer\'s self-consistency on identical answers (consistency) or style mimicry (mimicry); the query text is never stored',
  options: [
    { flags: '--limit <n>', description: 'list: the most recent n sessions (default 20)' },
    { flags: '--json', description: 'Print JSON' },
  ],
  examples: ['council history list', 'council history show 3f2a9c1e', 'council history consistency --json', 'council history mimicry'],
  parse: ({ args, options: o }) => ({
    action: argText(args[0]),
    id: argText(args[1]),
    limit: parseIntegerOption('limit', o['limit'], { min: 1 }),
    json: o['json'] === true,
  }),
  run: async (options, ctx) => (await import('./history-command.js')).runHistoryCommand(options, ctx),
};
