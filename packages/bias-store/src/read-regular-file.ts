import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { BiasStoreError } from './bias-store-error.js';
import { ioError, notRegularFileError } from './io-error.js';

/**
 * Reads a small file of Council's whole as UTF-8 text, or null when it does not exist. Only a regular file is read: a
 * FIFO (which would wait for a writer forever), a device or a directory at the path is an `IO_ERROR` naming it. The file
 * is opened with O_NONBLOCK and checked with fstat before a byte is read, so nothing hangs.
 */
export async function readRegularFile(path: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw ioError({ action: 'read', path, cause: error });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegularFileError({ action: 'read', path, info });
    return await handle.readFile('utf8');
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error;
    throw ioError({ action: 'read', path, cause: error });
  } finally {
    await handle.close();
  }
}
