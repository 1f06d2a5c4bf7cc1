import { CliError } from './cli-error.js';
import { cliErrorKind, isCacUsageError } from './cli-error-kind.js';
import type { CliIo } from './cli-io.js';

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Writes `error` to stderr as one line, `council: <message>` (the stack too under `--verbose`), and returns
 * the exit code of its kind: 2 for a usage error, 1 for any other. A usage error of the parser ends with where to read
 * the options: `council <command> --help` for the command that was run (`command`), `council --help` without one.
 */
export function reportCliError(error: unknown, io: CliIo, options: { verbose: boolean; command?: string }): number {
  const { verbose } = options;
  const raw = error instanceof Error ? error.message : String(error);
  // One line: a multi-line message (a list of problems) is joined.
  let message = raw
    .split('\n')
    .map((line) => line.trim().replace(/^- /, ''))
    .filter((line) => line !== '')
    .join(' ');
  if (isCacUsageError(error))
    message = `${message}. Run "council ${options.command === undefined ? '' : `${options.command} `}--help" for the options.`;
  // An error without a code is unexpected (a bug, not a failure a package names): its stack helps.
  else if (!CliError.isInstance(error) && errorCode(error) === undefined && !verbose)
    message = `${message} (run again with --verbose for the stack trace)`;
  io.stderr(`council: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
  return cliErrorKind(error) === 'USAGE' ? 2 : 1;
}
