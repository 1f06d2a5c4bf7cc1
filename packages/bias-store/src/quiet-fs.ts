import type { Stats } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';

/** The `code` of a Node.js system error (`ENOENT`, `EEXIST`…), or undefined. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Device and inode: the same file under any of its names. */
export function identityOf(info: Stats): string {
  return `${info.dev}:${info.ino}`;
}

/** `stat`, with a missing file as null (it may be renamed or unlinked by another process at any moment). */
export async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Whether a name exists now. */
export async function pathExists(path: string): Promise<boolean> {
  return (await statOrNull(path)) !== null;
}

/** `unlink`, where "already gone" is success (another process got there first). */
export async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}
