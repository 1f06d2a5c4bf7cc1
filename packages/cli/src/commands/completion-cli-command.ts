import type { CliCommand } from '../cli-command.js';
import { argText } from '../parse-option.js';
import type { CompletionCommandOptions } from './completion-command.js';

export const completionCliCommand: CliCommand<CompletionCommandOptions> = {
  name: 'completion',
  args: '<shell>',
  actions: ['bash', 'zsh', 'fish'],
  description:
    'Print the tab-completion script for bash, zsh or fish (commands, their actions and flags, and the configured model ids and @pools after --models and --chairman); e.g. source <(council completion bash) in ~/.bashrc',
  options: [],
  examples: [
    'council completion bash > ~/.local/share/bash-completion/completions/council',
    'council completion zsh > ~/.zsh/completions/_council   # a directory on $fpath',
    'council completion fish > ~/.config/fish/completions/council.fish',
  ],
  parse: ({ args }) => ({ shell: argText(args[0]) }),
  run: async (options, ctx) => (await import('./completion-command.js')).runCompletionCommand(options, ctx),
};
