import type { CliCommand } from '../cli-command.js';
import { CliError } from '../cli-error.js';
import { argText } from '../parse-option.js';
import type { KeysCommandOptions } from './keys-command.js';

export const keysCliCommand: CliCommand<KeysCommandOptions> = {
  name: 'keys',
  args: '[action] [provider] [...rest]',
  actions: ['list', 'set', 'remove', 'path'],
  description:
    'Keep provider API keys in $LLM_COUNCIL_HOME/keys (mode 0600) instead of exporting variables: set reads the key from stdin; keys are never printed',
  options: [{ flags: '--json', description: 'list: print JSON' }],
  examples: [
    'council keys set openrouter',
    'council keys set anthropic < anthropic-key.txt',
    'council keys list',
    'council keys remove openai',
  ],
  parse: ({ args, options: o }) => {
    // Whatever follows the provider may be a key pasted on the command line: refused without repeating it.
    if (Array.isArray(args[2]) && args[2].length > 0)
      throw new CliError({
        code: 'USAGE',
        message:
          'council keys takes no key on the command line (it would stay in the shell history and show in ps): run "council keys set <provider>" and paste the key at its prompt, or pipe it in.',
      });
    return { action: argText(args[0]) ?? 'list', provider: argText(args[1]), json: o['json'] === true };
  },
  run: async (options, ctx) => (await import('./keys-command.js')).runKeysCommand(options, ctx),
};
