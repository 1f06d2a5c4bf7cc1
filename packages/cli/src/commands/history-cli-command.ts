import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { argText, parseIntegerOption } from '../parse-option.js';
import { parseShowOption } from '../session-show.js';
import type { HistoryCommandOptions } from './history-command.js';

export const historyCliCommand: CliCommand<HistoryCommandOptions> = {
  name: 'history',
  args: '[action] [...words]',
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
    id: historyTarget(argText(args[0]), args[1]),
    limit: parseIntegerOption('limit', o['limit'], { min: 1 }),
    json: o['json'] === true,
    show: parseShowOption(o['show']),
  }),
  run: async (options, ctx) => (await import('./history-command.js')).runHistoryCommand(options, ctx),
};

/** The words after the action: `search` takes them all as its text (quoted or not); any other action one id at most. */
function historyTarget(action: string | undefined, words: unknown): string | undefined {
  const list = Array.isArray(words) ? words.map((w) => argText(w)).filter((w): w is string => w !== undefined) : [];
  if (list.length === 0) return undefined;
  if (action === 'search') return list.join(' ');
  if (list.length > 1)
    throw new CliError({
      code: 'USAGE',
      message: `history ${action ?? ''} takes one session id, not ${list.length} words ("${list.join(' ')}"). Run "council history --help".`,
    });
  return list[0];
}
