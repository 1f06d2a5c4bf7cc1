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
import { argText, parseDollarOption, parseIntegerOption, parseListOption, parseStringOption } from '../parse-option.js';
import type { EvalCommandOptions } from './eval-command.js';

export const evalCliCommand: CliCommand<EvalCommandOptions> = {
  name: 'eval',
  args: '<dataset>',
  description:
    "Are your judges right? Run a council on a golden dataset (.jsonl or .csv) and report accuracy, agreement with people's preferences and scores, and measured bias side by side, with 95% intervals; resumable",
  options: [
    ...councilMemberOptions,
    { flags: '--order <mode>', description: 'shared, per-reviewer or latin-square' },
    {
      flags: '--seed <n>',
      description:
        'Seed the orders and labels of every session (default: LLM_COUNCIL_RANDOM_SEED, as batch), the judges’ answer orders and the report’s resampling (default 1)',
    },
    ...councilCallOptions,
    ...councilStageOptions,
    {
      flags: '--max-cost <usd>',
      description:
        'A cost cap for each item in US dollars, covering every call it makes: its session stops before a stage, and the grader’s and judges’ calls are not made, once the estimated cost would pass this (default: config.yaml max_cost_usd, none)',
    },
    { flags: '--concurrency <n>', description: 'Items in flight at once (default 2)' },
    batchEndpointConcurrencyOption,
    {
      flags: '--grader <model>',
      description: 'The model that judges answers of items with only a reference answer (default: the chairman)',
    },
    {
      flags: '--output <file>',
      description:
        'The run’s journal, one JSON line per item (default <dataset>.eval.jsonl; with --demo, in the demo’s home)',
    },
    {
      flags: '--sessions <ids>',
      description:
        'Take these sessions from the history (comma-separated ids) for the items whose questions they answered, instead of running a council for them',
    },
    {
      flags: '--resume',
      description: 'Continue the journal: run only the items not done (or just report a finished run)',
    },
    {
      flags: '--demo',
      description:
        'Offline, no key: the demo’s simulated members in a temporary home (or --home); shows how the report reads',
    },
    {
      flags: '--bootstrap <n>',
      description:
        'Resamples of the bootstrap intervals (ρ, α) and draws for the council-against-best-member interval (default 2000)',
    },
    ...councilSaveOptions,
    {
      flags: '--both-orders',
      description:
        'Show each human-preference pair both ways round (two reviews): a choice that changes with the order counts as a tie, and each judge’s position consistency is reported',
    },
    { flags: '--json', description: 'Print the report as one JSON document' },
    { flags: '--html <file>', description: 'Also write the report as a self-contained HTML page (charts, no script)' },
  ],
  examples: [
    'council eval examples/eval/questions.jsonl --demo --html eval.html',
    'council eval golden.jsonl --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001 --concurrency 4',
    'council eval golden.csv --resume --json > eval.json',
    'council eval golden.jsonl --sessions 3f2a9c1e,9b7d0e42',
  ],
  parse: ({ args, options: o }) => ({
    file: argText(args[0]) ?? '',
    ...parseCouncilRunFlags(o),
    concurrency: parseIntegerOption('concurrency', o['concurrency'], { min: 1, max: 64 }),
    endpointConcurrency: parseEndpointConcurrency('endpoint-concurrency', o['endpointConcurrency']),
    output: parseStringOption('output', o['output']),
    grader: parseStringOption('grader', o['grader']),
    sessions: parseListOption('sessions', o['sessions']),
    html: parseStringOption('html', o['html']),
    bothOrders: o['bothOrders'] === true,
    resume: o['resume'] === true,
    demo: o['demo'] === true,
    bootstrap: parseIntegerOption('bootstrap', o['bootstrap'], { min: 0, max: 100_000 }),
    maxCostUsd: parseDollarOption('max-cost', o['maxCost']),
  }),
  run: async (options, ctx) => (await import('./eval-command.js')).runEvalCommand(options, ctx),
};
