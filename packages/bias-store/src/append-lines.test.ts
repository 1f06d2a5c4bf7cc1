import { execFileSync } from 'node:child_process';
import type * as Fs from 'node:fs';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleForChildren } from './__fixtures__/child-bundle.js';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { createJsonlStore } from './jsonl-store.js';

// An append runs its system calls synchronously, so nothing in this process can come between them: another process
// (run synchronously from inside the mocked call) stands in for the rival rotator and compactor.
const hook = vi.hoisted(() => ({ beforeWrite: null as null | (() => void), linkError: null as null | string }));
vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof Fs>();
  return {
    ...original,
    writeSync: (fd: number, ...rest: unknown[]) => {
      const run = hook.beforeWrite;
      hook.beforeWrite = null;
      run?.();
      return (original.writeSync as (fd: number, ...rest: unknown[]) => number)(fd, ...rest);
    },
    linkSync: (existing: string, name: string) => {
      if (hook.linkError !== null) throw Object.assign(new Error(`${hook.linkError}: link`), { code: hook.linkError });
      original.linkSync(existing, name);
    },
  };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof FsPromises>();
  return {
    ...original,
    link: async (existing: string, name: string) => {
      if (hook.linkError !== null) throw Object.assign(new Error(`${hook.linkError}: link`), { code: hook.linkError });
      return original.link(existing, name);
    },
  };
});

const rotateAndCompact = `
const { createJsonlStore, eventSchema } = await import('./bias-store.mjs');
const store = createJsonlStore({ path: process.argv[2], schema: eventSchema });
const rotated = await store.rotate();
console.log(JSON.stringify({ rotated, compacted: (await store.compact()).compacted }));
`;

let childDir = '';
beforeAll(async () => {
  childDir = await bundleForChildren({ 'rotate-and-compact.mjs': rotateAndCompact });
}, 60_000);
afterAll(() => rmSync(childDir, { recursive: true, force: true }));

const tempDir = useTempDirs();
const ev = (i: number): TestEvent => ({ session: 's', t: '2026-01-01T00:00:00Z', i });
const line = (i: number) => `${JSON.stringify(ev(i))}\n`;

describe('an append pins the file it writes', () => {
  it('another process rotates and compacts between the append opening the file and writing: the line lands in the closed segment, which waits for it', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = createJsonlStore<TestEvent>({ path, schema: eventSchema });
    await store.append([ev(1)]);
    let other = '';
    hook.beforeWrite = () => {
      other = execFileSync(process.execPath, [join(childDir, 'rotate-and-compact.mjs'), path], {
        cwd: childDir,
        encoding: 'utf8',
      });
    };
    expect(await store.append([ev(2)])).toEqual({ records: 1, bytes: line(2).length });
    // Segment 1 had two names (its own and the append's pin) when the other process compacted: it was left alone.
    expect(JSON.parse(other)).toEqual({ rotated: 1, compacted: 0 });
    expect(readdirSync(dir)).toEqual(['events.000001.jsonl']); // the pin is gone; no active file yet
    expect(readFileSync(join(dir, 'events.000001.jsonl'), 'utf8')).toBe(line(1) + line(2));
    expect(await store.compact()).toMatchObject({ compacted: 1 });
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]);
  }, 60_000);

  it('where the file system has no hard links, appends still work (unpinned; nothing can rotate there either)', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = createJsonlStore<TestEvent>({ path, schema: eventSchema, segmentBytes: 10 });
    hook.linkError = 'EPERM';
    try {
      await store.append([ev(1)]);
      await store.append([ev(2)]); // past segmentBytes: the rotation fails quietly, the append goes on
    } finally {
      hook.linkError = null;
    }
    expect(readdirSync(dir)).toEqual(['events.jsonl']);
    expect(readFileSync(path, 'utf8')).toBe(line(1) + line(2));
  });
});
