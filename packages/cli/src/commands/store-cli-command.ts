import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import {
  argText,
  parseChoiceOption,
  parseDurationOption,
  parseIntegerOption,
  parseRepeatedStringOption,
  parseStringOption,
} from '../parse-option.js';
import type { StoreCommandOptions } from './store-command.js';

/** `rowGroupRows` → `row-group-rows`: an option as the user typed it. */
const flagName = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Options another action takes are a usage error naming where they belong, not silently ignored. */
function refuseOptions(o: Readonly<Record<string, unknown>>, keys: readonly string[], here: string): void {
  for (const key of keys)
    if (o[key] !== undefined)
      throw new CliError({ code: 'USAGE', message: `--${flagName(key)} is not an option of council ${here}.` });
}

export const storeCliCommand: CliCommand<StoreCommandOptions> = {
  name: 'store',
  args: '[action]',
  actions: ['stats', 'compact', 'export', 'clickhouse-init'],
  description:
    'The bias store: what it holds (stats, the default), gzip its closed segments (compact), export it as Parquet or JSONL by day or into ClickHouse (export), or create the ClickHouse table (clickhouse-init); nothing is rewritten in place',
  options: [
    {
      flags: '--input <file>',
      description:
        "The store's .jsonl file (default LLM_COUNCIL_BIAS_STORE or $LLM_COUNCIL_HOME/bias_metrics.jsonl); export: also a directory of stores or a quoted glob, repeatable",
    },
    { flags: '--format <format>', description: 'export: parquet or jsonl' },
    {
      flags: '--output <dir>',
      description: 'export: the directory to write day=YYYY-MM-DD/part-0.<format> into (each partition replaced whole)',
    },
    { flags: '--row-group-rows <n>', description: 'export: rows per Parquet row group (default 100000)' },
    {
      flags: '--to <target>',
      description:
        'export: clickhouse, to load the records into a ClickHouse table instead of writing files (idempotent by record key)',
    },
    {
      flags: '--url <url>',
      description:
        "export --to clickhouse, clickhouse-init: the server's HTTP interface, e.g. http://127.0.0.1:8123 (credentials in it are never shown)",
    },
    {
      flags: '--table <name>',
      description: 'export --to clickhouse, clickhouse-init: the table, [database.]name (default council_bias_records)',
    },
    { flags: '--batch-rows <n>', description: 'export --to clickhouse: records per INSERT (default 50000)' },
    {
      flags: '--min-age <duration>',
      description:
        'compact: gzip only segments unchanged for this long, waiting for it after closing the active file (default 0: safe while councils run)',
    },
    { flags: '--json', description: 'Print one JSON document' },
  ],
  examples: [
    'council store stats',
    'council store compact',
    'council store stats --input ./bias_metrics.jsonl --json',
    'council store export --format parquet --output ./bias-export',
    'council store clickhouse-init --url http://127.0.0.1:8123',
    "council store export --to clickhouse --url http://127.0.0.1:8123 --input 'team/*.jsonl.gz'",
  ],
  parse: ({ args, options: o }) => {
    // 0 is a valid age here (compact at once), which parseDurationOption refuses as a timeout.
    const minAge = o['minAge'];
    const zero =
      (typeof minAge === 'string' || typeof minAge === 'number') && /^0+(\.0+)?(ms|s|m)?$/.test(String(minAge).trim());
    // `council store` alone says what the store holds, as `council history` alone lists.
    const action = argText(args[0]) ?? 'stats';
    const clickhouse = { url: parseStringOption('url', o['url']), table: parseStringOption('table', o['table']) };
    const to = parseChoiceOption('to', o['to'], ['clickhouse'] as const);
    if (action === 'clickhouse-init') {
      refuseOptions(o, ['format', 'output', 'rowGroupRows', 'to', 'batchRows', 'input'], 'store clickhouse-init');
      return { action, clickhouse, json: o['json'] === true };
    }
    if (action === 'export' && to !== undefined) {
      refuseOptions(o, ['format', 'output', 'rowGroupRows'], 'store export --to clickhouse (it writes no files)');
      return {
        action,
        to,
        clickhouse: {
          ...clickhouse,
          inputs: parseRepeatedStringOption('input', o['input']),
          batchRows: parseIntegerOption('batch-rows', o['batchRows'], { min: 1, max: 1_000_000 }),
        },
        json: o['json'] === true,
      };
    }
    refuseOptions(
      o,
      ['url', 'table', 'batchRows'],
      `store ${action}${action === 'export' ? ' without --to clickhouse' : ''}`,
    );
    if (action === 'export') {
      return {
        action,
        inputs: parseRepeatedStringOption('input', o['input']),
        format: parseChoiceOption('format', o['format'], ['parquet', 'jsonl'] as const),
        output: parseStringOption('output', o['output']),
        rowGroupRows: parseIntegerOption('row-group-rows', o['rowGroupRows'], { min: 1 }),
        json: o['json'] === true,
      };
    }
    for (const flag of ['format', 'output', 'rowGroupRows', 'to'] as const) {
      if (o[flag] !== undefined)
        throw new CliError({
          code: 'USAGE',
          message: `--${flagName(flag)} is an option of council store export, not of store ${action}.`,
        });
    }
    return {
      action,
      input: parseStringOption('input', o['input']),
      minAgeMs: zero ? 0 : parseDurationOption('min-age', minAge),
      json: o['json'] === true,
    };
  },
  run: async (options, ctx) => (await import('./store-command.js')).runStoreCommand(options, ctx),
};
