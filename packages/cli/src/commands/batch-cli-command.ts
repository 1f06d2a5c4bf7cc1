import type { CliCommand } from '../cli-command.js';
import {
  batchEndpointConcurrencyOption,
  councilCallOptions,
  councilMemberOptions,
  councilSaveOptions,
  councilStageOptions,
  parseCouncilRunFlags,
  parseEndpointConcurrency,
} from '../parse-council-run-flags.js';
import { argText, parseDollarOption, parseIntegerOption, parseStringOption } from '../parse-option.js';
import { evidenceOptions, parseVerdictFlags, verdictOptions } from '../verdict-flags.js';
import type { BatchCommandOptions } from './batch-command.js';

export const batchCliCommand: CliCommand<BatchCommandOptions> = {
  name: 'batch',
  args: '<file>',
  description: 'Run many sessions from a prompts file (.txt: one per line; .jsonl: {"prompt": …}), resumable',
  options: [
    ...councilMemberOptions,
    { flags: '--order <mode>', description: 'shared, per-reviewer or latin-square' },
    { flags: '--seed <n>', description: 'Seed the orders and labels of every session' },
    ...councilCallOptions,
    ...councilStageOptions,
    {
      flags: '--max-cost <usd>',
      description:
        'A cost cap for each session in US dollars: stop it before a stage whose estimated cost would pass this, keeping what finished (default: config.yaml max_cost_usd, none)',
    },
    { flags: '--concurrency <n>', description: 'Sessions in flight at once (default 2)' },
    batchEndpointConcurrencyOption,
    { flags: '--output <file>', description: 'Results file, one JSON line per prompt (default <file>.results.jsonl)' },
    { flags: '--resume', description: 'Skip prompts already completed in the results file' },
    ...verdictOptions,
    ...evidenceOptions,
    ...councilSaveOptions,
    { flags: '--json', description: 'Print the summary and leaderboard as one JSON document' },
  ],
  examples: [
    'council batch prompts.txt --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001',
    'council batch prompts.jsonl --concurrency 4 --resume',
    'council batch checks.txt --verdict binary --evidence design.md',
  ],
  parse: ({ args, options: o }) => ({
    file: argText(args[0]) ?? '',
    ...parseCouncilRunFlags(o),
    ...parseVerdictFlags(o),
    concurrency: parseIntegerOption('concurrency', o['concurrency'], { min: 1, max: 64 }),
    endpointConcurrency: parseEndpointConcurrency('endpoint-concurrency', o['endpointConcurrency']),
    output: parseStringOption('output', o['output']),
    resume: o['resume'] === true,
    maxCostUsd: parseDollarOption('max-cost', o['maxCost']),
  }),
  run: async (options, ctx) => (await import('./batch-command.js')).runBatchCommand(options, ctx),
};
