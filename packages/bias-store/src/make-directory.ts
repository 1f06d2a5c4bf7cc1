import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { fileKind, ioError } from './io-error.js';
import { errorCode } from './quiet-fs.js';

/**
 * Creates `dir` and its missing parents (mode 0700 by default), one level at a time. Node's own
 * `mkdir(…, { recursive: true })` never returns under a file system that refuses new entries with
 * ENOENT, such as `/proc` (`LLM_COUNCIL_HOME=/proc/council`): it retries the parent, which exists, forever at
 * 100% CPU. Here each `mkdir` is made once, so such a path fails at once: a `BiasStoreError` (`IO_ERROR`) naming
 * the directory that could not be created and what to do. An existing directory is left as it is.
 */
export function makeDirectory(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let path = resolve(dir); ; path = dirname(path)) {
    let exists: boolean;
    try {
      exists = statSync(path, { throwIfNoEntry: false }) !== undefined;
    } catch (error) {
      // A parent that is a file: mkdir below reports ENOTDIR on the first level.
      if (errorCode(error) !== 'ENOTDIR') throw error;
      exists = false;
    }
    if (exists) break;
    missing.push(path);
    if (dirname(path) === path) break;
  }
  // No missing level: the path exists; recursive mkdir returns for a directory and throws EEXIST for a file.
  if (missing.length === 0) missing.push(resolve(dir));
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      const code = errorCode(error);
      // Created meanwhile by another process (or there from the start): fine if it is a directory.
      if (code === 'EEXIST') {
        const info = statSync(path);
        if (info.isDirectory()) continue;
        const problem = {
          code: 'EEXIST',
          what: `${fileKind(info)} is in the way`,
          fix: 'move it away, or choose another path',
        };
        throw new BiasStoreError({
          code: 'IO_ERROR',
          message: `Cannot create the directory ${path}: ${problem.what}; ${problem.fix}.`,
          cause: error,
          problem,
        });
      }
      if (code === 'ENOENT') {
        // The parent exists (checked above), so the file system itself refuses new entries here (/proc, /sys).
        const problem = {
          code: 'ENOENT',
          what: 'this file system does not allow new directories there',
          fix: 'choose a directory on a writable file system',
        };
        throw new BiasStoreError({
          code: 'IO_ERROR',
          message: `Cannot create the directory ${path}: ${problem.what} (ENOENT); ${problem.fix}.`,
          cause: error,
          problem,
        });
      }
      throw ioError({ action: 'create the directory', path, cause: error });
    }
  }
}
