import { link } from 'node:fs/promises';
import type { NamedSegment } from './link-new-segment.js';
import { findSegmentName, linkNewSegment } from './link-new-segment.js';
import { errorCode, identityOf, statOrNull, unlinkIfPresent } from './quiet-fs.js';
import { segmentNaming } from './segment-files.js';

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
export async function settleRotatedName(options: {
  path: string;
  rotatedName: string;
  named?: NamedSegment | null;
}): Promise<void> {
  const { path, rotatedName, named } = options;
  const info = await statOrNull(rotatedName);
  if (info === null) return;
  const identity = identityOf(info);
  // The moved file is kept alive by rotatedName, so comparing it with a name that exists *now* is sound; an identity
  // recorded before an await is not: the file it named may since have been compacted and deleted, and its inode
  // number given to a new active file — the one this rotation then moved (records were lost that way).
  const stillNamed =
    named !== undefined &&
    named !== null &&
    named.identity === identity &&
    (await holdsSegmentName({ path, segment: named.segment, identity }));
  if (!stillNamed && (await findSegmentName({ path, identity })) === null) {
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

/** Whether plain segment `segment` exists now, is the file `identity` names, and has not been compacted. */
async function holdsSegmentName(options: { path: string; segment: number; identity: string }): Promise<boolean> {
  const naming = segmentNaming(options.path);
  const plain = await statOrNull(naming.segmentPath(options.segment, false));
  return (
    plain !== null &&
    identityOf(plain) === options.identity &&
    (await statOrNull(naming.segmentPath(options.segment, true))) === null
  );
}
