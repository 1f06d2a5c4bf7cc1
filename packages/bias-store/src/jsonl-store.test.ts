import {
  closeSync,
  constants,
  existsSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { BiasStoreError } from './bias-store-error.js';
import { readCursorFile, writeCursorFile } from './cursor-file.js';
import type { JsonlCursor } from './jsonl-cursor.js';
import { createJsonlStore } from './jsonl-store.js';
import type { JsonlStoreOptions } from './jsonl-store.js';
import { privateName } from './private-names.js';

const tempDir = useTempDirs();

function eventStore(path: string, extra: Partial<JsonlStoreOptions<TestEvent>> = {}) {
  return createJsonlStore<TestEvent>({
    path,
    schema: eventSchema,
    timeOf: (e) => e.t,
    sessionOf: (e) => e.session,
    ...extra,
  });
}

const ev = (session: string, t: string, i: number): TestEvent => ({ session, t, i });

describe('append', () => {
  it('writes compact whole lines, creating missing directories 0700 and the file 0600', async () => {
    const dir = tempDir();
    const path = join(dir, 'a', 'b', 'events.jsonl');
    const store = eventStore(path);
    expect(await store.append([ev('s1', '2026-01-01T00:00:00Z', 1), ev('s1', '2026-01-01T00:00:00Z', 2)])).toEqual({
      records: 2,
      bytes: 100,
    }); // two 49-byte lines + newlines
    expect(readFileSync(path, 'utf8')).toBe(
      '{"session":"s1","t":"2026-01-01T00:00:00Z","i":1}\n{"session":"s1","t":"2026-01-01T00:00:00Z","i":2}\n',
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'a', 'b')).mode & 0o777).toBe(0o700);
  });

  it('creates nothing for an empty list', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'sub', 'events.jsonl'));
    expect(await store.append([])).toEqual({ records: 0, bytes: 0 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes nothing when one item is invalid, naming which', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path);
    const bad = { session: 's', t: 'x', i: 1.5 } as TestEvent;
    await expect(store.append([ev('s', '2026-01-01T00:00:00Z', 1), bad])).rejects.toThrow(
      /Item 1 cannot be written to .*events\.jsonl: i: .*Nothing was written/,
    );
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a line over maxLineBytes', async () => {
    const store = eventStore(join(tempDir(), 'e.jsonl'), { maxLineBytes: 100 });
    await expect(store.append([{ ...ev('s', '2026-01-01T00:00:00Z', 1), pad: 'x'.repeat(100) }])).rejects.toThrow(
      /over maxLineBytes \(100\)/,
    );
  });

  it('keeps a torn last line alone: the next append starts with a newline, and the user bytes are kept', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const before = '{"session":"s1","t":"2026-01-01T00:00:00Z","i":1}\n{"session":"s1","t":"2026-01-0';
    writeFileSync(path, before);
    const store = eventStore(path);
    const first = await store.read();
    expect(first.items.map((e) => e.i)).toEqual([1]);
    expect(first.skipped).toBe(1);
    expect(first.reasons.torn_line).toBe(1);
    expect(first.firstBadLines).toEqual([
      { file: path, line: 2, reason: 'torn_line', detail: expect.stringContaining('no newline') as string },
    ]);

    await store.append([ev('s2', '2026-01-02T00:00:00Z', 2)]);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(`${before}\n{"session":"s2","t":"2026-01-02T00:00:00Z","i":2}\n`);
    const second = await store.read();
    expect(second.items.map((e) => e.i)).toEqual([1, 2]);
    expect(second.firstBadLines).toEqual([
      { file: path, line: 2, reason: 'invalid_json', detail: 'the line is not valid JSON' },
    ]);
  });

  it('accepts a complete last line that only lacks its newline', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, '{"session":"s1","t":"2026-01-01T00:00:00Z","i":1}');
    const store = eventStore(path);
    expect((await store.read()).items).toHaveLength(1);
    await store.append([ev('s1', '2026-01-01T00:00:01Z', 2)]);
    const result = await store.read();
    expect(result.items.map((e) => e.i)).toEqual([1, 2]);
    expect(result.skipped).toBe(0);
  });
});

describe('read', () => {
  it('skips and counts bad lines with their line numbers, never quoting them', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(
      path,
      [
        '{"session":"s","t":"2026-01-01T00:00:00Z","i":1}',
        'SECRET-TEXT not json',
        '',
        '[1,2]',
        '{"session":"s","t":"2026-01-01T00:00:00Z","i":"SECRET-TEXT"}',
        '{"session":"s","t":"2026-01-01T00:00:00Z","i":2}',
        '',
      ].join('\n'),
    );
    const result = await eventStore(path).read();
    expect(result.items.map((e) => e.i)).toEqual([1, 2]);
    expect(result.skipped).toBe(3);
    expect(result.reasons).toMatchObject({ invalid_json: 1, invalid_record: 2 });
    expect(result.firstBadLines.map((b) => [b.line, b.reason])).toEqual([
      [2, 'invalid_json'],
      [4, 'invalid_record'],
      [5, 'invalid_record'],
    ]);
    expect(JSON.stringify(result.firstBadLines)).not.toContain('SECRET');
  });

  it('returns an empty result for a store that does not exist yet', async () => {
    const result = await eventStore(join(tempDir(), 'none', 'events.jsonl')).read();
    expect(result.items).toEqual([]);
    expect(result.skipped).toBe(0);
  });

  it('windows by parsed time, returns oldest first, and counts zone-less timestamps as UTC', async () => {
    const store = eventStore(join(tempDir(), 'events.jsonl'));
    await store.append([
      ev('b', '2026-03-10T12:00:00+02:00', 1), // 10:00Z
      ev('a', '2026-03-01T00:00:00Z', 2),
      ev('c', '2026-03-10T09:00:00', 3), // no zone: 09:00Z
      ev('d', '2026-02-01T00:00:00Z', 4),
    ]);
    const now = new Date('2026-03-11T00:00:00Z');
    const all = await store.read();
    expect(all.items.map((e) => e.i)).toEqual([4, 2, 3, 1]);
    expect(all.timestampsWithoutZone).toBe(1);
    expect(all.warnings).toEqual([`1 record in ${store.path} had a timestamp without a zone; read as UTC.`]);
    // 30 days before 2026-03-11 is 2026-02-09: event 4 (Feb 1) falls out.
    expect((await store.read({ days: 30, now })).items.map((e) => e.i)).toEqual([2, 3, 1]);
    // 1.5 days before now is 2026-03-09T12:00Z.
    expect((await store.read({ days: 1.5, now })).items.map((e) => e.i)).toEqual([3, 1]);
    expect(
      (await store.read({ since: '2026-03-01T00:00:00Z', until: new Date('2026-03-10T09:00:00Z') })).items.map(
        (e) => e.i,
      ),
    ).toEqual([2, 3]);
  });

  it("keeps the last N sessions by each session's latest record", async () => {
    const store = eventStore(join(tempDir(), 'events.jsonl'));
    await store.append([
      ev('old-but-revisited', '2026-01-01T00:00:00Z', 1),
      ev('middle', '2026-01-02T00:00:00Z', 2),
      ev('recent', '2026-01-03T00:00:00Z', 3),
      ev('old-but-revisited', '2026-01-04T00:00:00Z', 4),
    ]);
    // Latest per session: old-but-revisited Jan 4, recent Jan 3, middle Jan 2.
    expect((await store.read({ sessions: 2 })).items.map((e) => e.i)).toEqual([1, 3, 4]);
    expect((await store.read({ sessions: 1 })).items.map((e) => e.i)).toEqual([1, 4]);
    // Windows combine: within the last 2.5 days before Jan 4 12:00, session old-but-revisited has only record 4.
    expect(
      (await store.read({ sessions: 2, days: 2.5, now: new Date('2026-01-04T12:00:00Z') })).items.map((e) => e.i),
    ).toEqual([3, 4]);
  });

  it('keeps all records of a session that returns after it was pruned from memory', async () => {
    const store = eventStore(join(tempDir(), 'events.jsonl'));
    const base = Date.parse('2026-01-01T00:00:00Z');
    const items: TestEvent[] = [];
    for (let s = 0; s < 3000; s++) items.push(ev(`s${s}`, new Date(base + s * 60_000).toISOString(), s));
    items.push(ev('s0', new Date(base + 5000 * 60_000).toISOString(), 9999)); // s0 becomes the newest session
    await store.append(items);
    const result = await store.read({ sessions: 3 });
    // Latest: s0 (minute 5000), s2999, s2998 — and s0's first record too, oldest first.
    expect(result.items.map((e) => e.i)).toEqual([0, 2998, 2999, 9999]);
  });

  it('refuses windows on a store without time, and bad window values', async () => {
    const plain = createJsonlStore<TestEvent>({ path: join(tempDir(), 'e.jsonl'), schema: eventSchema });
    await expect(plain.read({ days: 3 })).rejects.toThrow(/needs a store created with timeOf/);
    const store = eventStore(join(tempDir(), 'e.jsonl'));
    await expect(store.read({ sessions: 0 })).rejects.toThrow(/read: sessions must be a positive integer/);
    await expect(store.read({ since: 'last week' })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});

describe('segments and compaction', () => {
  it('closes the active file past segmentBytes, gzips each closed segment after the rotation, and reads across them losslessly', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path, { segmentBytes: 500 });
    const all: TestEvent[] = [];
    for (let i = 0; i < 60; i++) {
      const batch = [ev(`s${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), i)];
      all.push(...batch);
      await store.append(batch);
    }
    // A line ({"session":"sN","t":"2026-01-01T00:MM:00.000Z","i":N} + newline) is 54 bytes for one digit, 56 for two.
    // The append that finds the active file at ≥ 500 bytes closes it first: i 0–9 (540 bytes), then nine lines each
    // (504 bytes): 10–18, 19–27, 28–36, 37–45, 46–54; 55–59 stay active. The appending process gzips each one it closes.
    const names = readdirSync(dir).sort();
    expect(names).toEqual([1, 2, 3, 4, 5, 6].map((n) => `events.00000${n}.jsonl.gz`).concat('events.jsonl'));
    expect(statSync(join(dir, 'events.000001.jsonl.gz')).mode & 0o777).toBe(0o600);
    expect(gunzipSync(readFileSync(join(dir, 'events.000001.jsonl.gz'))).toString()).toBe(
      all
        .slice(0, 10)
        .map((e) => `${JSON.stringify(e)}\n`)
        .join(''),
    );
    expect(gunzipSync(readFileSync(join(dir, 'events.000006.jsonl.gz'))).toString()).toBe(
      all
        .slice(46, 55)
        .map((e) => `${JSON.stringify(e)}\n`)
        .join(''),
    );
    expect(readFileSync(path, 'utf8')).toBe(
      all
        .slice(55)
        .map((e) => `${JSON.stringify(e)}\n`)
        .join(''),
    );
    expect((await store.read()).items).toEqual(all);
    expect(await store.compact()).toEqual({ compacted: 0, bytesBefore: 0, bytesAfter: 0 }); // nothing left to do

    const stats = await store.stats();
    expect(stats).toMatchObject({
      records: 60,
      sessions: 60,
      oldest: '2026-01-01T00:00:00.000Z',
      newest: '2026-01-01T00:59:00.000Z',
      segments: 7,
      skipped: 0,
    });
    expect(stats.bytes).toBeLessThan(10 * 54 + 50 * 56); // the plain size of all 60 lines
  });

  it('never compacts a segment a writer has pinned: it waits for the pin, then keeps the late line', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path);
    await store.append([ev('s0', '2026-01-01T00:00:00.000Z', 0)]);
    // A writer pins the active file (as every append does), then another process rotates it before the writer writes.
    const pin = privateName(path, 'pin');
    linkSync(path, pin);
    const late = openSync(pin, constants.O_WRONLY | constants.O_APPEND);
    expect(await store.rotate()).toBe(1);
    expect(await store.compact()).toMatchObject({ compacted: 0 }); // two names: the segment's and the live pin
    writeSync(late, `${JSON.stringify(ev('s1', '2026-01-01T00:01:00.000Z', 1))}\n`);
    closeSync(late);
    unlinkSync(pin);
    expect(await store.compact()).toMatchObject({ compacted: 1 });
    expect(readdirSync(dir)).toEqual(['events.000001.jsonl.gz']);
    expect((await store.read()).items.map((e) => e.session)).toEqual(['s0', 's1']);
    await expect(store.compact({ minAgeMs: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    // minAgeMs still works for callers that pass it: a segment changed this recently waits.
    await store.append([ev('s2', '2026-01-01T00:02:00.000Z', 2)]);
    expect(await store.rotate()).toBe(2);
    expect(await store.compact({ minAgeMs: 60_000 })).toMatchObject({ compacted: 0 });
    expect(await store.compact()).toMatchObject({ compacted: 1 });
  });

  it('never compacts a segment that a rotation has linked but not yet unlinked from the active name', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path);
    await store.append([ev('s0', '2026-01-01T00:00:00.000Z', 0)]);
    linkSync(path, join(dir, 'events.000001.jsonl')); // a rotator in another process, between link() and unlink()
    expect(await store.compact({ minAgeMs: 0 })).toMatchObject({ compacted: 0 });
    await store.append([ev('s1', '2026-01-01T00:01:00.000Z', 1)]); // lands in the same file, under both names
    expect(existsSync(join(dir, 'events.000001.jsonl.gz'))).toBe(false);
    expect((await store.read()).items.map((e) => e.session)).toEqual(['s0', 's1']);
  });

  it('two compactions at once both succeed and lose nothing', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'events.jsonl'));
    for (let i = 0; i < 40; i++) {
      await store.append([ev(`s${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), i)]);
      if (i % 5 === 4) expect(await store.rotate()).toBe((i + 1) / 5); // rotate() alone leaves its segment plain
    }
    expect(readdirSync(dir).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `events.00000${n}.jsonl`));
    const results = await Promise.all([store.compact(), eventStore(join(dir, 'events.jsonl')).compact()]);
    expect(results.map((r) => r.compacted).reduce((a, b) => a + b, 0)).toBe(8);
    expect(readdirSync(dir).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `events.00000${n}.jsonl.gz`));
    expect((await store.read()).items.map((e) => e.i)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('rotate() closes a non-empty active file and does nothing to an empty store', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'events.jsonl'));
    expect(await store.rotate()).toBeNull();
    await store.append([ev('s', '2026-01-01T00:00:00Z', 1)]);
    expect(await store.rotate()).toBe(1);
    await store.append([ev('s', '2026-01-01T00:00:01Z', 2)]);
    expect(await store.rotate()).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl', 'events.000002.jsonl']);
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]);
  });

  it('finishes the work of a rotator that died between link and rename, reading nothing twice', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path, { segmentBytes: 90 });
    await store.append([ev('s', '2026-01-01T00:00:00Z', 1), ev('s', '2026-01-01T00:00:01Z', 2)]); // 2 × 49 bytes ≥ 90
    // The dead rotator's state: the active file also named as segment 1, and its lock left behind long ago.
    linkSync(path, join(dir, 'events.000001.jsonl'));
    writeFileSync(`${path}.rotate.lock`, '');
    utimesSync(`${path}.rotate.lock`, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2]); // one inode, two names: read once
    await store.append([ev('s', '2026-01-01T00:00:02Z', 3)]);
    // Segment 1 kept its number (no second name), was closed and then gzipped by the appending process.
    expect(readdirSync(dir).sort()).toEqual(['events.000001.jsonl.gz', 'events.jsonl']);
    expect(gunzipSync(readFileSync(join(dir, 'events.000001.jsonl.gz'))).toString()).toBe(
      '{"session":"s","t":"2026-01-01T00:00:00Z","i":1}\n{"session":"s","t":"2026-01-01T00:00:01Z","i":2}\n',
    );
    expect(readFileSync(path, 'utf8')).toBe('{"session":"s","t":"2026-01-01T00:00:02Z","i":3}\n');
    expect((await store.read()).items.map((e) => e.i)).toEqual([1, 2, 3]);
  });

  it('reads one copy when an interrupted compaction left both, and the next compaction removes the plain one', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'events.jsonl'));
    await store.append([ev('s', '2026-01-01T00:00:00Z', 1)]);
    await store.rotate();
    const plain = readFileSync(join(dir, 'events.000001.jsonl'));
    await store.compact({ minAgeMs: 0 });
    writeFileSync(join(dir, 'events.000001.jsonl'), plain); // as if the unlink never happened
    expect((await store.read()).items.map((e) => e.i)).toEqual([1]);
    await store.compact({ minAgeMs: 0 });
    expect(readdirSync(dir)).toEqual(['events.000001.jsonl.gz']);
    expect((await store.read()).items.map((e) => e.i)).toEqual([1]);
  });

  it('reports a damaged compressed segment as a counted skip and reads the rest', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'events.jsonl'));
    await store.append([ev('s', '2026-01-01T00:00:00Z', 1)]);
    await store.rotate();
    await store.compact({ minAgeMs: 0 });
    const gz = readFileSync(join(dir, 'events.000001.jsonl.gz'));
    writeFileSync(join(dir, 'events.000001.jsonl.gz'), gz.subarray(0, gz.length - 12));
    await store.append([ev('s', '2026-01-01T00:00:01Z', 2)]);
    const result = await store.read();
    expect(result.items.map((e) => e.i)).toContain(2);
    expect(result.reasons.corrupt_segment).toBe(1);
  });
});

describe('scan and cursors', () => {
  it('resumes from any entry’s cursor across plain and compressed segments', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'events.jsonl'), { segmentBytes: 300 });
    for (let i = 0; i < 20; i++) await store.append([ev('s', new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), i)]);
    await store.compact({ minAgeMs: 0 }); // some segments gzipped, the active one plain
    const entries = [];
    for await (const entry of store.scan()) entries.push(entry);
    expect(entries.map((e) => (e.kind === 'item' ? e.item.i : -1))).toEqual([...Array(20).keys()]);
    for (const k of [0, 3, 7, 12, 18, 19]) {
      const rest: number[] = [];
      for await (const entry of store.scan({ from: entries[k]!.next }))
        if (entry.kind === 'item') rest.push(entry.item.i);
      expect(rest).toEqual([...Array(20).keys()].slice(k + 1));
    }
    // Line numbers restart per segment and are 1-based; offsets are where each line starts.
    expect(entries[0]).toMatchObject({ line: 1, offset: 0, next: { segment: 1, line: 1 } });
  });

  it('writes and reads cursor files atomically with mode 0600, rejecting foreign content', async () => {
    const dir = tempDir();
    const path = join(dir, 'telemetry', 'sent.cursor');
    expect(await readCursorFile(path)).toBeNull();
    const cursor: JsonlCursor = { segment: 3, offset: 1234, line: 17 };
    await writeCursorFile(path, cursor);
    expect(readFileSync(path, 'utf8')).toBe('{"segment":3,"offset":1234,"line":17}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'telemetry')).mode & 0o777).toBe(0o700);
    expect(await readCursorFile(path)).toEqual(cursor);
    expect(readdirSync(join(dir, 'telemetry'))).toEqual(['sent.cursor']); // no temporary file left behind
    writeFileSync(path, 'garbage');
    await expect(readCursorFile(path)).rejects.toThrow(/sent\.cursor is not a cursor: not valid JSON\. Delete it/);
    writeFileSync(path, '{"segment":-1,"offset":0,"line":0}');
    await expect(readCursorFile(path)).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
  });

  it('never moves a cursor past a torn last line of the active file', async () => {
    const path = join(tempDir(), 'events.jsonl');
    writeFileSync(path, '{"session":"s","t":"2026-01-01T00:00:00Z","i":1}\n{"sess');
    const entries = [];
    for await (const entry of eventStore(path).scan()) entries.push(entry);
    expect(entries[1]).toMatchObject({ kind: 'skip', reason: 'torn_line', next: { segment: 1, offset: 49, line: 1 } }); // the first line is 48 bytes + newline
  });
});

describe('the telemetry outbox pattern', () => {
  it('an uploader sends a few, saves its cursor, restarts, and resumes exactly where it stopped', async () => {
    const dir = tempDir();
    const outboxPath = join(dir, 'telemetry', 'outbox.jsonl');
    const cursorPath = join(dir, 'telemetry', 'sent.cursor');
    const outbox = createJsonlStore<TestEvent>({ path: outboxPath, schema: eventSchema, fsync: true });
    await outbox.append([...Array(10).keys()].map((i) => ev(`e${i}`, '2026-01-01T00:00:00Z', i)));

    const sendSome = async (limit: number): Promise<number[]> => {
      const store = createJsonlStore<TestEvent>({ path: outboxPath, schema: eventSchema }); // a fresh process, as it were
      const from = (await readCursorFile(cursorPath)) ?? undefined;
      const sent: number[] = [];
      for await (const entry of store.scan(from === undefined ? {} : { from })) {
        if (sent.length === limit) break;
        if (entry.kind === 'item') sent.push(entry.item.i);
        await writeCursorFile(cursorPath, entry.next);
      }
      return sent;
    };
    expect(await sendSome(4)).toEqual([0, 1, 2, 3]);
    expect(await sendSome(100)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(await sendSome(100)).toEqual([]);
    await outbox.append([ev('late', '2026-01-01T00:00:00Z', 10), ev('late', '2026-01-01T00:00:00Z', 11)]);
    await outbox.rotate(); // the active file becomes segment 1, which the cursor already names
    await outbox.append([ev('later', '2026-01-01T00:00:00Z', 12)]);
    await outbox.compact({ minAgeMs: 0 });
    expect(await sendSome(100)).toEqual([10, 11, 12]);
  });
});

describe('errors', () => {
  it('are BiasStoreErrors with codes', () => {
    expect(() => eventStore('x.jsonl', { segmentBytes: 0 })).toThrow(BiasStoreError);
    expect(() => eventStore('')).toThrow(/path must be the path of a file/);
    expect(() => eventStore('x.jsonl', { rotationLockStaleMs: -1 })).toThrow(
      /rotationLockStaleMs must be a number of milliseconds ≥ 0/,
    );
  });
});
