import type { FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { ioError, notRegularFileError } from './io-error.js';
import type { SegmentFile } from './segment-files.js';
import { segmentNaming } from './segment-files.js';

/** A file of a store, open for reading: its chunks from a given offset, and how to let it go early. */
export interface OpenSegment {
  compressed: boolean;
  /** The uncompressed bytes from the offset asked for, in chunks valid until the next is read. */
  chunks: AsyncIterator<Buffer>;
  /** Releases the file when reading stops before the end (harmless after it). */
  close(): Promise<void>;
}

/**
 * Opens one file of a store for reading from `offset` (uncompressed bytes; a gzipped file is decompressed from its
 * start and the bytes before `offset` dropped). Opening comes first, so a rotation or compaction afterwards cannot
 * pull the file away; should one have moved it since it was listed, its lines live on under its segment name (plain,
 * then gzipped). A file gone under every name is null.
 */
export async function openSegment(options: {
  storePath: string;
  file: SegmentFile;
  offset: number;
}): Promise<OpenSegment | null> {
  const { storePath, file, offset } = options;
  const opened = await openFirstName(storePath, file);
  if (opened === null) return null;
  const { handle, compressed } = opened;
  if (!compressed) {
    const chunks = readInto(handle, offset);
    return { compressed, chunks, close: async () => void (await chunks.return(undefined)) };
  }
  const input = handle.createReadStream({ highWaterMark: 1024 * 1024 }); // closes the file when done
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  input.on('error', (error) => gunzip.destroy(error));
  const chunks = dropFirst(input.pipe(gunzip), offset);
  return {
    compressed,
    chunks,
    close: async () => {
      await chunks.return(undefined);
      input.destroy();
    },
  };
}

/** The candidate names of a file in turn; the active name only while it still holds the file that was listed. */
async function openFirstName(
  storePath: string,
  file: SegmentFile,
): Promise<{ handle: FileHandle; compressed: boolean } | null> {
  const naming = segmentNaming(storePath);
  const candidates = file.compressed
    ? [{ path: file.path, compressed: true }]
    : [
        ...(file.active ? [{ path: file.path, compressed: false }] : []),
        { path: naming.segmentPath(file.segment, false), compressed: false },
        { path: naming.segmentPath(file.segment, true), compressed: true },
      ];
  for (const candidate of candidates) {
    let handle: FileHandle;
    try {
      // O_NONBLOCK: a FIFO put where a file was listed opens at once (and is refused below) instead of waiting for a writer.
      handle = await open(candidate.path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw ioError({ action: 'read', path: candidate.path, cause: error });
    }
    const now = await handle.stat();
    if (!now.isFile()) {
      await handle.close();
      throw notRegularFileError({ action: 'read', path: candidate.path, info: now });
    }
    if (file.active && candidate.path === file.path) {
      if (`${now.dev}:${now.ino}` !== file.identity) {
        await handle.close(); // the name holds a newer file now; this one was closed as a segment
        continue;
      }
    }
    return { handle, compressed: candidate.compressed };
  }
  return null;
}

/**
 * A plain file's bytes from `position`, a megabyte at a time into two buffers reused for each read of the file: a
 * stream would allocate a new megabyte per read, and at a gigabyte a report that garbage outweighs everything kept.
 * Each chunk is valid only until the next is read (the line scanner copies what it carries over). Closes the file.
 */
async function* readInto(handle: FileHandle, position: number): AsyncGenerator<Buffer, void> {
  // Two buffers: the next read runs in the thread pool while the lines of the current one are scanned.
  const size = 1024 * 1024;
  let current = Buffer.allocUnsafe(size);
  let next = Buffer.allocUnsafe(size);
  let at = position;
  let pending = handle.read(current, 0, size, at);
  try {
    for (;;) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return;
      at += bytesRead;
      pending = handle.read(next, 0, size, at);
      yield current.subarray(0, bytesRead);
      [current, next] = [next, current];
    }
  } finally {
    await pending.catch(() => undefined); // a read still in flight when the consumer stops early
    await handle.close();
  }
}

/** The chunks past the first `bytes` bytes (gzip cannot seek: a compressed file is decompressed from its start). */
async function* dropFirst(chunks: AsyncIterable<Buffer>, bytes: number): AsyncGenerator<Buffer, void> {
  let toSkip = bytes;
  for await (const chunk of chunks) {
    if (chunk.length <= toSkip) {
      toSkip -= chunk.length;
      continue;
    }
    yield toSkip === 0 ? chunk : chunk.subarray(toSkip);
    toSkip = 0;
  }
}
