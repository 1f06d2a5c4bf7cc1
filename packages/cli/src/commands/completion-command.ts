import { CliError } from '../cli-error.js';
import type { CliCommand } from '../cli-command.js';
import type { CommandContext } from '../command-context.js';
import { commandSettings } from '../command-context.js';

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
  /** The words its first argument takes (`list`, `show`…), or none. */
  actions: readonly string[];
}

/**
 * The flags whose value is one model id (or `@pool`), or a comma list of them: completed from the configured ids
 * and pools, which the script asks `council completion models` for when Tab is pressed (so it is never stale).
 */
const MODEL_FLAGS = ['--models', '--chairman', '--model', '--grader'];

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
      // The long name of a flag with a short one too (`-o, --option <key=value>` completes as --option).
      name: /--[\w-]+/.exec(option.flags)?.[0] ?? option.flags.split(/\s/)[0]!,
      takesValue: /\s[<[]/.test(option.flags),
      description: option.description,
    })),
    actions: command.actions ?? [],
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
    (entry) =>
      `    ${entry.name}) flags=${shQuote(entry.flags.map((flag) => flag.name).join(' '))}; actions=${shQuote(entry.actions.join(' '))} ;;`,
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
    // bash splits words at ":" (COMP_WORDBREAKS), so `simulated:ada` arrives as three words: the line typed so far
    // says what the word and the flag before it really are.
    '  local line="${COMP_LINE:0:COMP_POINT}"',
    '  [ -n "${COMP_LINE-}" ] || line="${COMP_WORDS[*]:0:COMP_CWORD+1}"',
    '  local typed="${line##*[[:space:]]}"',
    '  local before="${line%"$typed"}"',
    '  before="${before%"${before##*[![:space:]]}"}"',
    '  case "${before##*[[:space:]]}" in',
    `    ${MODEL_FLAGS.join('|')})`,
    '      local ids head=""',
    '      ids="$(council completion models 2>/dev/null)"',
    '      [[ "$typed" == *,* ]] && head="${typed%,*},"',
    '      COMPREPLY=( $(compgen -P "$head" -W "$ids" -- "${typed##*,}") )',
    // The reply replaces bash's word, the part after the last ":" of what was typed.
    '      if [[ "$typed" == *:* && "${COMP_WORDBREAKS-:}" == *:* ]]; then',
    '        local colon="${typed%"${typed##*:}"}" i',
    '        for i in "${!COMPREPLY[@]}"; do COMPREPLY[$i]="${COMPREPLY[$i]#"$colon"}"; done',
    '      fi',
    '      return',
    '      ;;',
    '  esac',
    '  local flags="" actions=""',
    '  case "${COMP_WORDS[1]}" in',
    ...cases,
    '  esac',
    '  if [[ "$cur" == -* ]]; then',
    `    COMPREPLY=( $(compgen -W "$flags ${globalFlags.map((flag) => flag.name).join(' ')}" -- "$cur") )`,
    '  elif [ "$COMP_CWORD" -eq 2 ] && [ -n "$actions" ]; then',
    '    COMPREPLY=( $(compgen -W "$actions" -- "$cur") )',
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
    const actions = entry.actions.map((action) => shQuote(action)).join(' ');
    return `    ${entry.name}) flags=(${flags}); actions=(${actions}) ;;`;
  });
  return [
    '#compdef council',
    '# council completion for zsh. Load it now: source <(council completion zsh)',
    '# or for every shell: council completion zsh > "${fpath[1]}/_council"',
    '_council() {',
    '  local -a commands flags actions ids',
    `  commands=(${list.map((entry) => zshItem(entry.name, entry.description)).join(' ')})`,
    '  if (( CURRENT == 2 )); then',
    "    _describe 'command' commands",
    '    return',
    '  fi',
    '  case "${words[CURRENT-1]}" in',
    `    ${MODEL_FLAGS.join('|')})`,
    '      ids=(${(f)"$(council completion models 2>/dev/null)"})',
    "      compset -P '*,'",
    "      compadd -S '' -a ids",
    '      return',
    '      ;;',
    '  esac',
    '  case "${words[2]}" in',
    ...cases,
    '  esac',
    '  if [[ "$PREFIX" == -* ]]; then',
    "    _describe 'option' flags",
    '  elif (( CURRENT == 3 && ${#actions} > 0 )); then',
    '    compadd -a actions',
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
    if (entry.actions.length > 0)
      lines.push(
        `complete -c council -n ${fishQuote(`__fish_seen_subcommand_from ${entry.name}; and test (count (commandline -opc)) -eq 2`)} -a ${fishQuote(entry.actions.join(' '))}`,
      );
    for (const flag of [...entry.flags, ...globalFlags]) {
      // A model flag completes the configured ids and pools, after the last comma of a list.
      const needs = MODEL_FLAGS.includes(flag.name)
        ? ` -r -a ${fishQuote("(string replace -r '[^,]*$' '' -- (commandline -ct))(council completion models 2>/dev/null)")}`
        : flag.takesValue
          ? ' -r -F'
          : '';
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

/**
 * What the completion scripts offer after `--models`, `--chairman` and `--model`, one per line: the configured member
 * ids (LLM_COUNCIL_MODELS, config.yaml's members and chairman), each pool as `@name` and its models, and the
 * personality ids. Quiet and exit 0 whatever is wrong (an invalid variable or config.yaml): completion must not print
 * errors into the user's command line; what it can read it offers.
 */
async function configuredModelIds(ctx: CommandContext): Promise<string[]> {
  const ids = new Set<string>();
  try {
    const settings = commandSettings(ctx);
    for (const id of settings.models) ids.add(id);
    if (settings.chairman !== null) ids.add(settings.chairman);
    const { loadCouncilConfig } = await import('../settings/load-council-config.js');
    const { config, personalities } = await loadCouncilConfig(settings);
    for (const id of config.members) ids.add(id);
    if (config.chairman !== undefined && config.chairman !== null) ids.add(config.chairman);
    for (const [name, models] of Object.entries(config.pools)) {
      ids.add(`@${name}`);
      for (const id of models) ids.add(id);
    }
    for (const personality of personalities) ids.add(personality.id);
  } catch {
    // Offer what was read before the failure.
  }
  return [...ids].filter((id) => /^\S+$/.test(id));
}

/** `council completion bash|zsh|fish`: prints the shell's completion script on stdout (`models`: the ids the scripts offer). */
export async function runCompletionCommand(options: CompletionCommandOptions, ctx: CommandContext): Promise<number> {
  const shell = options.shell;
  if (shell === 'models') {
    const ids = await configuredModelIds(ctx);
    ctx.io.stdout(ids.map((id) => `${id}\n`).join(''));
    return 0;
  }
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
