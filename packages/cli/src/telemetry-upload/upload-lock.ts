import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { link, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import { BiasStoreError, makeDirectory } from '@council/bias-store';
import { TelemetryUploadError } from './telemetry-upload-error.js';

/** A held lock. `refresh` marks it as alive (its age is its file's mtime); `release` removes it if it is still ours. */
export interface UploadLock {
  readonly path: string;
  refresh(): Promise<void>;
  release(): Promise<void>;
}

export interface AcquireUploadLockOptions {
  /** e.g. `$LLM_COUNCIL_HOME/telemetry/upload.lock`. */
  path: string;
  /** A lock not refreshed for this long is stale whatever its pid says. Default 10 minutes. */
  staleMs?: number;
  now?: () => number;
  /** Default: `process.kill(pid, 0)` (ESRCH means dead; EPERM means alive under another user). */
  isProcessAlive?: (pid: number) => boolean;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
  started_at: string;
}

/** A lock whose file could not be read yet is given this long to be written before it counts as stale. */
const unreadableGraceMs = 5_000;

function defaultIsProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readContent(text: string): LockContent | null {
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string')
      return value as LockContent;
  } catch {
    // fall through
  }
  return null;
}

function lockIoError(path: string, error: unknown): TelemetryUploadError {
  const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
  const advice =
    code === 'ENOTDIR' || code === 'EEXIST'
      ? `part of ${dirname(path)} is a file, not a directory; check LLM_COUNCIL_HOME`
      : 'check that its directory is writable by this user';
  return new TelemetryUploadError({
    code: 'IO_ERROR',
    message: `Cannot create the upload lock ${path} (${code}); ${advice}.`,
    cause: error,
  });
}

/**
 * Takes the one-uploader-at-a-time lock: creates `path` exclusively (O_EXCL, mode 0600) holding this
 * process's pid, host and a random token. An existing lock is broken when it is stale: its process
 * is dead (same host), or it was not refreshed within `staleMs`. Throws `LOCKED` when a live uploader holds it.
 */
export async function acquireUploadLock(options: AcquireUploadLockOptions): Promise<UploadLock> {
  const { path } = options;
  const staleMs = options.staleMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const isAlive = options.isProcessAlive ?? defaultIsProcessAlive;
  const host = hostname();
  const content: LockContent = {
    pid: process.pid,
    host,
    token: randomBytes(8).toString('hex'),
    started_at: new Date(now()).toISOString(),
  };
  try {
    makeDirectory(dirname(path));
  } catch (error) {
    // makeDirectory's BiasStoreError carries the system's error (its code) as its cause.
    throw lockIoError(path, BiasStoreError.isInstance(error) ? error.cause : error);
  }

  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(content)}\n`);
      } finally {
        await handle.close();
      }
      return {
        path,
        refresh: async () => {
          const t = new Date(now());
          await utimes(path, t, t).catch(() => undefined);
        },
        release: async () => {
          const held = readContent(await readFile(path, 'utf8').catch(() => ''));
          if (held?.token === content.token) await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockIoError(path, error);
    }

    let info;
    let held: LockContent | null;
    try {
      info = await stat(path);
      held = readContent(await readFile(path, 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile
      throw lockIoError(path, error);
    }
    const age = now() - info.mtimeMs;
    const dead = held !== null && held.host === host && !isAlive(held.pid);
    const stale = dead || age > staleMs || (held === null && age > unreadableGraceMs);
    if (!stale) {
      const who =
        held === null
          ? 'another uploader'
          : `another uploader (pid ${held.pid} on ${held.host}, started ${held.started_at})`;
      throw new TelemetryUploadError({
        code: 'LOCKED',
        isRetryable: true,
        message: `${who} holds ${path}; wait for it to finish. If no uploader is running, delete that file and run again.`,
      });
    }
    // Break the stale lock: move it aside (atomic), and make sure what was moved is the file judged stale.
    const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // someone else broke it first
      throw lockIoError(path, error);
    }
    const moved = await stat(aside).catch(() => null);
    if (moved !== null && moved.ino !== info.ino) {
      // A fresh lock was taken between the check and the rename: put it back and look again.
      await link(aside, path).catch(() => undefined);
    }
    await unlink(aside).catch(() => undefined);
  }
  throw new TelemetryUploadError({
    code: 'LOCKED',
    isRetryable: true,
    message: `Could not take ${path}: other uploaders keep taking it. Run again in a moment.`,
  });
}
