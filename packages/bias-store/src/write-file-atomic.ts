import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import { makeDirectory } from './make-directory.js';

/** fsyncs a directory so a rename or a new name in it survives a crash (a no-op where directories cannot be opened). */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the data itself was fsynced.
  } finally {
    await handle?.close();
  }
}

/** `fsyncDirectory`, synchronously, for the writers that use synchronous system calls (appends, the session journal). */
export function fsyncDirectorySync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the data itself was fsynced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces `path` with `data` atomically: writes a temporary file beside it (mode 0600), fsyncs it,
 * renames it over `path` and fsyncs the directory. A crash leaves either the old or the new content.
 * Creates missing directories with mode 0700.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    makeDirectory(dir);
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error; // makeDirectory's, naming the directory
    throw ioError({ action: 'create the directory of', path, cause: error });
  }
  let handle;
  try {
    handle = await open(temp, 'wx', 0o600);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw ioError({ action: 'write', path, cause: error });
  }
  await fsyncDirectory(dir);
}
