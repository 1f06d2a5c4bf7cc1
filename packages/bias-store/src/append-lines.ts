import { closeSync, constants, fstatSync, fsyncSync, linkSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import { makeDirectory } from './make-directory.js';
import { privateName } from './private-names.js';
import { errorCode } from './quiet-fs.js';

export interface AppendLinesOptions {
  /** The active file. */
  path: string;
  /** Whole lines, each ending with a newline. */
  data: Buffer;
  /** How many records `data` holds, for the message of a partial write. */
  records: number;
  fsync: boolean;
  /** Rotate first when the active file holds at least this many bytes. */
  segmentBytes: number;
  /** Closes the active file as a segment once it holds at least `minBytes`; resolves to the segment's number or null. */
  rotate: (minBytes: number) => Promise<number | null>;
  /** Housekeeping once this append has rotated (compaction); its failure never fails the append. */
  afterRotation: () => Promise<unknown>;
}

const newline = 0x0a;

/** The descriptor an append writes through, and the pin that keeps its file from being compacted meanwhile. */
interface Pinned {
  fd: number;
  /** Null where the file system has no hard links: the active file is then written unpinned (and never rotated). */
  pin: string | null;
}

/**
 * Appends `data` to the active file in one `write` on an O_APPEND descriptor, so concurrent writers in several
 * processes never interleave. The file written is *pinned*: `link(active, <private pin name>)` makes a second name
 * for whatever file is active at that instant, the write goes through the pin, and the pin goes once the descriptor
 * is closed. A rotation may close that file meanwhile (the write then lands in a closed segment, which is fine), but
 * while the pin exists the file has two names, and compaction leaves every file with more than one alone. Should the
 * file already be `segmentBytes` long, this append rotates it first, and pays for compacting afterwards.
 *
 * Synchronous system calls: a handful of short syscalls on the calling thread, rather than round trips through
 * libuv's thread pool, keeps the tail latency low on a busy machine.
 */
export async function appendLines(options: AppendLinesOptions): Promise<{ records: number; bytes: number }> {
  const { path, records } = options;
  let data = options.data;
  let pinned: Pinned | null = pinActive(path);
  let rotated: number | null = null;
  let repaired = false; // data begins with a newline that ends a torn line
  let written = 0;
  try {
    let size = fstatSync(pinned.fd).size;
    if (size >= options.segmentBytes) {
      release(pinned);
      pinned = null;
      // Rotation is housekeeping: if it cannot happen (no hard links on this file system, say), append anyway.
      rotated = await options.rotate(options.segmentBytes).catch(() => null);
      pinned = pinActive(path);
      size = fstatSync(pinned.fd).size;
    }
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(pinned.fd, last, 0, 1, size - 1);
      if (last[0] !== newline) {
        data = Buffer.concat([Buffer.from('\n'), data]); // keep a torn line alone
        repaired = true;
      }
    }
    while (written < data.length) {
      // One write for the whole batch; only a partial write (disk full, signal) loops.
      written += writeSync(pinned.fd, data, written, data.length - written);
    }
    if (options.fsync) fsyncSync(pinned.fd);
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error;
    if (written > 0) throw partialAppendError({ path, error, data, written, repaired, total: records });
    throw ioError({ action: 'append to', path, cause: error });
  } finally {
    if (pinned !== null) release(pinned);
  }
  if (rotated !== null) await options.afterRotation().catch(() => undefined);
  return { records, bytes: data.length };
}

/** Links a pin to the active file (creating it, and its directory 0700, if missing) and opens the pin. */
function pinActive(path: string): Pinned {
  for (let attempt = 0; ; attempt++) {
    const pin = privateName(path, 'pin');
    try {
      linkSync(path, pin);
    } catch (error) {
      const code = errorCode(error);
      // No active file (a rotation just moved it, or a new store): begin one, then pin whichever file is active.
      if (code === 'ENOENT' && attempt < 100) {
        createActive(path);
        continue;
      }
      if (code === 'EEXIST' && attempt < 100) continue; // a dead process's pin of the same name
      // No hard links here (or the path is a directory): write unpinned, as nothing here can rotate either.
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return { fd: openUnpinned(path), pin: null };
      throw ioError({ action: 'append to', path, cause: error });
    }
    try {
      // O_RDWR so the last byte can be checked for a torn line; O_APPEND so every write lands at the end.
      return { fd: openSync(pin, constants.O_RDWR | constants.O_APPEND), pin };
    } catch (error) {
      unpin(pin);
      throw ioError({ action: 'append to', path, cause: error });
    }
  }
}

function createActive(path: string): void {
  const create = (): void => closeSync(openSync(path, constants.O_CREAT | constants.O_WRONLY, 0o600));
  try {
    create();
    return;
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw ioError({ action: 'append to', path, cause: error });
  }
  try {
    makeDirectory(dirname(path));
    create();
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error; // makeDirectory's, naming the directory
    throw ioError({ action: 'append to', path, cause: error });
  }
}

function openUnpinned(path: string): number {
  try {
    return openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
  } catch (error) {
    throw ioError({ action: 'append to', path, cause: error });
  }
}

function release(pinned: Pinned): void {
  closeSync(pinned.fd);
  if (pinned.pin !== null) unpin(pinned.pin);
}

function unpin(pin: string): void {
  try {
    unlinkSync(pin);
  } catch {
    // Left behind, it only keeps its segment plain until a compaction on this host finds this process gone.
  }
}

/**
 * Some bytes reached the file before the failure (a partial write on a full disk, or a failed fsync):
 * saying "nothing was written" would invite a retry of the whole batch, duplicating its first records.
 */
function partialAppendError(failure: { path: string; error: unknown; data: Buffer; written: number; repaired: boolean; total: number }): BiasStoreError {
  const { path, error, data, written, repaired, total } = failure;
  const code = errorCode(error) ?? 'UNKNOWN';
  if (written >= data.length) {
    return new BiasStoreError({
      code: 'IO_ERROR',
      message: `Appended all ${total} records to ${path}, but flushing them to disk failed (${code}); they may not survive a crash. Do not append them again (that would store them twice); check the disk.`,
      cause: error,
    });
  }
  let whole = 0;
  for (let at = data.indexOf(newline); at !== -1 && at < written; at = data.indexOf(newline, at + 1)) whole++;
  if (repaired) whole--; // the first newline ended an older torn line, not one of these records
  const advice = ioError({ action: 'append to', path, cause: error }).message.replace(/^Cannot append to .*?: /, '');
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `Cannot append to ${path}: only the first ${whole} of ${total} records were written whole before the failure; the rest were not (the cut line after them is skipped on read as torn). Append only the last ${total - whole} again once fixed: ${advice}`,
    cause: error,
  });
}
