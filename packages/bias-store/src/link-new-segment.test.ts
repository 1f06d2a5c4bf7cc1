import { linkSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { createJsonlStore } from './jsonl-store.js';
import { findSegmentName, linkNewSegment } from './link-new-segment.js';
import type * as SegmentFiles from './segment-files.js';

// What other processes do between linkNewSegment reading the directory (to choose a number) and linking: the hook
// runs once, right after the next directory read.
const hook = vi.hoisted(() => ({ afterRead: null as null | (() => Promise<void>) }));
vi.mock('./segment-files.js', async (importOriginal) => {
  const original = await importOriginal<typeof SegmentFiles>();
  return {
    ...original,
    readStoreDirectory: async (path: string) => {
      const read = await original.readStoreDirectory(path);
      const run = hook.afterRead;
      hook.afterRead = null;
      if (run !== null) await run();
      return read;
    },
  };
});

const tempDir = useTempDirs();
const line = (i: number) => `{"session":"s","t":"2026-01-01T00:00:00Z","i":${i}}\n`;
const identity = (path: string) => `${statSync(path).dev}:${statSync(path).ino}`;

describe('linkNewSegment', () => {
  it('takes the number after the highest in use, plain or gzipped, and names the file that was there', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    writeFileSync(join(dir, 'events.000001.jsonl.gz'), '');
    writeFileSync(join(dir, 'events.000003.jsonl'), line(3));
    writeFileSync(path, line(4));
    expect(await linkNewSegment({ path, source: path })).toEqual({ segment: 4, identity: identity(path) });
    expect(readFileSync(join(dir, 'events.000004.jsonl'), 'utf8')).toBe(line(4));
  });

  it('uses the name a concurrent rotator gave the same file a moment before, instead of making a second one', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    writeFileSync(path, line(1));
    hook.afterRead = () => Promise.resolve(linkSync(path, join(dir, 'events.000001.jsonl')));
    expect(await linkNewSegment({ path, source: path })).toEqual({ segment: 1, identity: identity(path) });
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl', 'events.jsonl']);
  });

  it('goes on to the next number when another file took the chosen one meanwhile', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    writeFileSync(path, line(2));
    hook.afterRead = () => Promise.resolve(writeFileSync(join(dir, 'events.000001.jsonl'), line(1)));
    expect(await linkNewSegment({ path, source: path })).toEqual({ segment: 2, identity: identity(path) });
    expect(readFileSync(join(dir, 'events.000001.jsonl'), 'utf8')).toBe(line(1));
  });

  it('takes its link back when the number it chose was used and compacted meanwhile (its .gz exists), and uses the next', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = createJsonlStore<TestEvent>({ path, schema: eventSchema });
    await store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 1 }]);
    // After it read the directory (no segment yet: it chooses 1), other processes close the active file as segment 1,
    // gzip it (so 1.jsonl is gone and only 1.jsonl.gz holds number 1), and begin a new active file.
    hook.afterRead = async () => {
      expect(await store.rotate()).toBe(1);
      expect(await store.compact()).toMatchObject({ compacted: 1 });
      await store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 2 }]);
    };
    // link(active, 1.jsonl) succeeds, as the name is free, but number 1 belongs to 1.jsonl.gz: kept, that plain name
    // would hide the new file from readers (who read the .gz of a number that has both), so the link goes and 2 is used.
    expect(await linkNewSegment({ path, source: path })).toEqual({ segment: 2, identity: identity(path) });
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl.gz', 'events.000002.jsonl', 'events.jsonl']);
    expect(readFileSync(join(dir, 'events.000002.jsonl'), 'utf8')).toBe(line(2));
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]);
  });

  it('returns null when the source is gone (another rotator moved it)', async () => {
    const path = join(tempDir(), 'events.jsonl');
    expect(await linkNewSegment({ path, source: path })).toBeNull();
  });
});

describe('findSegmentName', () => {
  it('finds the segment name of a file, but not a stray plain name beside a .gz of the same number', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    writeFileSync(path, line(1));
    linkSync(path, join(dir, 'events.000001.jsonl'));
    writeFileSync(join(dir, 'events.000001.jsonl.gz'), ''); // number 1 was compacted: that plain name is a stray
    expect(await findSegmentName({ path, identity: identity(path) })).toBeNull();
    linkSync(path, join(dir, 'events.000002.jsonl'));
    expect(await findSegmentName({ path, identity: identity(path) })).toBe(2);
    expect(await findSegmentName({ path, identity: '0:0' })).toBeNull();
  });
});
