import type { CliCommand } from '../cli-command.js';
import { argText, parseDurationOption, parseStringOption } from '../parse-option.js';
import type { StoreCommandOptions } from './store-command.js';

export const storeCliCommand: CliCommand<StoreCommandOptions> = {
  name: 'store',
  args: '<action>',
  description: 'The bias store: what it holds (stats), or gzip its closed segments (compact); nothing is rewritten in place',
  options: [
    { flags: '--input <file>', description: 'The store\'s .jsonl file (default LLM_COUNCIL_BIAS_STORE or $LLM_COUNCIL_HOME/bias_metrics.jsonl)' },
    { flags: '--min-age <duration>', description: 'compact: gzip only segments unchanged for this long, waiting for it after closing the active file (default 0: safe while councils run)' },
    { flags: '--json', description: 'Print one JSON document' },
  ],
  examples: ['council store stats', 'council store compact', 'council store stats --input ./bias_metrics.jsonl --json'],
  parse: ({ args, options: o }) => {
    // 0 is a valid age here (compact at once), which parseDurationOption refuses as a timeout.
    const minAge = o['minAge'];
    const zero = (typeof minAge === 'string' || typeof minAge === 'number') && /^0+(\.0+)?(ms|s|m)?$/.test(String(minAge).trim());
    return {
      action: argText(args[0]),
      input: parseStringOption('input', o['input']),
      minAgeMs: zero ? 0 : parseDurationOption('min-age', minAge),
      json: o['json'] === true,
    };
  },
  run: async (options, ctx) => (await import('./store-command.js')).runStoreCommand(options, ctx),
};
