import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { argText, parseChoiceOption, parseDurationOption, parseIntegerOption, parseRepeatedStringOption, parseStringOption } from '../parse-option.js';
import type { StoreCommandOptions } from './store-command.js';

export const storeCliCommand: CliCommand<StoreCommandOptions> = {
  name: 'store',
  args: '<action>',
  description: 'The bias store: what it holds (stats), gzip its closed segments (compact), or export it as Parquet or JSONL by day (export); nothing is rewritten in place',
  options: [
    { flags: '--input <file>', description: 'The store\'s .jsonl file (default LLM_COUNCIL_BIAS_STORE or $LLM_COUNCIL_HOME/bias_metrics.jsonl); export: also a directory of stores or a quoted glob, repeatable' },
    { flags: '--format <format>', description: 'export: parquet or jsonl' },
    { flags: '--output <dir>', description: 'export: the directory to write day=YYYY-MM-DD/part-0.<format> into (each partition replaced whole)' },
    { flags: '--row-group-rows <n>', description: 'export: rows per Parquet row group (default 100000)' },
    { flags: '--min-age <duration>', description: 'compact: gzip only segments unchanged for this long, waiting for it after closing the active file (default 0: safe while councils run)' },
    { flags: '--json', description: 'Print one JSON document' },
  ],
  examples: ['council store stats', 'council store compact', 'council store stats --input ./bias_metrics.jsonl --json', 'council store export --format parquet --output ./bias-export'],
  parse: ({ args, options: o }) => {
    // 0 is a valid age here (compact at once), which parseDurationOption refuses as a timeout.
    const minAge = o['minAge'];
    const zero = (typeof minAge === 'string' || typeof minAge === 'number') && /^0+(\.0+)?(ms|s|m)?$/.test(String(minAge).trim());
    const action = argText(args[0]);
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
    for (const flag of ['format', 'output', 'rowGroupRows'] as const) {
      if (o[flag] !== undefined) throw new CliError({ code: 'USAGE', message: `--${flag === 'rowGroupRows' ? 'row-group-rows' : flag} is an option of council store export, not of store ${action ?? '(no action)'}.` });
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
