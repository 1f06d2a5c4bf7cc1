import { cac } from 'cac';
import { CliError } from './cli-error.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface RunCliOptions {
  /** The version printed by `--version`: the executable's own, injected by the app that bundles it. */
  version: string;
  io?: CliIo;
}

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Parses `argv` (without the node and script paths), runs the command, and returns the exit code:
 * 0 on success, 1 on a runtime failure, 2 on a usage error.
 */
export async function runCli(argv: readonly string[], options: RunCliOptions): Promise<number> {
  const io = options.io ?? defaultIo;
  const cli = cac('council');
  cli.usage('<command> [options]');
  cli.help((sections) => {
    sections.push({
      title: 'Examples',
      body: ['  council --help', '  council --version'].join('\n'),
    });
    return sections;
  });
  cli.version(options.version);
  cli.option('--verbose', 'Show stack traces on errors');

  const captured: string[] = [];
  const originalInfo = console.info;
  // cac prints help and version through console.info; route them to the caller's stdout.
  console.info = (...parts: unknown[]) => captured.push(parts.map(String).join(' ') + '\n');
  try {
    const parsed = cli.parse(['node', 'council', ...argv], { run: false });
    if (parsed.options.help || parsed.options.version) return 0;
    if (cli.matchedCommand === undefined) {
      if (parsed.args.length > 0) {
        throw new CliError({
          code: 'USAGE',
          message: `Unknown command "${String(parsed.args[0])}". Run "council --help" to see the commands.`,
        });
      }
      cli.outputHelp();
      return 0;
    }
    await cli.runMatchedCommand();
    return 0;
  } catch (error) {
    return reportError(error, io, argv.includes('--verbose'));
  } finally {
    console.info = originalInfo;
    for (const line of captured) io.stdout(line);
  }
}

function reportError(error: unknown, io: CliIo, verbose: boolean): number {
  const isUsage = CliError.isInstance(error) ? error.code === 'USAGE' : isCacUsageError(error);
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`council: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return isUsage ? 2 : 1;
}

function isCacUsageError(error: unknown): boolean {
  return error instanceof Error && error.name === 'CACError';
}
