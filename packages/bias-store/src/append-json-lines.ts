import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioError, ioProblem, notRegularFileError } from './io-error.js';
import { makeDirectory } from './make-directory.js';

/**
 * Appends items as JSON lines to a file of one writer (such as `council batch`'s results file), in one write on an
 * append-only descriptor (file 0600, directory 0700), starting with a newline when a crash left the file without one,
 * so a torn line stays alone and the new lines parse. Whole or absent: a short write is completed, and when the rest
 * cannot be written the bytes written are truncated away again (the file must have no other writer meanwhile, which
 * is what "a file of one writer" means; Council's shared files are appended with `appendPrepared` instead). A FIFO, a
 * device or a directory at the path is refused before a byte is written; a symbolic link is followed (the file is the
 * user's). Throws a `BiasStoreError` (`IO_ERROR`) naming the file and what to do.
 */
export function appendJsonLines(path: string, items: readonly unknown[]): void {
  if (items.length === 0) return;
  makeDirectory(dirname(path));
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o600);
  } catch (error) {
    throw ioError({ action: 'append to', path, cause: error });
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw notRegularFileError({ action: 'append to', path, info });
    const before = info.size;
    let prefix = '';
    if (before > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, before - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    const data = Buffer.from(prefix + items.map((e) => JSON.stringify(e)).join('\n') + '\n');
    let written = 0;
    try {
      while (written < data.length) {
        const n = writeSync(fd, data, written, data.length - written);
        if (n <= 0) throw Object.assign(new Error(`write returned ${n}`), { code: 'EIO' });
        written += n;
      }
    } catch (error) {
      const problem = ioProblem(error);
      const { code, what, fix } = problem;
      let takenBack = written === 0;
      if (!takenBack && fstatSync(fd).size === before + written) {
        ftruncateSync(fd, before);
        takenBack = true;
      }
      const lines = `${items.length} line${items.length === 1 ? '' : 's'}`;
      throw new BiasStoreError({
        code: 'IO_ERROR',
        message: takenBack
          ? `Cannot append to ${path}: ${what} (${code}); nothing of the ${lines} was added. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}, then retry.`
          : `Cannot append to ${path}: ${what} (${code}); part of the ${lines} was written and could not be taken back (the file grew meanwhile). ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`,
        cause: error,
        problem,
      });
    }
  } finally {
    closeSync(fd);
  }
}
