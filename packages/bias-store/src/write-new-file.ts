import { closeSync, constants, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import { privateName } from './private-names.js';
import { errorCode } from './quiet-fs.js';
import { fsyncDirectorySync } from './write-file-atomic.js';

/** Writes all of `data` to `fd`, checking the byte count of every write (a short write is completed, or an error). */
function writeAll(fd: number, data: Buffer): void {
  for (let written = 0; written < data.length;) {
    const n = writeSync(fd, data, written, data.length - written);
    if (n <= 0) throw Object.assign(new Error(`write returned ${n}`), { code: 'EIO' });
    written += n;
  }
}

/**
 * Writes `data` to a new temporary file beside `path` (`<path>.tmp-<owner>-<pid>-<n>`, mode 0600, created exclusively),
 * whole — every write's byte count checked — and fsynced; returns its path. On failure it is removed again and the
 * error (`IO_ERROR`) names `path`. The caller gives it its final name (`rename`, or `link` where nothing may be replaced).
 */
export function writeTemporaryFile(path: string, data: string | Uint8Array): string {
  const temp = privateName(path, 'tmp');
  writeExclusively(temp, data, { named: path });
  return temp;
}

/**
 * Creates `file` (O_EXCL, never through a link, 0600), writes `data` whole and fsyncs it; on failure the file is
 * removed again. Errors name `named` (the user's file, for a temporary one); an existing `file` is `existsError`.
 */
function writeExclusively(file: string, data: string | Uint8Array, options: { named: string }): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST' && file === options.named) throw existsError(file, error);
    throw ioError({ action: 'write', path: options.named, cause: error });
  }
  try {
    writeAll(
      fd,
      typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    );
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    removeQuietly(file);
    throw ioError({ action: 'write', path: options.named, cause: error });
  }
  closeSync(fd);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // a temporary name left behind holds nothing anyone reads
  }
}

/**
 * Creates the file `path` holding `data`, whole or not at all, and never over anything already there: the data goes to
 * a temporary file beside it (`writeTemporaryFile`), which `link` then gives its name — `link` fails when the name
 * exists, so nothing is replaced — and the temporary name goes; the directory is fsynced. A full disk, a file-size limit
 * or any other failure leaves no file at `path`, so a retry is not blocked by an empty one. Where the file system has no
 * hard links, the file is created exclusively (O_EXCL) and removed again if its writing fails. Throws `IO_ERROR`; when
 * `path` exists the error's `problem.code` is `EEXIST`.
 */
export function createNewFile(path: string, data: string | Uint8Array): void {
  const temp = writeTemporaryFile(path, data);
  try {
    linkSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    const code = errorCode(error);
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') {
      writeExclusively(path, data, { named: path });
      return;
    }
    if (code === 'EEXIST') throw existsError(path, error);
    throw ioError({ action: 'write', path, cause: error });
  }
  removeQuietly(temp);
  fsyncDirectorySync(dirname(path));
}

function existsError(path: string, cause: unknown): BiasStoreError {
  const problem = { code: 'EEXIST', what: 'it already exists', fix: 'nothing was overwritten; move it away first' };
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `Cannot create ${path}: ${problem.what}; ${problem.fix}.`,
    cause,
    problem,
  });
}

/**
 * Replaces (or creates) `path` with `data`, whole or not at all: a temporary file beside it (`writeTemporaryFile`: 0600,
 * byte counts checked, fsynced) renamed over it, then the directory fsynced. A crash or a full disk leaves the old
 * file or the new one, never part of either. It replaces whatever the name holds: a caller writing a file the user named
 * checks first that the name holds a regular file that is no file of Council's (`@council/cli`'s output check).
 */
export function replaceFileWhole(path: string, data: string | Uint8Array): void {
  const temp = writeTemporaryFile(path, data);
  try {
    renameSync(temp, path);
  } catch (error) {
    removeQuietly(temp);
    throw ioError({ action: 'write', path, cause: error });
  }
  fsyncDirectorySync(dirname(path));
}
