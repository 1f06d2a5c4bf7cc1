import { link } from 'node:fs/promises';
import { identityOf, errorCode, pathExists, statOrNull, unlinkIfPresent } from './quiet-fs.js';
import { readStoreDirectory, segmentNaming } from './segment-files.js';

/** A closed segment's number and the file (device:inode) it names. */
export interface NamedSegment {
  segment: number;
  identity: string;
}

// A plain segment name is *valid* (it holds its number) when no `.gz` of that number exists. Numbers are never freed:
// compaction publishes `N.jsonl.gz` before it removes `N.jsonl`, so a used number always has one of the two. A `.gz`
// never goes away either, so "no `.gz` when checked after the plain name was seen" means the number was free when the
// plain name was made; and a plain name made while the `.gz` already existed (a link racing a compaction) is a stray
// that only its maker relies on, for no longer than it takes to see the `.gz` and unlink it.

/**
 * Gives the file now at `source` a closed-segment name of its own: `link(source, N.jsonl)` for the lowest free number
 * above the highest in use. `link` never replaces a name, so a segment is never overwritten. If that name turns out
 * to be taken by this very file (a concurrent rotator linked it a moment ago), that name serves. If the number's plain
 * file had already been compacted away (its `.gz` exists), the link is a stray: it is unlinked again and the next
 * number tried. Returns the number and the file it names, or null when `source` no longer exists.
 */
export async function linkNewSegment(options: { path: string; source: string }): Promise<NamedSegment | null> {
  const { path, source } = options;
  const naming = segmentNaming(path);
  const { segments } = await readStoreDirectory(path);
  let segment = Math.max(0, ...segments.keys()) + 1;
  for (; ; segment++) {
    const target = naming.segmentPath(segment, false);
    try {
      await link(source, target);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') return null; // moved away meanwhile (by another rotator)
      if (code !== 'EEXIST') throw error;
      const [there, here] = [await statOrNull(target), await statOrNull(source)];
      if (
        there !== null &&
        here !== null &&
        identityOf(there) === identityOf(here) &&
        !(await pathExists(naming.segmentPath(segment, true)))
      ) {
        return { segment, identity: identityOf(there) };
      }
      continue;
    }
    const linked = await statOrNull(target); // ours: only a stray name can be unlinked by another process
    if (linked !== null && !(await pathExists(naming.segmentPath(segment, true))))
      return { segment, identity: identityOf(linked) };
    await unlinkIfPresent(target); // a stray beside a compacted number: nobody else relies on it
  }
}

/**
 * The number of a valid segment name of the file `identity`, or null. Only plain segments without a `.gz` are looked
 * at (newest first): once compaction keeps up, that is the few newest.
 */
export async function findSegmentName(options: { path: string; identity: string }): Promise<number | null> {
  const { path, identity } = options;
  const naming = segmentNaming(path);
  const { segments } = await readStoreDirectory(path);
  const candidates = [...segments.entries()]
    .filter(([, entry]) => entry.plain && !entry.compressed)
    .map(([segment]) => segment)
    .sort((a, b) => b - a);
  for (const segment of candidates) {
    const info = await statOrNull(naming.segmentPath(segment, false));
    if (info === null || identityOf(info) !== identity) continue;
    if (await pathExists(naming.segmentPath(segment, true))) continue; // a stray, about to be taken back
    return segment;
  }
  return null;
}
