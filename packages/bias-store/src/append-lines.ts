import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BiasStoreError } from './bias-store-error.js';
import { ioError, ioProblem, notRegularFileError } from './io-error.js';
import { makeDirectory } from './make-directory.js';
import { ownerIsGone, privateName } from './private-names.js';
import { errorCode, identityOf } from './quiet-fs.js';
import { readStoreDirectory } from './segment-files.js';
import { fsyncDirectorySync } from './write-file-atomic.js';

export interface AppendLinesOptions {
  /** The active file. */
  path: string;
  /** Whole lines, each ending with a newline. */
  data: Buffer;
  /** How many records `data` holds, for the message of a failed write. */
  records: number;
  /** fsync the file after the write (and its directory when this append created the file or closed a segment). */
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
  /** This append created the active file (its directory entry is fsynced with the data when `fsync` is asked). */
  created: boolean;
}

/**
 * Appends `data` to the active file in one `write` on an O_APPEND descriptor, so concurrent writers in several
 * processes never interleave. The file written is *pinned*: `link(active, <private pin name>)` makes a second name
 * for whatever file is active at that instant, the write goes through the pin, and the pin goes once the descriptor
 * is closed. A rotation may close that file meanwhile (the write then lands in a closed segment, which is fine), but
 * while the pin exists the file has two names, and compaction leaves every file with more than one alone. Should the
 * file already be `segmentBytes` long, this append rotates it first, and pays for compacting afterwards.
 *
 * **Whole or absent.** The byte count of every `write` is checked: a short write (a full disk, a file-size limit) is
 * completed by writing the rest, and when the rest cannot be written (or the fsync asked for fails) the append is an
 * error and what it wrote is *taken back* (`takeBack`): the file is closed as a segment, so no new writer can reach it,
 * and once no other live writer holds a pin on it, it is truncated to where this append began — after checking that
 * its last bytes are this append's own. Only when another process wrote after them in the meantime are they left (the
 * error then says how many records were written whole).
 *
 * Only regular files are written: a FIFO, a device, a directory or a symbolic link at the path is refused before a
 * byte is written (opened with O_NOFOLLOW and O_NONBLOCK, so nothing can hang).
 *
 * Synchronous system calls: a handful of short syscalls on the calling thread, rather than round trips through
 * libuv's thread pool, keeps the tail latency low on a busy machine.
 */
export async function appendLines(options: AppendLinesOptions): Promise<{ records: number; bytes: number }> {
  const { path, records } = options;
  let data = options.data;
  let pinned: Pinned | null = pinActive(path);
  let rotated: number | null = null;
  let created = pinned.created;
  let repaired = false; // data begins with a newline that ends a torn line
  let written = 0;
  try {
    try {
      let size = fstatSync(pinned.fd).size;
      if (size >= options.segmentBytes) {
        release(pinned);
        pinned = null;
        // Rotation is housekeeping: if it cannot happen (no hard links on this file system, say), append anyway.
        rotated = await options.rotate(options.segmentBytes).catch(() => null);
        pinned = pinActive(path);
        created ||= pinned.created;
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
        // One write for the whole batch; only a short write (disk full, a file-size limit) loops, to complete it.
        const n = writeSync(pinned.fd, data, written, data.length - written);
        if (n <= 0)
          throw Object.assign(new Error(`write returned ${n} with ${data.length - written} bytes to go`), {
            code: 'EIO',
          });
        written += n;
      }
      if (options.fsync) {
        fsyncSync(pinned.fd);
        if (created || rotated !== null) fsyncDirectorySync(dirname(path));
      }
    } catch (error) {
      if (BiasStoreError.isInstance(error)) throw error;
      if (written === 0 || pinned === null) throw ioError({ action: 'append to', path, cause: error });
      const takenBack = await takeBack({ pinned, path, data: data.subarray(0, written), rotate: options.rotate }).catch(
        () => false,
      );
      // The take-back closed the file as a segment: begin an empty active file, so that the store's path still names a
      // file for whoever looks for it (best effort: a full disk may refuse even that; the next append begins one then).
      if (takenBack) {
        try {
          createActive(path);
        } catch {
          // the next append creates it
        }
      }
      throw failedAppendError({ path, error, data, written, repaired, total: records, takenBack });
    }
  } finally {
    if (pinned !== null) release(pinned);
  }
  if (rotated !== null) await options.afterRotation().catch(() => undefined);
  return { records, bytes: data.length };
}

/** Links a pin to the active file (creating it, and its directory 0700, if missing) and opens the pin. */
function pinActive(path: string): Pinned {
  let created = false;
  for (let attempt = 0; ; attempt++) {
    const pin = privateName(path, 'pin');
    try {
      linkSync(path, pin);
    } catch (error) {
      const code = errorCode(error);
      // No active file (a rotation just moved it, or a new store): begin one, then pin whichever file is active.
      if (code === 'ENOENT' && attempt < 100) {
        created = createActive(path) || created;
        continue;
      }
      if (code === 'EEXIST' && attempt < 100) continue; // a dead process's pin of the same name
      // No hard links here (or the path is a directory): write unpinned, as nothing here can rotate either.
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP')
        return { fd: openUnpinned(path), pin: null, created };
      throw ioError({ action: 'append to', path, cause: error });
    }
    let fd: number;
    try {
      // O_RDWR so the last byte can be checked for a torn line; O_APPEND so every write lands at the end; O_NOFOLLOW
      // so a symbolic link at the path (linked as itself) is refused, never written through; O_NONBLOCK so that
      // opening a device never waits.
      fd = openSync(pin, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      unpin(pin);
      throw openError(path, error);
    }
    const info = fstatSync(fd);
    if (!info.isFile()) {
      closeSync(fd);
      unpin(pin);
      throw notRegularFileError({ action: 'append to', path, info });
    }
    return { fd, pin, created };
  }
}

/** Creates the active file (0600) where there is none; true when this call created it. */
function createActive(path: string): boolean {
  const create = (): boolean => {
    try {
      closeSync(
        openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600),
      );
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false; // another writer began it first
      throw error;
    }
  };
  try {
    return create();
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw ioError({ action: 'append to', path, cause: error });
  }
  try {
    makeDirectory(dirname(path));
    return create();
  } catch (error) {
    if (BiasStoreError.isInstance(error)) throw error; // makeDirectory's, naming the directory
    throw ioError({ action: 'append to', path, cause: error });
  }
}

function openUnpinned(path: string): number {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o600,
    );
  } catch (error) {
    throw openError(path, error);
  }
  const info = fstatSync(fd);
  if (!info.isFile()) {
    closeSync(fd);
    throw notRegularFileError({ action: 'append to', path, info });
  }
  return fd;
}

/** An open refused: ELOOP under O_NOFOLLOW means the path is a symbolic link, which is said as such. */
function openError(path: string, error: unknown): BiasStoreError {
  if (errorCode(error) === 'ELOOP' && isSymbolicLink(path)) {
    let target = '';
    try {
      target = ` (to ${readlinkSync(path)})`;
    } catch {
      // gone meanwhile: the link's target is not needed to say what is wrong
    }
    const problem = {
      code: 'ENOTREG',
      what: `it is a symbolic link${target}`,
      fix: 'Council appends only to a regular file at the path it is given, never through a link: give the path of the file it points to instead, or replace the link with that file',
    };
    return new BiasStoreError({
      code: 'IO_ERROR',
      message: `Cannot append to ${path}: ${problem.what}, and ${problem.fix.replace(': give', '; give')}.`,
      cause: error,
      problem,
    });
  }
  return ioError({ action: 'append to', path, cause: error });
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
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

/** How long a take-back waits for a rotation lock held by another process, and for other writers to let go of the file. */
const takeBackTries = 100;
const takeBackPauseMs = 20;

/**
 * Removes the bytes a failed append wrote (`written`, the start of its data), so that the append is absent rather than
 * half there, without ever cutting another process's line:
 * 1. The file is moved off the active name (closed as a segment, by the store's own rotation): from then on no new
 *    writer can pin it, so nobody else can begin writing to it.
 * 2. Writers that pinned it before are waited for (their pins name the same inode); pins of dead processes are ignored.
 * 3. The last `written.length` bytes must be this append's own — else someone wrote after them, and they stay.
 * 4. ftruncate to where this append began, and fsync.
 * Resolves to whether the bytes were taken back. A file system without hard links cannot rotate: nothing is taken back.
 */
async function takeBack(options: {
  pinned: Pinned;
  path: string;
  data: Buffer;
  rotate: (minBytes: number) => Promise<number | null>;
}): Promise<boolean> {
  const { pinned, path, data } = options;
  if (pinned.pin === null) return false;
  const identity = identityOf(fstatSync(pinned.fd));
  for (let attempt = 0; ; attempt++) {
    let active: string | null;
    try {
      active = identityOf(lstatSync(path));
    } catch {
      active = null;
    }
    if (active !== identity) break;
    if (attempt >= takeBackTries) return false;
    // Null: another process holds the rotation lock (and is probably closing this very file); try again shortly.
    if ((await options.rotate(1).catch(() => null)) === null) await sleep(takeBackPauseMs);
  }
  for (let attempt = 0; (await otherLivePins({ path, identity, own: pinned.pin })) > 0; attempt++) {
    if (attempt >= takeBackTries) return false;
    await sleep(takeBackPauseMs);
  }
  const size = fstatSync(pinned.fd).size;
  if (size < data.length) return false;
  const tail = Buffer.alloc(data.length);
  if (readSync(pinned.fd, tail, 0, data.length, size - data.length) !== data.length || !tail.equals(data)) return false;
  ftruncateSync(pinned.fd, size - data.length);
  try {
    fsyncSync(pinned.fd);
  } catch {
    // The bytes are gone for every reader now; a failing disk may bring them back after a power loss, as a torn line.
  }
  return true;
}

/** Pins of the file `identity` other than `own`, held by processes that may still write through them. */
async function otherLivePins(options: { path: string; identity: string; own: string }): Promise<number> {
  const base = basename(options.path);
  let count = 0;
  for (const name of (await readStoreDirectory(options.path)).privateNames) {
    if (name.kind !== 'pin' || name.base !== base || name.path === options.own || ownerIsGone(name)) continue;
    const info = await stat(name.path).catch(() => null);
    if (info !== null && identityOf(info) === options.identity) count++;
  }
  return count;
}

/**
 * The error of an append that wrote some bytes and then failed (the rest could not be written, or the fsync failed):
 * nothing added when they were taken back; otherwise how many of its records were written whole, so that a caller
 * retrying knows not to append those again.
 */
function failedAppendError(failure: {
  path: string;
  error: unknown;
  data: Buffer;
  written: number;
  repaired: boolean;
  total: number;
  takenBack: boolean;
}): BiasStoreError {
  const { path, error, data, written, repaired, total, takenBack } = failure;
  const problem = ioProblem(error);
  const { code, what, fix } = problem;
  const records = `${total} record${total === 1 ? '' : 's'}`;
  const happened = written >= data.length ? `flushing the ${records} to disk failed: ${what}` : what;
  if (takenBack) {
    return new BiasStoreError({
      code: 'IO_ERROR',
      message: `Cannot append to ${path}: ${happened} (${code}). Nothing was added: the part of the ${records} written before the failure was taken back. ${capitalise(fix)}, then retry.`,
      cause: error,
      problem: { ...problem, what: happened },
    });
  }
  let whole = 0;
  for (let at = data.indexOf(newline); at !== -1 && at < written; at = data.indexOf(newline, at + 1)) whole++;
  if (repaired) whole--; // the first newline ended an older torn line, not one of these records
  return new BiasStoreError({
    code: 'IO_ERROR',
    message: `Cannot append to ${path}: ${happened} (${code}). The first ${whole} of the ${records} were written whole and could not be taken back (another process wrote after them); the rest were not (a cut line after them is skipped on read as torn). ${capitalise(fix)}, then append only the last ${total - whole} again.`,
    cause: error,
    problem: { ...problem, what: happened },
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
