import type { CliCommand } from '../cli-command.js';
import { parseDurationOption } from '../parse-option.js';
import type { DoctorCommandOptions } from './doctor-command.js';

export const doctorCliCommand: CliCommand<DoctorCommandOptions> = {
  name: 'doctor',
  description:
    'Check keys (present or absent, never printed), provider reachability, the store, sessions saved whole and consent',
  options: [
    { flags: '--json', description: 'Print one JSON document' },
    { flags: '--offline', description: 'Skip the network probes' },
    { flags: '--timeout <duration>', description: 'Time allowed for each probe (default 3s)' },
    {
      flags: '--repair',
      description:
        'Finish saving the sessions a failed or interrupted save left unfinished (see "sessions saved whole")',
    },
  ],
  examples: ['council doctor', 'council doctor --offline --json', 'council doctor --offline --repair'],
  parse: ({ options: o }) => ({
    json: o['json'] === true,
    offline: o['offline'] === true,
    timeoutMs: parseDurationOption('timeout', o['timeout']),
    repair: o['repair'] === true,
  }),
  run: async (options, ctx) => (await import('./doctor-command.js')).runDoctorCommand(options, ctx),
};
