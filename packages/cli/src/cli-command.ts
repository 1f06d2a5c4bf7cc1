import type { CommandContext } from './command-context.js';

/** One flag of a command as cac declares it (`--name <value>`, `--switch`, `--no-switch`) with its help line. */
export interface CliOption {
  flags: string;
  description: string;
}

/** What the parser hands a command: its positional arguments in declared order, the parsed options, the raw argv. */
export interface CliCommandInput {
  /** Positional values as cac passes them (strings, numbers for numeric-looking ones, arrays for `[...rest]`). */
  args: readonly unknown[];
  /**
   * Parsed options, camelCased by cac (`--config-version` is `configVersion`), global ones included; a value option's
   * number-like value arrives as the text typed (`typedOptionValues`), each command reading numbers from it.
   */
  options: Readonly<Record<string, unknown>>;
  /** The whole argument vector, for a command that hands part of it on untouched. */
  argv: readonly string[];
}

/**
 * A command of the `council` executable: its name, flags and help, how its flags become its options, and how
 * it runs. A descriptor must stay light: `run` imports the command's module when it runs, so `--version`
 * and `--help` load none of them.
 *
 * `parse` and `run` are method signatures on purpose: a descriptor of any options type can then stand in the
 * one list `runCli` registers, which only ever hands `run` what the same descriptor's `parse` returned.
 */
export interface CliCommand<Options = unknown> {
  /** The word that selects the command, e.g. `ask`. */
  name: string;
  /** Positional arguments in cac's notation after the name, e.g. `<action> [id]`. */
  args?: string;
  /** The words the first positional argument takes, when it names an action (`list`, `show`…): for shell completion. */
  actions?: readonly string[];
  /** One line, shown in the command list and atop the command's help. */
  description: string;
  options: readonly CliOption[];
  /** Example invocations, shown under the command's help, e.g. `council doctor --offline`. */
  examples: readonly string[];
  /** Lets options the CLI does not declare through (for a command that hands them on). */
  allowUnknownOptions?: boolean;
  /** Validates the arguments; a bad value is a `CliError` with code `USAGE` naming the flag. */
  parse(input: CliCommandInput): Options;
  run(options: Options, ctx: CommandContext): Promise<number>;
}
