import { scrubSecrets } from '@council/providers/scrub-secrets';
import { cac } from 'cac';
import type { CliCommand } from './cli-command.js';
import { closestName, joinNegativeValues, valueFlagNames } from './cli-argv.js';
import { cliCommands } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import { processIo } from './cli-io.js';
import type { OwnInvocation } from './own-invocation.js';
import type { CommandContext } from './command-context.js';
import { CliError } from './cli-error.js';
import { isCacUsageError } from './cli-error-kind.js';
import { createStyle } from './create-style.js';
import { parseStringOption } from './parse-option.js';
import { reportCliError } from './report-cli-error.js';
import type { Env } from './settings/council-settings.js';
import { defaultEnvironment } from './settings/default-environment.js';
import { shouldUseColor } from './should-use-color.js';
import { typedOptionValues } from './typed-option-values.js';

export type { CliIo } from './cli-io.js';

export interface RunCliOptions {
  /** The version printed by `--version`: the executable's own, injected by the app that bundles it. */
  version: string;
  io?: CliIo;
  /** Environment variables, resolved once by the settings module (`resolveCouncilSettings`). Default: this process's. */
  env?: Env;
  /** Working directory for relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** The clock. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Runs the telemetry uploader for `council telemetry upload …` with the arguments after `upload`.
   * Packages never import apps, so the executable injects it; without it the command says it is unavailable.
   */
  telemetryUpload?: (argv: readonly string[]) => Promise<number>;
  /**
   * How the user can run this executable again, for the commands hints print (`ownInvocation`): asked only by a
   * command that prints one. Without it, hints say `council`.
   */
  invocation?: () => OwnInvocation;
}

/**
 * Parses `argv` (without the node and script paths), runs the command, and returns the exit code:
 * 0 on success, 1 on a runtime failure, 2 on a usage error. Command modules are loaded only when their
 * command runs, so `--version` and `--help` stay fast.
 */
export async function runCli(argv: readonly string[], options: RunCliOptions): Promise<number> {
  const given = options.io ?? processIo();
  // Stderr carries progress, notes, server logs and errors, never a result: every line of it is scrubbed of URL
  // credentials and query keys, a guard behind the scrubbing where each message is made. Stdout (answers, reports) is
  // left as written: a model's answer may quote a URL the user asked about.
  const io: CliIo = { ...given, stderr: (text) => given.stderr(scrubSecrets(text)) };
  const env = options.env ?? defaultEnvironment();
  const verbose = argv.includes('--verbose');
  const cli = cac('council');
  cli.usage('<command> [options]');
  cli.help((sections) => {
    // cac prints "council/1.2.3" first; a sentence on what the tool does reads better.
    sections[0] = {
      body: `council ${options.version}: convene several LLMs on one question, have them review each other blind, and measure how fair the reviewing was.`,
    };
    if (cli.matchedCommand === undefined) {
      sections.push({
        title: 'Examples',
        body: [
          '  council demo                                   # offline: a simulated council and a bias report',
          // Three members at least: a leaderboard ranks three answers or more (two give no ranking).
          '  council ask "Is Rust a good first language?" --models openai/gpt-4o,anthropic/claude-3.5-sonnet,google/gemini-2.0-flash-001',
          '  council bias-report --format html --output report.html',
        ].join('\n'),
      });
    }
    sections.push({ title: 'Exit codes', body: '  0 success, 1 runtime failure, 2 usage error' });
    // cac shows a `--no-x` flag's implied default ("(default: true)"), which reads as if the flag were on.
    return sections.map((section) =>
      section.title === 'Options'
        ? { ...section, body: section.body.replace(/^(\s*--no-\S+.*?) \(default: true\)$/gm, '$1') }
        : section,
    );
  });
  cli.version(options.version);
  cli.option('--verbose', 'Show stack traces on errors (and more detail where a command has it)');
  for (const option of globalValueOptions) cli.option(option.flags, option.description);

  // argv as the parser reads it (a negative value joined to its flag), for the options' values as typed.
  let joinedArgv: string[] = [...argv];
  // The command that matched, with its options validated: set by its cac action, run once the context exists.
  let matched: { command: CliCommand; options: unknown } | undefined;
  for (const command of cliCommands) {
    const registered = cli.command(
      command.args === undefined ? command.name : `${command.name} ${command.args}`,
      command.description,
    );
    if (command.allowUnknownOptions === true) registered.allowUnknownOptions();
    for (const option of command.options) registered.option(option.flags, option.description);
    for (const example of command.examples) registered.example(`  ${example}`);
    // cac calls the action with the positional arguments in declared order, then the options.
    registered.action((...values: unknown[]) => {
      const parsed = typedOptionValues(values.pop() as Record<string, unknown>, joinedArgv, [
        ...globalValueFlags,
        ...command.options.map((option) => option.flags),
      ]);
      matched = { command, options: command.parse({ args: values, options: parsed, argv }) };
    });
  }

  const captured: string[] = [];
  const originalInfo = console.info;
  // cac prints help and version through console.info; route them to the caller's stdout.
  console.info = (...parts: unknown[]) => captured.push(parts.map(String).join(' ') + '\n');
  let parsedOptions: Record<string, unknown> = {};
  try {
    try {
      const valueFlags = valueFlagNames([
        ...globalValueFlags,
        ...cliCommands.flatMap((command) => command.options.map((option) => option.flags)),
      ]);
      joinedArgv = joinNegativeValues(argv, valueFlags);
      const parsed = cli.parse(['node', 'council', ...joinedArgv], { run: false });
      parsedOptions = typedOptionValues(parsed.options, joinedArgv, globalValueFlags);
      if (parsed.options['help'] || parsed.options['version']) return 0;
      if (cli.matchedCommand === undefined) {
        if (parsed.args.length > 0) {
          const near = closestName(
            String(parsed.args[0]),
            cliCommands.map((command) => command.name),
          );
          throw new CliError({
            code: 'USAGE',
            message: `Unknown command "${String(parsed.args[0])}".${near === undefined ? '' : ` Did you mean "${near}"?`} Run "council --help" to see the commands.`,
          });
        }
        cli.outputHelp();
        return 0;
      }
      await cli.runMatchedCommand();
    } finally {
      console.info = originalInfo;
      for (const line of captured) io.stdout(line);
      captured.length = 0;
    }
    if (matched === undefined) return 0;
    const ctx: CommandContext = {
      io,
      env,
      cwd: options.cwd ?? process.cwd(),
      now: options.now ?? (() => new Date()),
      out: createStyle(shouldUseColor({ isTTY: io.stdoutIsTTY === true, env })),
      err: createStyle(shouldUseColor({ isTTY: io.stderrIsTTY === true, env })),
      verbose,
      home: parseStringOption('home', parsedOptions['home']),
      version: options.version,
      telemetryUpload: options.telemetryUpload,
      invocation: options.invocation,
    };
    return await matched.command.run(matched.options, ctx);
  } catch (error) {
    const command = cli.matchedCommandName;
    return reportCliError(withFlagSuggestion(error, command), io, {
      verbose,
      ...(command === undefined || command === '' ? {} : { command }),
    });
  }
}

const globalFlags = ['--verbose', '--home', '--help', '--version'];
/** The global options that take a value. */
const globalValueOptions = [
  { flags: '--home <dir>', description: 'Use this directory instead of LLM_COUNCIL_HOME (~/.llm-council)' },
];
const globalValueFlags = globalValueOptions.map((option) => option.flags);

/** cac's "Unknown option `--model`" with the nearest flag of the command, if one is a likely slip: "did you mean `--models`?". */
function withFlagSuggestion(error: unknown, commandName: string | undefined): unknown {
  const unknown = isCacUsageError(error)
    ? /^Unknown option `(--[^`]+)`$/.exec((error as Error).message)?.[1]
    : undefined;
  if (unknown === undefined) return error;
  const command = cliCommands.find((one) => one.name === commandName);
  const flags = [...(command?.options ?? []).map((option) => option.flags.split(/\s/)[0]!), ...globalFlags];
  const near = closestName(unknown, flags);
  if (near === undefined) return error;
  return new CliError({
    code: 'USAGE',
    message: `Unknown option \`${unknown}\`; did you mean \`${near}\`? Run "council ${commandName === undefined || commandName === '' ? '' : `${commandName} `}--help" for the options.`,
  });
}
