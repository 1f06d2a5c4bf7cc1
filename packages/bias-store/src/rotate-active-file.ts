import type { FileHandle } from 'node:fs/promises';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import type { NamedSegment } from './link-new-segment.js';
import { findSegmentName, linkNewSegment } from './link-new-segment.js';
import { privateName } from './private-names.js';
import { errorCode, identityOf, statOrNull } from './quiet-fs.js';
import { segmentNaming } from './segment-files.js';
import { settleRotatedName } from './settle-rotated-name.js';
import { fsyncDirectory } from './write-file-atomic.js';

/**
 * Closes the active file as a segment once it holds at least `minBytes`, in two steps that each leave every byte
 * under a name readers list:
 * 1. `link(active, N.jsonl)`: the file gets its segment name and keeps its inode (see `linkNewSegment`). A rotator
 *    that died after this step is finished by the next one, which finds that name and uses it.
 * 2. `rename(active, <private name>)`, which moves *whatever* file is at the active name at that instant, atomically;
 *    then `settleRotatedName` checks what it moved before the private name goes. The active name is never unlinked.
 * Appends keep landing safely meanwhile: a writer pins the file it writes into (`append-lines.ts`), so a write into a
 * file after it was closed lands in a closed segment that compaction leaves alone until the writer is done.
 *
 * The `<path>.rotate.lock` file (O_EXCL) only saves work: with it, one process rotates and the others append on. A
 * lock older than `lockStaleMs` is taken over (its holder died), possibly by several processes at once; two rotators
 * at once cost at worst a second segment name for one file, never a record.
 * Returns the closed segment's number, or null when nothing was rotated (too small, or another process is at it).
 */
export async function rotateActiveFile(options: {
  path: string;
  minBytes: number;
  lockStaleMs: number;
}): Promise<number | null> {
  const { path, minBytes, lockStaleMs } = options;
  return withRotationLock({ path, lockStaleMs }, async () => {
    const info = await statOrNull(path);
    if (info === null || info.size < Math.max(1, minBytes)) return null;
    // Already named by a rotator that died after step 1 (or is at it with a stale lock): that name serves.
    const existing = await findSegmentName({ path, identity: identityOf(info) });
    const named: NamedSegment | null =
      existing === null
        ? await linkNewSegment({ path, source: path })
        : { segment: existing, identity: identityOf(info) };
    if (named === null) return null; // moved away meanwhile by another rotator
    const rotatedName = privateName(path, 'rotated');
    try {
      await rename(path, rotatedName);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      return named.segment; // another rotator moved it; it keeps the name linked above
    }
    await settleRotatedName({ path, rotatedName, named });
    await fsyncDirectory(segmentNaming(path).dir);
    return named.segment;
  });
}

/** `store.rotate()`: closes the active file as a segment now, if it holds anything; a file-system failure is an `IO_ERROR`. */
export async function rotateNow(options: { path: string; lockStaleMs: number }): Promise<number | null> {
  try {
    return await rotateActiveFile({ ...options, minBytes: 1 });
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error;
    throw ioError({ action: 'close a segment of', path: options.path, cause: error });
  }
}

async function withRotationLock<R>(
  options: { path: string; lockStaleMs: number },
  fn: () => Promise<R>,
): Promise<R | null> {
  const { path, lockStaleMs } = options;
  const lockPath = `${path}.rotate.lock`;
  let lock: FileHandle | undefined;
  for (let attempt = 0; attempt < 2 && lock === undefined; attempt++) {
    try {
      lock = await open(lockPath, 'wx', 0o600);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw ioError({ action: 'lock', path, cause: error });
      const held = await stat(lockPath).catch(() => null);
      if (held === null) continue; // released meanwhile: try again
      if (Date.now() - held.mtimeMs < lockStaleMs) return null; // another process is rotating
      // Stale: its holder died (or is very slow). Several processes may get here at once, and all go on to rotate:
      // the rotation is safe without the lock, which only saves work.
      await unlink(lockPath).catch(() => undefined);
    }
  }
  if (lock === undefined) return null;
  try {
    return await fn();
  } finally {
    await lock.close();
    await unlink(lockPath).catch(() => undefined);
  }
}
