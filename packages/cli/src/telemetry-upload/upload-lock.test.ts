import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TelemetryUploadError } from './telemetry-upload-error.js';
import { acquireUploadLock } from './upload-lock.js';

function lockPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'council-lock-')), 'telemetry', 'upload.lock');
}

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return TelemetryUploadError.isInstance(error) ? error.code : 'other';
  }
}

describe('acquireUploadLock', () => {
  it('says which path is a file when the telemetry directory cannot exist', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-lock-'));
    writeFileSync(join(home, 'telemetry'), 'not a directory');
    let message = '';
    try {
      await acquireUploadLock({ path: join(home, 'telemetry', 'upload.lock') });
    } catch (error) {
      message = TelemetryUploadError.isInstance(error) && error.code === 'IO_ERROR' ? error.message : 'wrong error';
    }
    expect(message).toContain(`part of ${join(home, 'telemetry')} is a file, not a directory; check LLM_COUNCIL_HOME`);
  });

  it('lets one holder in at a time and frees the lock on release', async () => {
    const path = lockPath();
    const lock = await acquireUploadLock({ path });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(await codeOf(acquireUploadLock({ path }))).toBe('LOCKED');
    await lock.release();
    expect(existsSync(path)).toBe(false);
    const again = await acquireUploadLock({ path });
    await again.release();
  });

  it('says who holds it and what to do', async () => {
    const path = lockPath();
    const lock = await acquireUploadLock({ path });
    const error = await acquireUploadLock({ path }).catch((e: unknown) => e as Error);
    expect((error as Error).message).toContain(`pid ${process.pid}`);
    expect((error as Error).message).toContain(`delete that file`);
    await lock.release();
  });

  it('breaks a lock whose process is dead', async () => {
    const path = lockPath();
    await (await acquireUploadLock({ path })).refresh();
    writeFileSync(
      path,
      JSON.stringify({ pid: 999_999_999, host: hostname(), token: 'old', started_at: '2026-01-01T00:00:00Z' }),
    );
    const lock = await acquireUploadLock({ path, isProcessAlive: (pid) => pid !== 999_999_999 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('breaks a lock not refreshed within staleMs even if its pid is alive, and not before', async () => {
    const path = lockPath();
    await acquireUploadLock({ path }); // held by this (live) process, never released
    expect(await codeOf(acquireUploadLock({ path, staleMs: 60_000 }))).toBe('LOCKED');
    const old = new Date(Date.now() - 61_000);
    utimesSync(path, old, old);
    const lock = await acquireUploadLock({ path, staleMs: 60_000 });
    await lock.release();
  });

  it('a lock on another host is judged by age only', async () => {
    const path = lockPath();
    await acquireUploadLock({ path });
    writeFileSync(
      path,
      JSON.stringify({ pid: 999_999_999, host: 'elsewhere', token: 'x', started_at: '2026-01-01T00:00:00Z' }),
    );
    expect(await codeOf(acquireUploadLock({ path, isProcessAlive: () => false }))).toBe('LOCKED');
  });

  it('release leaves a lock that is no longer ours', async () => {
    const path = lockPath();
    const lock = await acquireUploadLock({ path });
    writeFileSync(
      path,
      JSON.stringify({ pid: 1, host: 'elsewhere', token: 'someone-else', started_at: '2026-01-01T00:00:00Z' }),
    );
    await lock.release();
    expect(existsSync(path)).toBe(true);
  });
});
