import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { argText } from '../parse-option.js';
import type { TelemetryCommandOptions } from './telemetry-command.js';

export const telemetryCliCommand: CliCommand<TelemetryCommandOptions> = {
  name: 'telemetry',
  args: '[action] [...args]',
  actions: ['status', 'preview', 'upload', 'retry-dead'],
  description:
    'Consent-level telemetry: status (the default), preview (the exact JSON that would be sent), upload, or retry-dead (queue refused events again)',
  allowUnknownOptions: true,
  options: [
    { flags: '--json', description: 'status: print JSON' },
    {
      flags: '--dry-run',
      description:
        'upload: print the batches that would be sent, send nothing; retry-dead: count what would be queued again, change nothing',
    },
    // upload's own options, read by the uploader from the arguments after `upload`: listed so that this help shows them.
    { flags: '--batch-size <n>', description: 'upload: events per request, 1 to 100 (default 100)' },
    { flags: '--max-events <n>', description: 'upload: stop after n events' },
    { flags: '--watch', description: 'upload: keep running: upload, wait --interval, upload again, until interrupted' },
    {
      flags: '--interval <duration>',
      description: 'upload --watch: the wait between uploads: 60s, 5m, 1h… (default 60s)',
    },
  ],
  examples: [
    'council telemetry status',
    'council telemetry preview',
    'council telemetry upload --dry-run',
    'council telemetry retry-dead --dry-run',
  ],
  parse: ({ args, options: o, argv }) => {
    const sub = argText(args[0]);
    // `upload` hands every argument after it to the uploader untouched (its own options and help).
    const at = argv.indexOf('upload');
    const rest = sub === 'upload' && at >= 0 ? argv.slice(at + 1).filter((a) => a !== '--verbose') : [];
    if (sub === 'upload' && o['home'] !== undefined) {
      throw new CliError({
        code: 'USAGE',
        message:
          'telemetry upload reads LLM_COUNCIL_HOME, not --home: run it as LLM_COUNCIL_HOME=<dir> council telemetry upload.',
      });
    }
    const extra = Array.isArray(args[1]) ? (args[1] as unknown[]) : [];
    if (sub === 'retry-dead' && extra.length > 0) {
      throw new CliError({
        code: 'USAGE',
        message: `telemetry retry-dead takes no arguments, got "${argText(extra[0])}"; it takes only --dry-run.`,
      });
    }
    return { action: sub, rest, json: o['json'] === true, dryRun: o['dryRun'] === true };
  },
  run: async (options, ctx) => (await import('./telemetry-command.js')).runTelemetryCommand(options, ctx),
};
