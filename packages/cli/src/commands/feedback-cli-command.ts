import type { CliCommand } from '../cli-command.js';
import { argText, parseIntegerOption, parseStringOption } from '../parse-option.js';
import type { FeedbackCommandOptions } from './feedback-command.js';

export const feedbackCliCommand: CliCommand<FeedbackCommandOptions> = {
  name: 'feedback',
  args: '<id>',
  description: 'What peers wrote about one member across the history: counted strengths and weaknesses',
  options: [
    { flags: '--model <id>', description: 'Also ask this model for a short written summary of the themes' },
    { flags: '--top <n>', description: 'Themes per list (default 10)' },
    { flags: '--json', description: 'Print JSON' },
  ],
  examples: [
    'council feedback anthropic/claude-3.5-sonnet',
    'council feedback careful-engineer --model openai/gpt-4o-mini',
  ],
  parse: ({ args, options: o }) => ({
    id: argText(args[0]) ?? '',
    model: parseStringOption('model', o['model']),
    top: parseIntegerOption('top', o['top'], { min: 1 }),
    json: o['json'] === true,
  }),
  run: async (options, ctx) => (await import('./feedback-command.js')).runFeedbackCommand(options, ctx),
};
