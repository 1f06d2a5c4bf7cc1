import type { CliCommand } from '../cli-command.js';
import { parseIntegerOption, parseStringOption } from '../parse-option.js';
import type { ContributionsCommandOptions } from './contributions-command.js';

export const contributionsCliCommand: CliCommand<ContributionsCommandOptions> = {
  name: 'contributions',
  description:
    "Who the chairmen credit: each member's influence share on the synthesis with its interval, beside its vote wins",
  options: [
    { flags: '--last <n>', description: 'Only the most recent n sessions' },
    { flags: '--since <time>', description: 'Only sessions at or after this ISO 8601 date or time' },
    { flags: '--json', description: 'Print one JSON document' },
  ],
  examples: [
    'council contributions',
    'council contributions --last 50',
    'council contributions --since 2026-11-01 --json',
  ],
  parse: ({ options: o }) => ({
    last: parseIntegerOption('last', o['last'], { min: 1 }),
    since: parseStringOption('since', o['since']),
    json: o['json'] === true,
  }),
  run: async (options, ctx) => (await import('./contributions-command.js')).runContributionsCommand(options, ctx),
};
