import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { argText } from '../parse-option.js';
import type { TelemetryCommandOptions } from './telemetry-command.js';

export const telemetryCliCommand: CliCommand<TelemetryCommandOptions> = {
  name: 'telemetry',
  args: '<action> [...args]',
  description: 'Consent-level telemetry: status, preview (the exact JSON that would be sent) or upload',
  allowUnknownOptions: true,
  options: [{ flags: '--json', description: 'status: print JSON' }],
  examples: ['council telemetry status', 'council telemetry preview', 'council telemetry upload --dry-run'],
  parse: ({ args, options: o, argv }) => {
    const sub = argText(args[0]);
    // `upload` hands every argument after it to the uploader untouched (its own options and help).
    const at = argv.indexOf('upload');
    const rest = sub === 'upload' && at >= 0 ? argv.slice(at + 1).filter((a) => a !== '--verbose') : [];
    if (sub === 'upload' && o['home'] !== undefined) {
      throw new CliError({ code: 'USAGE', message: 'telemetry upload reads LLM_COUNCIL_HOME, not --home: run it as LLM_COUNCIL_HOME=<dir> council telemetry upload.' });
    }
    return { action: sub, rest, json: o['json'] === true };
  },
  run: async (options, ctx) => (await import('./telemetry-command.js')).runTelemetryCommand(options, ctx),
};
