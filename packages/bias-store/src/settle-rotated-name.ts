import { link } from 'node:fs/promises';
import type { NamedSegment } from './link-new-segment.js';
import { findSegmentName, linkNewSegment } from './link-new-segment.js';
import { errorCode, identityOf, statOrNull, unlinkIfPresent } from './quiet-fs.js';

/**
 * Lets go of the file a rotation moved from the active name to its private `rotatedName`, making sure it keeps a name
 * readers list:
 * - it already has a valid segment name (the one this rotation linked, `named`, or one another rotator linked before
 *   the move): the private name is just a second name, and goes;
 * - it has none: it became the active file after this rotation linked the previous one (another rotator closed that
 *   one first, and a writer began this one), so the move took it by mistake. It goes back to the active name, which
 *   readers have listed it under all along (numbered one past the highest segment); should a writer have begun yet
 *   another active file meanwhile, it is closed as a segment of its own instead.
 * The private name is removed only once one of those names exists. A missing `rotatedName` was settled already (by a
 * compaction tidying up after a dead rotator).
 */
export async function settleRotatedName(options: { path: string; rotatedName: string; named?: NamedSegment | null }): Promise<void> {
  const { path, rotatedName, named } = options;
  const info = await statOrNull(rotatedName);
  if (info === null) return;
  const identity = identityOf(info);
  if (named?.identity !== identity && (await findSegmentName({ path, identity })) === null) {
    try {
      await link(rotatedName, path);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      // Nobody can pin it any more (it is not the active file): with no other name and nothing in it, it can go.
      const now = await statOrNull(rotatedName);
      if (now === null) return;
      if (now.nlink > 1 || now.size > 0) {
        const closed = await linkNewSegment({ path, source: rotatedName });
        if (closed === null) return; // settled by another process meanwhile
      }
    }
  }
  await unlinkIfPresent(rotatedName);
}
