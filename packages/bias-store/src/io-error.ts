import { BiasStoreError } from './bias-store-error.js';

const advice: Record<string, string> = {
  EACCES: 'permission denied; make it (and its directory) writable by this user, or choose another path',
  EPERM: 'operation not permitted; make it (and its directory) writable by this user, or choose another path',
  EROFS: 'the file system is read-only; choose a path on a writable file system',
  EISDIR: 'it is a directory; give the path of a file inside it instead',
  ENOTDIR: 'a component of the path is a file, not a directory; fix the path',
  ENOSPC: 'the disk is full; free some space and retry (nothing was lost: the write did not happen)',
  EDQUOT: 'the disk quota is exceeded; free some space and retry',
  EFBIG: 'the file reached the largest size this process may write (a file-size limit, ulimit -f); raise the limit or choose another path',
  EMFILE: 'too many open files; retry after other files are closed',
  ELOOP: 'too many symbolic links; fix the path',
  ENAMETOOLONG: 'the path is too long; choose a shorter one',
};

/** Wraps a file-system error as a `BiasStoreError` (`IO_ERROR`) that says what failed, where, and what to do. */
export function ioError(options: { action: string; path: string; cause: unknown }): BiasStoreError {
  const code = (options.cause as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
  const reading = options.action === 'read' || options.action.startsWith('list');
  const what = reading && (code === 'EACCES' || code === 'EPERM')
    ? 'permission denied; make it (and its directory) readable by this user'
    : (advice[code] ?? `the system reported ${code}; check that the path exists and is a ${reading ? 'readable' : 'writable'} regular file`);
  return new BiasStoreError({ code: 'IO_ERROR', message: `Cannot ${options.action} ${options.path}: ${what} (${code}).`, cause: options.cause });
}
