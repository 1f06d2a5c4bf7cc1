import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';

/**
 * A fault to strike one write (or fsync) of the files under a directory, as a full disk, a file-size limit, a failing
 * disk or a crash would: the calls before it go through, the one it strikes writes `bytes` of its data (a short
 * write), and then
 * - `ENOSPC`, `EFBIG`, `EIO`…: that call returns the short count (or throws at once when `bytes` is 0), and every later
 *   write under the directory throws the code, as a disk that stays full;
 * - `SIGKILL`: the process is killed there, as a crash between two bytes.
 */
export interface WriteFault {
  /** Only writes to files under this directory count and fail (the path of each descriptor, from /proc/self/fd). */
  under: string;
  /** Which matching call (0-based) the fault strikes. */
  at: number;
  /** `write` (default) or `fsync`. */
  call?: 'write' | 'fsync';
  /** Bytes of the struck write that reach the file first. Default 0. */
  bytes?: number;
  fault: string;
}

export interface InjectedWriteFaults {
  /** Matching calls so far (writes, or fsyncs for a `call: 'fsync'` fault). */
  readonly calls: number;
  /** Whether the fault has struck. */
  readonly struck: boolean;
  restore(): void;
}

function pathOf(fd: number): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function errnoError(code: string, syscall: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EFBIG: 'file too large',
    EIO: 'i/o error',
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
  };
  return Object.assign(new Error(`${code}: ${messages[code] ?? 'injected fault'}, ${syscall}`), {
    code,
    syscall,
    errno: -1,
  });
}

/**
 * Replaces `fs.writeSync` and `fs.fsyncSync` (and the `node:fs` named exports that modules imported, through
 * `syncBuiltinESMExports`) with versions that strike `fault`. Linux only (it names descriptors through /proc/self/fd).
 * Council's appends, journal and output files are written with these synchronous calls, so every write of theirs can
 * be struck. Call `restore()` afterwards.
 */
export function injectWriteFaults(fault: WriteFault): InjectedWriteFaults {
  const under = resolve(fault.under);
  const originalWrite = fs.writeSync;
  const originalFsync = fs.fsyncSync;
  const state = { calls: 0, struck: false };
  const matches = (fd: number): boolean => {
    const path = pathOf(fd);
    return path !== null && (path === under || path.startsWith(`${under}/`));
  };
  const strike = (syscall: string): never => {
    if (fault.fault === 'SIGKILL') process.kill(process.pid, 'SIGKILL');
    throw errnoError(fault.fault, syscall);
  };
  const write = (fd: number, buffer: unknown, ...rest: unknown[]): number => {
    const call = (...args: unknown[]): number => (originalWrite as (...a: unknown[]) => number)(fd, buffer, ...args);
    if ((fault.call ?? 'write') !== 'write' || !matches(fd)) return call(...rest);
    if (state.struck) strike('write');
    const n = state.calls++;
    if (n !== fault.at) return call(...rest);
    state.struck = true;
    // Only Buffer writes (offset, length) are cut short; Council writes Buffers.
    const data = typeof buffer === 'string' ? Buffer.from(buffer) : (buffer as Buffer);
    const offset = typeof rest[0] === 'number' ? rest[0] : 0;
    const length = typeof rest[1] === 'number' ? rest[1] : data.length - offset;
    const bytes = Math.min(fault.bytes ?? 0, length);
    const wrote = bytes > 0 ? (originalWrite as (...a: unknown[]) => number)(fd, data, offset, bytes, null) : 0;
    if (fault.fault === 'SIGKILL') process.kill(process.pid, 'SIGKILL');
    if (wrote > 0) return wrote;
    throw errnoError(fault.fault, 'write');
  };
  const fsync = (fd: number): void => {
    if (fault.call !== 'fsync' || !matches(fd)) return originalFsync(fd);
    if (state.struck) strike('fsync');
    const n = state.calls++;
    if (n !== fault.at) return originalFsync(fd);
    state.struck = true;
    strike('fsync');
  };
  (fs as { writeSync: unknown }).writeSync = write;
  (fs as { fsyncSync: unknown }).fsyncSync = fsync;
  syncBuiltinESMExports();
  return {
    get calls() {
      return state.calls;
    },
    get struck() {
      return state.struck;
    },
    restore: () => {
      (fs as { writeSync: unknown }).writeSync = originalWrite;
      (fs as { fsyncSync: unknown }).fsyncSync = originalFsync;
      syncBuiltinESMExports();
    },
  };
}
