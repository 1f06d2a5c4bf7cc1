import type { CliCommand } from '../cli-command.js';
import { parseChoiceOption, parseIntegerOption } from '../parse-option.js';
import type { LeaderboardCommandOptions } from './leaderboard-command.js';

export const leaderboardCliCommand: CliCommand<LeaderboardCommandOptions> = {
  name: 'leaderboard',
  description: 'Cross-query standings from the history: mean Borda and Bradley–Terry ratings with intervals',
  options: [
    { flags: '--days <n>', description: 'Only sessions of the last n days' },
    {
      flags: '--category <name>',
      description: 'Only sessions of this query category (coding, math, writing, analysis, general)',
    },
    { flags: '--by-category', description: 'One table per category' },
    {
      flags: '--calibrated',
      description:
        "Also the scores' leaderboard with each reviewer's offset and the position effects taken out beside the raw one, how many independent judges the reviewers are worth, and Bradley–Terry with length and style as covariates (analytics only)",
    },
    { flags: '--json', description: 'Print one JSON document' },
  ],
  examples: [
    'council leaderboard',
    'council leaderboard --days 7 --by-category',
    'council leaderboard --category coding --json',
    'council leaderboard --calibrated',
  ],
  parse: ({ options: o }) => ({
    days: parseIntegerOption('days', o['days'], { min: 1 }),
    // The categories of @council/bias-store's detectQueryCategory (written out here to keep startup light).
    category: parseChoiceOption('category', o['category'], [
      'coding',
      'math',
      'writing',
      'analysis',
      'general',
    ] as const),
    byCategory: o['byCategory'] === true,
    calibrated: o['calibrated'] === true,
    json: o['json'] === true,
  }),
  run: async (options, ctx) => (await import('./leaderboard-command.js')).runLeaderboardCommand(options, ctx),
};
