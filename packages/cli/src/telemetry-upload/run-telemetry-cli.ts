import { cliErrorKind } from '../cli-error-kind.js';
import { defaultEnvironment } from '../settings/default-environment.js';
import { TelemetryUploadError } from './telemetry-upload-error.js';

/** Where the command writes: `stdout` for results, `stderr` for progress and errors. */
export interface TelemetryCliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The environment `runTelemetryCli` resolves its settings from (`resolveCouncilSettings`; default this process's). */
export type TelemetryCliEnv = Readonly<Record<string, string | undefined>>;

/** What `runTelemetryCli` needs besides the arguments: the version, and knobs for tests and embedding (the executable uses the defaults). */
export interface TelemetryCliOptions {
  /** What `--version` prints and the `User-Agent` carries: the executable's own, injected by the app that bundles it. */
  version: string;
  io?: TelemetryCliIo;
  env?: TelemetryCliEnv;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** A request's whole time budget; default 30 s. */
  timeoutMs?: number;
  /** Attempts per batch in one run; default 5. */
  maxAttempts?: number;
  backoff?: { baseMs?: number; maxMs?: number };
  /** Stops `--watch` (checked between runs and during the wait). */
  signal?: AbortSignal;
  /** Called after each committed batch (the executable uses it to keep its memory bounded). */
  afterCommit?: () => void;
  /**
   * How the user ran it, for the messages: `council-telemetry` (the default: lines start `council-telemetry:` and
   * the usage names that executable) or `council telemetry`, as `council telemetry upload` runs it (lines start
   * `council:`, as every other line of `council`, and the usage and hints name `council telemetry …`).
   */
  invokedAs?: 'council-telemetry' | 'council telemetry';
}

/** The prefix of each stderr line: the executable's name as the user typed it. */
export function telemetryLinePrefix(options: Pick<TelemetryCliOptions, 'invokedAs'>): string {
  return options.invokedAs === 'council telemetry' ? 'council' : 'council-telemetry';
}

const defaultIo: TelemetryCliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * `council-telemetry` as a function: parses `argv` (without the node and script paths), runs the
 * command, writes to `io` (default the process's streams), and returns the exit code: 0 done, 1 the
 * upload failed, 2 a usage or configuration error. `apps/telemetry-uploader` is this and a signal
 * handler; `apps/cli` calls it as `runTelemetryCli(['upload', ...argv], { version })`.
 */
export async function runTelemetryCli(argv: readonly string[], options: TelemetryCliOptions): Promise<number> {
  const io = options.io ?? defaultIo;
  const env = options.env ?? defaultEnvironment();
  try {
    // The command's modules (the upload loop, the HTTP client, the event schemas, the store) load here, when it is
    // called, so importing `@council/cli` or `@council/cli/run` (and `council --version`) does not pay for them.
    const { runCouncilTelemetryCommand } = await import('./council-telemetry-command.js');
    return await runCouncilTelemetryCommand(argv, { ...options, io, env });
  } catch (error) {
    if (!TelemetryUploadError.isInstance(error)) throw error;
    const invokedAs = options.invokedAs ?? 'council-telemetry';
    const hint = error.code === 'USAGE' ? ` Run "${invokedAs} --help" to see the commands and their options.` : '';
    io.stderr(`${telemetryLinePrefix(options)}: ${error.message}${hint}\n`);
    return cliErrorKind(error) === 'USAGE' ? 2 : 1;
  }
}
