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
  /** Whether stdin is a terminal (`ask` reads its question from stdin only when it is not). Default true. */
  stdinIsTTY?: boolean;
  /**
   * Reads standard input to its end, or until more than `maxBytes` bytes arrived (then returns what it has,
   * longer than `maxBytes`, and stops reading). Absent where there is no stdin.
   */
  readStdin?: (options: { maxBytes: number }) => Promise<Buffer>;
}

/** Reads the process's stdin to its end or just past `maxBytes`, whichever comes first. */
async function readProcessStdin(options: { maxBytes: number }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buffer);
    length += buffer.length;
    if (length > options.maxBytes) break;
  }
  // Leaving the loop early destroys the stream; nothing more is read.
  return Buffer.concat(chunks, length);
}

let brokenPipeHandled = false;
let stdoutGone = false;

/**
 * When the reader of stdout goes away (`council history list | head -3`), writes fail with EPIPE, which
 * Node would print as an unhandled error with its stack. Like other Unix tools, the command then writes
 * nothing more to stdout, without a message; it still finishes its work (a session is still saved). A
 * broken stderr is ignored the same way. Other stream errors keep Node's default.
 */
function handleBrokenPipes(): void {
  if (brokenPipeHandled) return;
  brokenPipeHandled = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stdoutGone = true;
  });
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** The running process's streams. */
export function processIo(): CliIo {
  handleBrokenPipes();
  return {
    stdout: (text) => {
      if (!stdoutGone) process.stdout.write(text);
    },
    stderr: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // A pseudo-terminal without a window size reports 0 columns: treat that as unknown.
    columns: [process.stderr.columns, process.stdout.columns].find((c) => typeof c === 'number' && c >= 20),
    stdinIsTTY: process.stdin.isTTY === true,
    readStdin: readProcessStdin,
  };
}
