/**
 * Where a command writes. Results go to `stdout`, progress and logs to `stderr`; the TTY flags decide
 * whether colours and the live display are used. Tests pass their own; the executable passes the process's.
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout is a terminal. Default false. */
  stdoutIsTTY?: boolean;
  /** Whether stderr is a terminal. Default false. */
  stderrIsTTY?: boolean;
  /** Terminal width in columns, when known. */
  columns?: number;
}

/** The running process's streams. */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // A pseudo-terminal without a window size reports 0 columns: treat that as unknown.
    columns: [process.stderr.columns, process.stdout.columns].find((c) => typeof c === 'number' && c >= 20),
  };
}
