import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { link, open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import { linkNewSegment } from './link-new-segment.js';
import { ownerIsGone, privateName } from './private-names.js';
import { errorCode, pathExists, unlinkIfPresent } from './quiet-fs.js';
import { readStoreDirectory, segmentNaming } from './segment-files.js';
import { settleRotatedName } from './settle-rotated-name.js';
import { fsyncDirectory } from './write-file-atomic.js';

export interface JsonlCompactOptions {
  /**
   * Compact a closed segment only once its last change is this old. Default 0: compaction never needs to wait,
   * since it only touches a segment no writer can still write (see `compactSegments`). Kept for callers that pass it.
   */
  minAgeMs?: number;
}

export interface JsonlCompactResult {
  /** Closed segments gzipped by this call. */
  compacted: number;
  bytesBefore: number;
  bytesAfter: number;
}

interface Digest {
  hash: string;
  bytes: number;
}

/**
 * Gzips the closed segments of the store at `path` that no writer can still write: a plain segment whose file has one
 * name (`nlink === 1`). A writer holds a second name (a pin) for as long as it may write, the active name and a
 * rotation's private name are names too, and a pin can only be made of the active file — so a closed segment with one
 * name is final, now and later. Each is copied to a private temporary file, fsynced, verified (the copy decompresses
 * to the same SHA-256 and length, and the segment did not change meanwhile), published with `link(temp, N.jsonl.gz)`
 * (which never replaces a `.gz` another compactor published), the directory fsynced, and only then the plain file
 * removed: a used number always has a plain file or a `.gz`, so numbers are never freed or reused.
 *
 * First it tidies up after dead processes of this host: their pins and temporary copies go (a pin is a second name,
 * a copy is unpublished or also the `.gz`), and a rotation's private name is settled (`settleRotatedName`).
 */
export async function compactSegments(options: { path: string; minAgeMs: number }): Promise<JsonlCompactResult> {
  const { path, minAgeMs } = options;
  await removeLeftovers(path);
  const naming = segmentNaming(path);
  const { segments } = await readStoreDirectory(path);
  const result: JsonlCompactResult = { compacted: 0, bytesBefore: 0, bytesAfter: 0 };
  for (const segment of [...segments.keys()].sort((a, b) => a - b)) {
    if (!segments.get(segment)!.plain) continue;
    try {
      const done = await compactSegment({ path, segment, minAgeMs });
      if (done === null) continue;
      result.compacted++;
      result.bytesBefore += done.before;
      result.bytesAfter += done.after;
    } catch (error) {
      throw ioError({ action: 'compact', path: naming.segmentPath(segment, false), cause: error });
    }
  }
  return result;
}

/** `store.compact(options)`: checks `minAgeMs`, then compacts (see `compactSegments`). */
export async function compactStore(path: string, options?: JsonlCompactOptions): Promise<JsonlCompactResult> {
  const minAgeMs = options?.minAgeMs ?? 0;
  if (!Number.isFinite(minAgeMs) || minAgeMs < 0) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `compact({ minAgeMs }) must be a number of milliseconds ≥ 0; got ${String(minAgeMs)}.`,
    });
  }
  return compactSegments({ path, minAgeMs });
}

async function removeLeftovers(path: string): Promise<void> {
  const { privateNames } = await readStoreDirectory(path);
  for (const name of privateNames) {
    if (!ownerIsGone(name)) continue;
    if (name.kind === 'rotated') {
      try {
        await settleRotatedName({ path, rotatedName: name.path });
      } catch (error) {
        throw ioError({ action: 'tidy up after a rotation of', path: name.path, cause: error });
      }
    } else {
      await unlinkIfPresent(name.path).catch(() => undefined); // not ours to insist on: try again next time
    }
  }
}

async function compactSegment(options: {
  path: string;
  segment: number;
  minAgeMs: number;
}): Promise<{ before: number; after: number } | null> {
  const { path, segment, minAgeMs } = options;
  const naming = segmentNaming(path);
  const plain = naming.segmentPath(segment, false);
  const target = naming.segmentPath(segment, true);
  let handle: FileHandle;
  try {
    handle = await open(plain, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null; // compacted by another process since it was listed
    throw error;
  }
  try {
    const before = await handle.stat();
    // More than one name: a writer may still write it (or it is still the active file, or a rotation holds it).
    if (before.nlink !== 1 || before.size === 0) return null;
    if (minAgeMs > 0 && Date.now() - before.ctimeMs < minAgeMs) return null;
    if (await pathExists(target)) {
      await settleTwoCopies({ path, segment, handle });
      return null;
    }
    const temp = privateName(target, 'tmp');
    try {
      const original = await gzipCopy(handle, temp);
      const copy = await digestOf(createReadStream(temp), true);
      const after = await handle.stat();
      // Defence in depth against writers that do not pin (older versions): a changed segment waits for next time.
      if (
        copy.hash !== original.hash ||
        copy.bytes !== original.bytes ||
        after.size !== before.size ||
        after.mtimeMs !== before.mtimeMs ||
        after.nlink !== 1
      ) {
        return null;
      }
      const bytesAfter = (await stat(temp)).size;
      try {
        await link(temp, target);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        await settleTwoCopies({ path, segment, handle }); // another compactor published first
        return null;
      }
      await unlinkIfPresent(temp);
      await fsyncDirectory(naming.dir);
      await unlinkIfPresent(plain);
      return { before: before.size, after: bytesAfter };
    } finally {
      await unlinkIfPresent(temp);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Both `N.jsonl` (final: one name) and `N.jsonl.gz` exist. The same bytes: a compactor published the `.gz` and has not
 * removed the plain file yet (or died first), so it goes. Other bytes (only an older version or a hand could do that):
 * readers take the `.gz`, so the plain file gets a number of its own before its name here goes. A `.gz` that cannot be
 * read: both stay, and a warning says so (readers report the damage as `corrupt_segment`).
 */
async function settleTwoCopies(options: { path: string; segment: number; handle: FileHandle }): Promise<void> {
  const { path, segment, handle } = options;
  const naming = segmentNaming(path);
  const plain = naming.segmentPath(segment, false);
  const target = naming.segmentPath(segment, true);
  const ours = await digestOf(handle.createReadStream({ start: 0, autoClose: false }), false);
  let theirs: Digest;
  try {
    theirs = await digestOf(createReadStream(target), true);
  } catch {
    process.emitWarning(
      `${target} cannot be decompressed and ${plain} is beside it: both are kept; check the disk, then remove the damaged one.`,
      {
        code: 'COUNCIL_STORE_DAMAGED_SEGMENT',
      },
    );
    return;
  }
  if (ours.hash === theirs.hash && ours.bytes === theirs.bytes) {
    await unlinkIfPresent(plain);
    return;
  }
  const moved = await linkNewSegment({ path, source: plain });
  if (moved === null) return;
  await unlinkIfPresent(plain);
  process.emitWarning(
    `${plain} and ${target} held different lines; the plain file was kept as segment ${moved.segment}.`,
    {
      code: 'COUNCIL_STORE_SEGMENT_MISMATCH',
    },
  );
}

/** Streams the segment into a gzip -9 copy at `temp` (mode 0600, fsynced); returns the digest of what it read. */
async function gzipCopy(handle: FileHandle, temp: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(
    handle.createReadStream({ start: 0, autoClose: false, highWaterMark: 1024 * 1024 }),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    },
    createGzip({ level: 9 }),
    createWriteStream(temp, { flags: 'wx', mode: 0o600 }),
  );
  const out = await open(temp, 'r');
  try {
    await out.sync();
  } finally {
    await out.close();
  }
  return { hash: hash.digest('hex'), bytes };
}

async function digestOf(source: Readable, gzipped: boolean): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  const sink = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of chunks) {
      hash.update(chunk);
      bytes += chunk.length;
    }
  };
  if (gzipped) await pipeline(source, createGunzip(), sink);
  else await pipeline(source, sink);
  return { hash: hash.digest('hex'), bytes };
}
