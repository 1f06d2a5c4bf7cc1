import type { Stats } from 'node:fs';
import { BiasStoreError } from './bias-store-error.js';

/** What a file-system error code means for the user (`what`), and what to do about it (`fix`). */
export interface IoProblem {
  code: string;
  what: string;
  fix: string;
}

const problems: Record<string, [what: string, fix: string]> = {
  EACCES: ['permission denied', 'make it (and its directory) writable by this user, or choose another path'],
  EPERM: ['operation not permitted', 'make it (and its directory) writable by this user, or choose another path'],
  EROFS: ['the file system is read-only', 'choose a path on a writable file system'],
  EISDIR: ['it is a directory', 'give the path of a file inside it instead'],
  ENOTDIR: ['a component of the path is a file, not a directory', 'fix the path'],
  ENOSPC: ['the disk is full', 'free some space'],
  EDQUOT: ['the disk quota is exceeded', 'free some space'],
  EFBIG: [
    'the file reached the largest size this process may write (a file-size limit, ulimit -f)',
    'raise the limit or choose another path',
  ],
  EIO: ['the disk reported an input/output error', 'check the disk (dmesg)'],
  EMFILE: ['too many open files', 'retry after other files are closed'],
  ELOOP: ['too many symbolic links', 'fix the path'],
  ENAMETOOLONG: ['the path is too long', 'choose a shorter one'],
};

/** The code of a file-system error and its meaning, for a message that says what was wrong and what to do. */
export function ioProblem(cause: unknown, reading = false): IoProblem {
  // A store error already worded: its problem, or that of the system error under it.
  if (BiasStoreError.isInstance(cause)) return cause.problem ?? ioProblem(cause.cause, reading);
  const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
  if (reading && (code === 'EACCES' || code === 'EPERM'))
    return { code, what: 'permission denied', fix: 'make it (and its directory) readable by this user' };
  const known = problems[code];
  if (known !== undefined) return { code, what: known[0], fix: known[1] };
  return {
    code,
    what: `the system reported ${code}`,
    fix: `check that the path exists and is a ${reading ? 'readable' : 'writable'} regular file`,
  };
}

/** Wraps a file-system error as a `BiasStoreError` (`IO_ERROR`) that says what failed, where, and what to do. */
export function ioError(options: { action: string; path: string; cause: unknown }): BiasStoreError {
  const reading = options.action === 'read' || options.action.startsWith('list');
  const problem = ioProblem(options.cause, reading);
  const { code, what, fix } = problem;
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `Cannot ${options.action} ${options.path}: ${what}; ${fix} (${code}).`,
    cause: options.cause,
    problem,
  });
}

/** What kind of file `info` is, in words: `a directory`, `a FIFO (named pipe)`, `a character device`… */
export function fileKind(info: Stats): string {
  if (info.isFile()) return 'a regular file';
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * The error for a file slot that holds something other than a regular file (a FIFO would hang a reader and swallow a
 * writer's lines; a device or a directory is never a store): refused before any byte is read or written.
 */
export function notRegularFileError(options: { action: string; path: string; info: Stats }): BiasStoreError {
  const { action, path, info } = options;
  if (info.isDirectory())
    return ioError({ action, path, cause: Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' }) });
  const kind = fileKind(info);
  const problem: IoProblem = {
    code: 'ENOTREG',
    what: `it is ${kind}, not a regular file`,
    fix: 'Council keeps its data only in regular files: remove it, or choose another path',
  };
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `Cannot ${action} ${path}: ${problem.what}; ${problem.fix}.`,
    cause: Object.assign(new Error(`${path} is ${kind}`), { code: 'ENOTREG' }),
    problem,
  });
}
