import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import {
  parseChoiceOption,
  parseIntegerOption,
  parseRepeatedStringOption,
  parseStringOption,
} from '../parse-option.js';
import type { BiasReportCommandOptions, BiasReportFormat } from './bias-report-command.js';
import { biasReportEngines } from './bias-report-engine.js';

/** `--resamples n`: 0 (the asymptotic Wald F test) or at least 20 permutations, as `aggregateBiasAudit` takes them. */
function parseResamplesOption(value: unknown): number | undefined {
  const n = parseIntegerOption('resamples', value, { min: 0 });
  if (n !== undefined && n > 0 && n < 20) {
    throw new CliError({
      code: 'USAGE',
      message: `--resamples must be 0 (the asymptotic Wald F test) or at least 20 permutations, got ${n}.`,
    });
  }
  return n;
}

/** `--format`, or `--json` for `--format json`; both naming different formats is a usage error. */
function parseFormatOption(o: Readonly<Record<string, unknown>>): BiasReportFormat | undefined {
  const format = parseChoiceOption('format', o['format'], ['text', 'json', 'csv', 'html'] as const);
  if (o['json'] !== true) return format;
  if (format !== undefined && format !== 'json')
    throw new CliError({
      code: 'USAGE',
      message: `--json asks for JSON but --format asks for ${format}; give one of them.`,
    });
  return 'json';
}

export const biasReportCliCommand: CliCommand<BiasReportCommandOptions> = {
  name: 'bias-report',
  description: 'The cross-session bias report: tiered text, JSON, CSV or a self-contained HTML page',
  options: [
    {
      flags: '--input <path>',
      description:
        'A bias store file, a Parquet file or directory written by council store export, a directory of stores, or a quoted glob; repeat to merge stores by session (default LLM_COUNCIL_BIAS_STORE or $LLM_COUNCIL_HOME/bias_metrics.jsonl)',
    },
    {
      flags: '--sessions <n>',
      description: 'Use the most recent n sessions (default LLM_COUNCIL_BIAS_WINDOW_SESSIONS, 100)',
    },
    { flags: '--days <n>', description: 'Use sessions of the last n days (default LLM_COUNCIL_BIAS_WINDOW_DAYS, 30)' },
    { flags: '--format <format>', description: 'text, json, csv or html (default text)' },
    { flags: '--json', description: 'The same as --format json' },
    { flags: '--output <file>', description: 'Write the report to a file instead of stdout' },
    { flags: '--config-version <v>', description: 'Only records of this council configuration version' },
    { flags: '--model <id>', description: 'Only records where this model reviewed or was reviewed' },
    { flags: '--now <time>', description: 'End of the window, ISO 8601 (default now): for reproducible reports' },
    {
      flags: '--resamples <n>',
      description:
        'Most permutations per position test: 0 for the asymptotic Wald F test, else at least 20; the test stops early once 10 are as extreme as the observed order (default 1000 below 100 sessions, else 0)',
    },
    { flags: '--seed <n>', description: 'Seed of the permutations (default 1): the same records give the same report' },
    {
      flags: '--engine <engine>',
      description:
        'What reads, checks and windows the records: embedded (default), duckdb (SQL in DuckDB over the same --input files; needs @duckdb/node-api) or clickhouse (SQL on --url, over the table store export --to clickhouse fills); the same report',
    },
    {
      flags: '--url <url>',
      description: "--engine clickhouse: the server's HTTP interface, e.g. http://127.0.0.1:8123",
    },
    {
      flags: '--table <name>',
      description: '--engine clickhouse: the records table, [database.]name (default council_bias_records)',
    },
    {
      flags: '--calibrated',
      description:
        'Also the calibrated leaderboard (reviewer offsets and position effects taken out), how many independent judges the reviewers are worth, offsets pooled toward the typical reviewer and length-controlled Bradley–Terry ratings; analytics only (bootstraps: slower)',
    },
  ],
  examples: [
    'council bias-report',
    'council bias-report --sessions 50 --verbose',
    'council bias-report --format html --output bias-report.html',
    'council bias-report --calibrated',
    'council bias-report --input ./logs.jsonl --json > report.json',
    "council bias-report --input alice/bias_metrics.jsonl --input 'team/*.jsonl.gz'",
    'council bias-report --engine duckdb --input ./bias-export --sessions 1000000 --days 365',
    'council bias-report --engine clickhouse --url http://127.0.0.1:8123 --json',
  ],
  parse: ({ options: o }) => ({
    input: parseRepeatedStringOption('input', o['input']),
    sessions: parseIntegerOption('sessions', o['sessions'], { min: 1 }),
    days: parseIntegerOption('days', o['days'], { min: 1 }),
    format: parseFormatOption(o),
    output: parseStringOption('output', o['output']),
    verbose: o['verbose'] === true,
    // A version such as 1.10 or 1.0 stays text: run-cli hands every value option over as typed.
    configVersion: parseStringOption('config-version', o['configVersion']),
    model: parseStringOption('model', o['model']),
    now: parseStringOption('now', o['now']),
    resamples: parseResamplesOption(o['resamples']),
    seed: parseIntegerOption('seed', o['seed'], { min: 0 }),
    engine: parseChoiceOption('engine', o['engine'], biasReportEngines),
    url: parseStringOption('url', o['url']),
    table: parseStringOption('table', o['table']),
    calibrated: o['calibrated'] === true,
  }),
  run: async (options, ctx) => (await import('./bias-report-command.js')).runBiasReportCommand(options, ctx),
};
