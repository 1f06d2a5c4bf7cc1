import type { CliCommand } from '../cli-command.js';
import {
  argText,
  parseDurationOption,
  parseIntegerOption,
  parseListOption,
  parseStringOption,
} from '../parse-option.js';
import { evidenceOptions, parseVerdictFlags, verdictOptions } from '../verdict-flags.js';
import type { GateCommandOptions } from './gate-command.js';

export const gateCliCommand: CliCommand<GateCommandOptions> = {
  name: 'gate',
  args: '[question]',
  description:
    'A verdict for CI: the council as a jury on a question or policy over evidence; exit 0 approve, 1 reject, 2 unclear or incomplete',
  options: [
    {
      flags: '--policy <file>',
      description: 'Judge the evidence against this policy file (the question, when given, is asked with it)',
    },
    ...evidenceOptions,
    {
      flags: '--models <ids>',
      description: 'The jury: comma-separated model ids, or @pool (default LLM_COUNCIL_MODELS)',
    },
    {
      flags: '--chairman <id>',
      description: 'Writes the rationale and dissent (default LLM_COUNCIL_CHAIRMAN, else the first member)',
    },
    ...verdictOptions,
    {
      flags: '--require-unanimous',
      description: 'Approve only when every member approved; otherwise unclear (exit 2)',
    },
    {
      flags: '--summary <file>',
      description: 'Also write the Markdown summary to this file (e.g. a pull request comment body)',
    },
    {
      flags: '--transcript <file>',
      description:
        'Write the session transcript here (default $LLM_COUNCIL_HOME/transcripts/<session>.json); its sha256 is printed',
    },
    { flags: '--seed <n>', description: 'Seed the orders and labels (default LLM_COUNCIL_RANDOM_SEED)' },
    { flags: '--timeout <duration>', description: 'Deadline of each model call, e.g. 90s' },
    { flags: '--retries <n>', description: 'Retries of a model call after a retryable failure (default 2)' },
    { flags: '--demo', description: 'Three simulated members that decide: offline, no key, nothing saved' },
    { flags: '--no-persist', description: 'Save nothing: no history, bias records or telemetry' },
    {
      flags: '--json',
      description: 'Print one JSON document (decision, exit code, verdict, transcript and its hash, the summary)',
    },
  ],
  examples: [
    'council gate "Is this change safe to merge?" --evidence change.diff --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001',
    'council gate --policy .github/council-policy.md --evidence - --summary summary.md',
    'council gate "Does this migration keep the data?" --evidence migrations/ --min-margin 0.3 --require-unanimous',
    'council gate "Is this change safe to merge?" --evidence change.diff --demo',
  ],
  parse: ({ args, options: o }) => {
    const options: GateCommandOptions = { ...parseVerdictFlags(o) };
    const question = argText(args[0]);
    if (question !== undefined) options.question = question;
    const set = <K extends keyof GateCommandOptions>(key: K, value: GateCommandOptions[K] | undefined) => {
      if (value !== undefined) options[key] = value;
    };
    set('policy', parseStringOption('policy', o['policy']));
    set('models', parseListOption('models', o['models']));
    set('chairman', parseStringOption('chairman', o['chairman']));
    set('summary', parseStringOption('summary', o['summary']));
    set('transcript', parseStringOption('transcript', o['transcript']));
    set('seed', parseIntegerOption('seed', o['seed'], { min: 0 }));
    set('timeoutMs', parseDurationOption('timeout', o['timeout']));
    set('retries', parseIntegerOption('retries', o['retries'], { min: 0, max: 10 }));
    if (o['requireUnanimous'] === true) options.requireUnanimous = true;
    if (o['demo'] === true) options.demo = true;
    if (o['persist'] === false) options.persist = false;
    if (o['json'] === true) options.json = true;
    return options;
  },
  run: async (options, ctx) => (await import('./gate-command.js')).runGateCommand(options, ctx),
};
