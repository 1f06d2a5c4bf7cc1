import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { ioError } from './io-error.js';
import type { SegmentFile } from './segment-files.js';
import { segmentNaming } from './segment-files.js';

/** The line a visitor is handed; one object reused for every line, so copy what you keep. */
export interface JsonlLine {
  buf: Buffer;
  start: number;
  end: number;
  /** 1-based line number in the file. */
  line: number;
  /** False only for a last line without its newline (torn when it does not parse). */
  terminated: boolean;
  /** True when the bytes are known to be valid UTF-8; otherwise check before decoding. */
  utf8: boolean;
}

export interface JsonlLineVisitor {
  line(line: JsonlLine): void;
  /** A line longer than the limit: reported by its length, never buffered whole. */
  tooLong(line: number, bytes: number): void;
  /** A compressed file that cannot be decompressed past about `line`; the lines before it were read. */
  corrupt(line: number): void;
}

const newline = 0x0a;

/** Wraps what a visitor throws, so that it is not taken for an error of the file being read. */
class VisitorError extends Error {
  constructor(override readonly cause: unknown) {
    super('visitor error');
  }
}

/**
 * Opens one file of a store for reading. Should a rotation or compaction have moved it since it was listed,
 * its lines live on under its segment name (plain, then gzipped); a file gone under every name is null.
 */
async function openSegment(storePath: string, file: SegmentFile): Promise<{ handle: FileHandle; compressed: boolean } | null> {
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
      handle = await open(candidate.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw ioError({ action: 'read', path: candidate.path, cause: error });
    }
    if (file.active && candidate.path === file.path) {
      const now = await handle.stat();
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
 * A plain file's bytes, a megabyte at a time into two buffers reused for each read of the file: a stream would allocate a
 * new megabyte per read, and at a gigabyte a report that garbage outweighs everything kept. Each chunk is
 * valid only until the next is read (the line scanner copies what it carries over). Closes the file.
 */
async function* readInto(handle: FileHandle): AsyncGenerator<Buffer> {
  // Two buffers: the next read runs in the thread pool while the lines of the current one are scanned.
  const size = 1024 * 1024;
  let current = Buffer.allocUnsafe(size);
  let next = Buffer.allocUnsafe(size);
  let pending = handle.read(current, 0, size, null);
  try {
    for (;;) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return;
      pending = handle.read(next, 0, size, null);
      yield current.subarray(0, bytesRead);
      [current, next] = [next, current];
    }
  } finally {
    await pending.catch(() => undefined); // a read still in flight when the consumer stops early
    await handle.close();
  }
}

/**
 * Streams the lines of one file of a store (plain or gzip), synchronously within each chunk: one pass,
 * no per-line string or promise. Returns the number of lines seen.
 */
export async function scanJsonlLines(options: { storePath: string; file: SegmentFile; maxLineBytes: number; visitor: JsonlLineVisitor }): Promise<number> {
  const { storePath, file, maxLineBytes, visitor } = options;
  const opened = await openSegment(storePath, file);
  if (opened === null) return 0;
  const { handle, compressed } = opened;
  let stream: AsyncIterable<Buffer>;
  let raw: { destroy(): void } | null = null;
  if (compressed) {
    const input = handle.createReadStream({ highWaterMark: 1024 * 1024 }); // closes the file when done
    const gunzip = createGunzip({ chunkSize: 256 * 1024 });
    input.on('error', (error) => gunzip.destroy(error));
    stream = input.pipe(gunzip);
    raw = input;
  } else {
    stream = readInto(handle);
  }
  const current: JsonlLine = { buf: Buffer.alloc(0), start: 0, end: 0, line: 0, terminated: true, utf8: false };
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false; // inside a line longer than maxLineBytes
  // An error the visitor throws is its own, never the file's: it passes through untouched.
  const emit = (buf: Buffer, start: number, end: number): void => {
    current.buf = buf;
    current.start = start;
    current.end = end;
    try {
      visitor.line(current);
    } catch (error) {
      throw new VisitorError(error);
    }
  };
  try {
    for await (const chunk of stream) {
      let position = 0;
      // One native UTF-8 check for the whole lines of this chunk instead of one per line.
      const wholeFrom = pendingBytes === 0 && !discarding ? 0 : chunk.indexOf(newline) + 1;
      const wholeTo = chunk.lastIndexOf(newline);
      const chunkUtf8 = wholeTo >= wholeFrom && isUtf8(chunk.subarray(wholeFrom, wholeTo));
      for (;;) {
        const nl = chunk.indexOf(newline, position);
        if (nl === -1) break;
        current.line++;
        const lineBytes = pendingBytes + (nl - position);
        // A CR before the newline is not part of the line's length limit.
        const counted = lineBytes > 0 && (nl > position ? chunk[nl - 1] : pending.at(-1)?.at(-1)) === 0x0d ? lineBytes - 1 : lineBytes;
        if (discarding || counted > maxLineBytes) {
          visitor.tooLong(current.line, lineBytes);
        } else if (pendingBytes === 0) {
          current.utf8 = chunkUtf8;
          emit(chunk, position, nl);
        } else {
          pending.push(chunk.subarray(position, nl));
          current.utf8 = false;
          emit(Buffer.concat(pending, lineBytes), 0, lineBytes);
        }
        pending = [];
        pendingBytes = 0;
        discarding = false;
        position = nl + 1;
      }
      if (position < chunk.length) {
        pendingBytes += chunk.length - position;
        if (pendingBytes > maxLineBytes) {
          discarding = true;
          pending = [];
        } else {
          pending.push(Buffer.from(chunk.subarray(position))); // a copy: the chunk is not kept alive
        }
      }
    }
  } catch (error) {
    raw?.destroy(); // closes the file (a plain file's reader closes its own)
    if (error instanceof VisitorError) throw error.cause;
    // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR…) mean a damaged file; anything else is the file system's.
    const code = (error as NodeJS.ErrnoException).code;
    if (!compressed || typeof code !== 'string' || !code.startsWith('Z_')) throw ioError({ action: 'read', path: file.path, cause: error });
    visitor.corrupt(current.line + 1);
    return current.line;
  }
  if (pendingBytes > 0 || discarding) {
    current.line++;
    current.terminated = false;
    current.utf8 = false;
    try {
      if (discarding) visitor.tooLong(current.line, pendingBytes);
      else emit(Buffer.concat(pending, pendingBytes), 0, pendingBytes);
    } catch (error) {
      throw error instanceof VisitorError ? error.cause : error;
    }
    current.terminated = true;
  }
  return current.line;
}
