import type { CliCommand } from '../cli-command.js';
import { argText, parseIntegerOption } from '../parse-option.js';
import { parseShowOption } from '../session-show.js';
import type { HistoryCommandOptions } from './history-command.js';

export const historyCliCommand: CliCommand<HistoryCommandOptions> = {
  name: 'history',
  args: '[action] [id]',
  actions: ['list', 'search', 'show', 'consistency', 'mimicry'],
  description:
    "List past sessions by their questions, follow-ups under their conversation (list, the default), find some (search <text>), show one (show <id|last>), each reviewer's self-consistency on identical answers (consistency) or style mimicry (mimicry). The question is kept in this local history only (history_questions: false in config.yaml keeps none)",
  options: [
    { flags: '--limit <n>', description: 'list, search: the most recent n sessions (default 20)' },
    {
      flags: '--show <what>',
      description:
        "show: answers (the default: each member's stored answer, Markdown rendered on a colour terminal), reviews (each reviewer's scores, critiques and ranking), all, or none; a comma list works",
    },
    { flags: '--json', description: 'Print JSON' },
  ],
  examples: [
    'council history',
    'council history search "legacy module"',
    'council history show last',
    'council history show 3f2a9c1e',
    'council history show 3f2a9c1e --show all',
    'council history consistency --json',
    'council history mimicry',
  ],
  parse: ({ args, options: o }) => ({
    action: argText(args[0]),
    id: argText(args[1]),
    limit: parseIntegerOption('limit', o['limit'], { min: 1 }),
    json: o['json'] === true,
    show: parseShowOption(o['show']),
  }),
  run: async (options, ctx) => (await import('./history-command.js')).runHistoryCommand(options, ctx),
};
