import { linkSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deadPid, sleeper } from './__fixtures__/dead-pid.js';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { createJsonlStore } from './jsonl-store.js';
import { ownerTag } from './private-names.js';

// A second compactor that runs to completion just before this one publishes its .gz (the moment two compactors race).
const hook = vi.hoisted(() => ({ beforeLink: null as null | (() => Promise<void>) }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof FsPromises>();
  return {
    ...original,
    link: async (existing: string, name: string) => {
      const run = hook.beforeLink;
      if (run !== null && name.endsWith('.jsonl.gz')) {
        hook.beforeLink = null;
        await run();
      }
      return original.link(existing, name);
    },
  };
});

const tempDir = useTempDirs();
const ev = (i: number): TestEvent => ({ session: 's', t: '2026-01-01T00:00:00Z', i });
afterEach(() => vi.restoreAllMocks());

async function storeWithSegment(): Promise<{
  dir: string;
  path: string;
  store: ReturnType<typeof createJsonlStore<TestEvent>>;
}> {
  const dir = tempDir();
  const path = join(dir, 'events.jsonl');
  const store = createJsonlStore<TestEvent>({ path, schema: eventSchema });
  await store.append([ev(1), ev(2)]);
  return { dir, path, store };
}

describe('compaction and leftovers of other processes', () => {
  it("a writer's pin keeps its segment plain while the writer lives; once it is dead, compaction removes the pin and gzips", async () => {
    const { dir, path, store } = await storeWithSegment();
    const writer = sleeper(); // a writer process of this host that pinned the active file
    const pin = `${path}.pin-${ownerTag()}-${writer.pid}-x0`;
    linkSync(path, pin);
    expect(await store.rotate()).toBe(1);
    expect(await store.compact()).toMatchObject({ compacted: 0 });
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl', pin.slice(dir.length + 1)]);
    await writer.stop(); // killed before it could remove its pin
    expect(await store.compact()).toMatchObject({ compacted: 1 });
    expect(readdirSync(dir)).toEqual(['events.000001.jsonl.gz']);
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]);
  });

  it('a pin made on another host (or in another PID namespace) is never taken for a dead one', async () => {
    const { dir, path, store } = await storeWithSegment();
    const pin = `${path}.pin-0123456789ab-${await deadPid()}-x0`; // a tag that is not this host's
    linkSync(path, pin);
    await store.rotate();
    expect(await store.compact()).toMatchObject({ compacted: 0 });
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl', pin.slice(dir.length + 1)]);
  });

  it("a dead compactor's unfinished copy is removed, and the segment compacted", async () => {
    const { dir, path, store } = await storeWithSegment();
    await store.rotate();
    writeFileSync(join(dir, `events.000001.jsonl.gz.tmp-${ownerTag()}-${await deadPid()}-x0`), 'half a gzip');
    expect(await store.compact()).toMatchObject({ compacted: 1 });
    expect(readdirSync(dir)).toEqual(['events.000001.jsonl.gz']);
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]);
    void path;
  });

  it('two compactors at once: the one that publishes second finds the .gz, checks it holds the same lines, and only removes the plain file', async () => {
    const { dir, store } = await storeWithSegment();
    await store.rotate();
    let other = { compacted: -1 };
    hook.beforeLink = async () => {
      other = await createJsonlStore<TestEvent>({ path: store.path, schema: eventSchema }).compact();
    };
    expect(await store.compact()).toMatchObject({ compacted: 0 });
    expect(other).toMatchObject({ compacted: 1 });
    expect(readdirSync(dir)).toEqual(['events.000001.jsonl.gz']);
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]);
  });

  it('a .gz with other lines beside a final plain segment: both kept, the plain one as a segment of its own, with a warning', async () => {
    const { dir, store } = await storeWithSegment();
    await store.rotate();
    writeFileSync(join(dir, 'events.000001.jsonl.gz'), gzipSync(`${JSON.stringify(ev(7))}\n`));
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(await store.compact()).toMatchObject({ compacted: 0 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('the plain file was kept as segment 2'), {
      code: 'COUNCIL_STORE_SEGMENT_MISMATCH',
    });
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl.gz', 'events.000002.jsonl']);
    expect(readFileSync(join(dir, 'events.000002.jsonl'), 'utf8')).toBe(
      `${JSON.stringify(ev(1))}\n${JSON.stringify(ev(2))}\n`,
    );
    expect((await store.read()).items.map((e) => e.i)).toEqual([7, 1, 2]);
  });

  it('skips an empty segment, and a segment still linked as the active file', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    writeFileSync(join(dir, 'events.000001.jsonl'), '');
    writeFileSync(path, `${JSON.stringify(ev(1))}\n`);
    linkSync(path, join(dir, 'events.000002.jsonl'));
    expect(await createJsonlStore<TestEvent>({ path, schema: eventSchema }).compact()).toEqual({
      compacted: 0,
      bytesBefore: 0,
      bytesAfter: 0,
    });
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl', 'events.000002.jsonl', 'events.jsonl']);
  });
});
