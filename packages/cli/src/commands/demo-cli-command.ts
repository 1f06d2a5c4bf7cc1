import type { CliCommand } from '../cli-command.js';
import { parseIntegerOption } from '../parse-option.js';
import type { DemoCommandOptions } from './demo-command.js';

export const demoCliCommand: CliCommand<DemoCommandOptions> = {
  name: 'demo',
  description: 'Offline: one visible council on the simulated provider, 40 more, and the cross-session bias report',
  options: [
    { flags: '--sessions <n>', description: 'Simulated sessions after the visible one (default 40)' },
    {
      flags: '--seed <n>',
      description: 'Seed of the whole demo (default 1): the same seed gives the same sessions and report',
    },
    {
      flags: '--json',
      description:
        'Print one JSON document (the visible session, the bias report as bias-report --json prints it, the files) instead of text',
    },
  ],
  examples: ['council demo', 'council demo --home ./demo-home --sessions 60', 'council demo --json > demo.json'],
  parse: ({ options: o }) => ({
    sessions: parseIntegerOption('sessions', o['sessions'], { min: 10, max: 10_000 }),
    seed: parseIntegerOption('seed', o['seed'], { min: 0 }),
    json: o['json'] === true,
  }),
  run: async (options, ctx) => (await import('./demo-command.js')).runDemoCommand(options, ctx),
};
