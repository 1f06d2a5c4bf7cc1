import { CliError } from '../cli-error.js';
import type { CliCommand } from '../cli-command.js';
import type { CommandContext } from '../command-context.js';

export type CompletionShell = 'bash' | 'zsh' | 'fish';

export interface CompletionCommandOptions {
  shell: string | undefined;
}

/** A flag as completion needs it: the long name, whether it takes a value, its help line. */
interface CompletionFlag {
  name: string;
  takesValue: boolean;
  description: string;
}

interface CompletionEntry {
  name: string;
  description: string;
  flags: CompletionFlag[];
}

const globalFlags: CompletionFlag[] = [
  { name: '--home', takesValue: true, description: 'Use this directory instead of LLM_COUNCIL_HOME' },
  { name: '--verbose', takesValue: false, description: 'Show stack traces on errors' },
  { name: '--help', takesValue: false, description: 'Show help' },
];

function entries(commands: readonly CliCommand[]): CompletionEntry[] {
  return commands.map((command) => ({
    name: command.name,
    description: command.description,
    flags: command.options.map((option) => ({
      name: option.flags.split(/\s/)[0]!,
      takesValue: /\s[<[]/.test(option.flags),
      description: option.description,
    })),
  }));
}

/** Single-quoted for POSIX shells (bash, zsh): `'` becomes `'\''`. */
function shQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Single-quoted for fish, where `\` and `'` are escaped with a backslash. */
function fishQuote(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function bashScript(list: CompletionEntry[]): string {
  const cases = list.map(
    (entry) => `    ${entry.name}) flags=${shQuote(entry.flags.map((flag) => flag.name).join(' '))} ;;`,
  );
  return [
    '# council completion for bash. Load it now: source <(council completion bash)',
    '# or for every shell: council completion bash > ~/.local/share/bash-completion/completions/council',
    '_council() {',
    '  local cur="${COMP_WORDS[COMP_CWORD]}"',
    `  local commands=${shQuote(list.map((entry) => entry.name).join(' '))}`,
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    '    COMPREPLY=( $(compgen -W "$commands --help --version" -- "$cur") )',
    '    return',
    '  fi',
    '  local flags=""',
    '  case "${COMP_WORDS[1]}" in',
    ...cases,
    '  esac',
    '  if [[ "$cur" == -* ]]; then',
    `    COMPREPLY=( $(compgen -W "$flags ${globalFlags.map((flag) => flag.name).join(' ')}" -- "$cur") )`,
    '  else',
    '    COMPREPLY=( $(compgen -f -- "$cur") )',
    '  fi',
    '}',
    'complete -o default -F _council council',
    '',
  ].join('\n');
}

/** `name:description` for zsh's _describe, the colons in the name escaped. */
function zshItem(name: string, description: string): string {
  return shQuote(`${name.replaceAll(':', '\\:')}:${description}`);
}

function zshScript(list: CompletionEntry[]): string {
  const cases = list.map((entry) => {
    const flags = [...entry.flags, ...globalFlags].map((flag) => zshItem(flag.name, flag.description)).join(' ');
    return `    ${entry.name}) flags=(${flags}) ;;`;
  });
  return [
    '#compdef council',
    '# council completion for zsh. Load it now: source <(council completion zsh)',
    '# or for every shell: council completion zsh > "${fpath[1]}/_council"',
    '_council() {',
    '  local -a commands flags',
    `  commands=(${list.map((entry) => zshItem(entry.name, entry.description)).join(' ')})`,
    '  if (( CURRENT == 2 )); then',
    "    _describe 'command' commands",
    '    return',
    '  fi',
    '  case "${words[2]}" in',
    ...cases,
    '  esac',
    '  if [[ "$PREFIX" == -* ]]; then',
    "    _describe 'option' flags",
    '  else',
    '    _files',
    '  fi',
    '}',
    'compdef _council council',
    '',
  ].join('\n');
}

function fishScript(list: CompletionEntry[]): string {
  const lines = [
    '# council completion for fish. Load it now: council completion fish | source',
    '# or for every shell: council completion fish > ~/.config/fish/completions/council.fish',
    'complete -c council -f',
  ];
  for (const entry of list)
    lines.push(`complete -c council -n __fish_use_subcommand -a ${entry.name} -d ${fishQuote(entry.description)}`);
  for (const entry of list) {
    for (const flag of [...entry.flags, ...globalFlags]) {
      const needs = flag.takesValue ? ' -r -F' : '';
      lines.push(
        `complete -c council -n ${fishQuote(`__fish_seen_subcommand_from ${entry.name}`)} -l ${flag.name.slice(2)}${needs} -d ${fishQuote(flag.description)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script for `shell`, listing `commands` and each one's flags. */
export function completionScript(shell: CompletionShell, commands: readonly CliCommand[]): string {
  const list = entries(commands);
  switch (shell) {
    case 'bash':
      return bashScript(list);
    case 'zsh':
      return zshScript(list);
    case 'fish':
      return fishScript(list);
  }
}

/** `council completion bash|zsh|fish`: prints the shell's completion script on stdout. */
export async function runCompletionCommand(options: CompletionCommandOptions, ctx: CommandContext): Promise<number> {
  const shell = options.shell;
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') {
    throw new CliError({
      code: 'USAGE',
      message: `council completion needs a shell: bash, zsh or fish, got "${shell ?? ''}". Example: source <(council completion bash).`,
    });
  }
  const { cliCommands } = await import('../cli-commands.js');
  ctx.io.stdout(completionScript(shell, cliCommands));
  return 0;
}
