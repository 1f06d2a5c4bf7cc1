import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import type { JsonlCursor } from './jsonl-cursor.js';
import { createJsonlStore } from './jsonl-store.js';
import type * as SegmentFiles from './segment-files.js';

// A rotation that lands between the store listing its files and opening the active one: the hook
// runs right after each listing, before any file is opened.
const hook = vi.hoisted(() => ({ afterList: null as null | (() => Promise<void>) }));
vi.mock('./segment-files.js', async (importOriginal) => {
  const original = await importOriginal<typeof SegmentFiles>();
  return {
    ...original,
    listSegments: async (path: string) => {
      const files = await original.listSegments(path);
      const run = hook.afterList;
      hook.afterList = null;
      if (run !== null) await run();
      return files;
    },
  };
});

const tempDir = useTempDirs();
const ev = (i: number): TestEvent => ({ session: `s${i}`, t: '2026-01-01T00:00:00Z', i });

describe('a rotation between listing and opening the active file', () => {
  it('reads the rotated lines under their own segment, and a cursor taken then resumes at the right line', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const store = createJsonlStore<TestEvent>({ path, schema: eventSchema });
    await store.append([ev(1), ev(2), ev(3)]);

    // Listed as the active file (segment 1); then closed as segment 1 and a new active file begun.
    hook.afterList = async () => {
      expect(await store.rotate()).toBe(1);
      await store.append([ev(10), ev(11), ev(12), ev(13), ev(14), ev(15)]);
    };
    const seen: { i: number; next: JsonlCursor }[] = [];
    for await (const entry of store.scan()) if (entry.kind === 'item') seen.push({ i: entry.item.i, next: entry.next });
    // The lines of the file that was listed, not of the one that took its name.
    expect(seen.map((s) => s.i)).toEqual([1, 2, 3]);

    // Resuming after line 2 gives line 3, then the new segment's lines: nothing skipped, nothing twice.
    const resumed: number[] = [];
    for await (const entry of store.scan({ from: seen[1]!.next }))
      if (entry.kind === 'item') resumed.push(entry.item.i);
    expect(resumed).toEqual([3, 10, 11, 12, 13, 14, 15]);
  });
});
