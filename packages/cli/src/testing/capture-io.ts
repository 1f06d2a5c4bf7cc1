import type { CliIo } from '../cli-io.js';
import type { CommandContext } from '../command-context.js';
import { createStyle } from '../create-style.js';
import type { Env } from '../settings/council-settings.js';

/** A CliIo that records what was written, for tests. */
export function captureIo(options: { tty?: boolean; columns?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
    columns: options.columns,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

/** A command context over a captured io, with colours off and a fixed clock. */
export function testContext(options: { env?: Env; home?: string; cwd?: string; now?: Date; verbose?: boolean } = {}) {
  const captured = captureIo();
  const ctx: CommandContext = {
    io: captured.io,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    now: () => options.now ?? new Date('2026-11-22T12:00:00Z'),
    out: createStyle(false),
    err: createStyle(false),
    verbose: options.verbose ?? false,
    home: options.home,
    version: '0.0.0-test',
  };
  return { ctx, ...captured };
}
