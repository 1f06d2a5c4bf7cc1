import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForChildren } from './__fixtures__/child-bundle.js';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { BiasStoreError } from './bias-store-error.js';
import { createBiasStore } from './create-bias-store.js';
import { createJsonlStore } from './jsonl-store.js';

const tempDir = useTempDirs();
const eventStore = (path: string) =>
  createJsonlStore<TestEvent>({ path, schema: eventSchema, maxLineBytes: 1024 * 1024 });
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

// Appends `count` single-line items, each with a pad of the writer's letter (0–64 KiB), after `startAt`.
const concurrentWriter = `
const { createJsonlStore, eventSchema } = await import('./bias-store.mjs');
const [path, writer, count, startAt, segmentBytes, maxPad] = process.argv.slice(2);
const store = createJsonlStore({ path, schema: eventSchema, maxLineBytes: 65536, segmentBytes: Number(segmentBytes ?? 67108864) });
const bigPad = Number(maxPad ?? 65536 - 100);
const letter = String.fromCharCode(97 + Number(writer));
let seed = Number(writer) + 1;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
while (Date.now() < Number(startAt)) await new Promise((r) => setTimeout(r, 5));
for (let i = 0; i < Number(count); i++) {
  const big = random() < 0.25;
  const padLength = big ? Math.floor(random() * bigPad) : Math.floor(random() * 1024);
  await store.append([{ session: 'w' + writer, t: new Date().toISOString(), i, pad: letter.repeat(padLength) }]);
}
`;

// Appends forever, one line (up to 128 KiB) per append, printing how many were acknowledged.
const endlessWriter = `
const { createJsonlStore, eventSchema } = await import('./bias-store.mjs');
const [path, run] = process.argv.slice(2);
const store = createJsonlStore({ path, schema: eventSchema });
for (let i = 0; ; i++) {
  await store.append([{ session: 'run' + run, t: new Date().toISOString(), i, pad: 'k'.repeat(Math.floor(Math.random() * 131072)) }]);
  process.stdout.write('acked ' + (i + 1) + '\\n');
}
`;

// Tries to append to, then read, a store as whatever user runs it; prints the outcome as JSON.
const probe = `
const { createJsonlStore, eventSchema, BiasStoreError } = await import('./bias-store.mjs');
const [path] = process.argv.slice(2);
const store = createJsonlStore({ path, schema: eventSchema });
const out = {};
try { await store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 9 }]); out.append = 'ok'; }
catch (e) { out.append = { isStoreError: BiasStoreError.isInstance(e), code: e.code, message: e.message }; }
try { out.read = (await store.read()).items.length; } catch (e) { out.read = { code: e.code, message: e.message }; }
console.log(JSON.stringify(out));
`;

// Appends 10 items in one call, each a 300-byte line (56 bytes of JSON around the digits of i and the pad, plus the newline) (run under a file-size limit); prints the error as JSON.
const batchWriter = `
const { createJsonlStore, eventSchema } = await import('./bias-store.mjs');
const [path] = process.argv.slice(2);
const store = createJsonlStore({ path, schema: eventSchema });
try {
  await store.append(Array.from({ length: 10 }, (_, i) => ({ session: 's', t: '2026-01-01T00:00:00Z', i, pad: 'p'.repeat(243 - String(i).length) })));
  console.log(JSON.stringify({ ok: true }));
} catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }
`;

let childDir = '';
beforeAll(async () => {
  childDir = await bundleForChildren({
    'concurrent-writer.mjs': concurrentWriter,
    'endless-writer.mjs': endlessWriter,
    'probe.mjs': probe,
    'batch-writer.mjs': batchWriter,
  });
}, 60_000);
afterAll(() => rmSync(childDir, { recursive: true, force: true }));

function run(script: string, args: string[], options: { uid?: number; gid?: number } = {}): ChildProcess {
  return spawn(process.execPath, [join(childDir, script), ...args], {
    cwd: childDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
}

function finished(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('concurrent writers', () => {
  it('8 processes × 500 appends of lines up to 64 KiB: every line parses and the count is exact', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const startAt = Date.now() + 1500;
    const children = Array.from({ length: 8 }, (_, w) =>
      finished(run('concurrent-writer.mjs', [path, String(w), '500', String(startAt)])),
    );
    const results = await Promise.all(children);
    for (const r of results) expect(r).toMatchObject({ code: 0, stderr: '' });

    const result = await createJsonlStore<TestEvent>({ path, schema: eventSchema, maxLineBytes: 65536 }).read();
    expect(result.skipped).toBe(0);
    expect(result.items).toHaveLength(4000);
    for (let w = 0; w < 8; w++) {
      const mine = result.items.filter((e) => e.session === `w${w}`);
      expect(mine.map((e) => e.i)).toEqual([...Array(500).keys()]); // each writer's lines whole and in its order
      const letter = String.fromCharCode(97 + w);
      expect(mine.every((e) => e.pad === undefined || e.pad === '' || e.pad === letter.repeat(e.pad.length))).toBe(
        true,
      );
    }
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(Math.max(...lines.map((l) => Buffer.byteLength(l)))).toBeLessThanOrEqual(65536);
  }, 60_000);

  // Reproduced a lost batch (1 run in 5 under load) until the rotation lock stopped unlinking a lock it had not
  // seen go stale: two rotators at once could unlink an active file a writer had just created. (See also
  // jsonl-store.stale-lock.slow.test.ts, which makes that happen on purpose.)
  it('4 processes appending across many segment rotations while another reads and compacts: nothing lost or doubled', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const startAt = Date.now() + 1200;
    const children = Array.from({ length: 4 }, (_, w) =>
      finished(run('concurrent-writer.mjs', [path, String(w), '300', String(startAt), String(32 * 1024), '4096'])),
    );
    let settled = false;
    const all = Promise.all(children).finally(() => (settled = true));
    const store = createJsonlStore<TestEvent>({
      path,
      schema: eventSchema,
      maxLineBytes: 65536,
      segmentBytes: 32 * 1024,
    });
    let reads = 0;
    while (!settled) {
      const seen = (await store.read()).items.map((e) => `${e.session}:${e.i}`);
      expect(new Set(seen).size).toBe(seen.length); // a read never sees a line twice
      await store.compact(); // while the writers append (and gzip what they rotate)
      reads++;
    }
    for (const r of await all) expect(r).toMatchObject({ code: 0, stderr: '' });
    await store.compact();
    const result = await store.read();
    expect(result.skipped).toBe(0);
    for (let w = 0; w < 4; w++)
      expect(result.items.filter((e) => e.session === `w${w}`).map((e) => e.i)).toEqual([...Array(300).keys()]);
    expect(readdirSync(dir).filter((n) => /^events\.\d{6}\.jsonl(\.gz)?$/.test(n)).length).toBeGreaterThan(3); // rotations happened (fewer than size alone implies: a writer skips one while another holds the lock)
    expect(reads).toBeGreaterThan(0);
  }, 60_000);
});

describe('a writer killed mid-append', () => {
  it('20 SIGKILLs: every read succeeds, at most the line in flight is lost, the next append is clean', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const store = eventStore(path);
    let tornSoFar = 0;
    for (let runNo = 0; runNo < 20; runNo++) {
      const child = run('endless-writer.mjs', [path, String(runNo)]);
      const done = finished(child);
      let acked = 0;
      const target = 5 + Math.floor(Math.random() * 40);
      await new Promise<void>((resolve) => {
        child.stdout!.on('data', (d: Buffer) => {
          const m = /acked (\d+)\n?$/.exec(d.toString().trimEnd());
          if (m) acked = Number(m[1]);
          // Kill at a random moment of a later append, not just after an acknowledgement.
          if (acked >= target) setTimeout(resolve, Math.random() * 6);
        });
        child.on('close', () => resolve());
      });
      child.kill('SIGKILL');
      await done;

      const result = await store.read(); // must not throw
      const mine = result.items.filter((e) => e.session === `run${runNo}`).map((e) => e.i);
      // Every acknowledged line is there, in order, with no gap; at most the one in flight beyond them.
      expect(mine.length).toBeGreaterThanOrEqual(acked);
      expect(mine).toEqual([...Array(mine.length).keys()]);
      expect(result.skipped - tornSoFar).toBeLessThanOrEqual(1);
      expect(result.skipped).toBe(result.reasons.torn_line + result.reasons.invalid_json);
      tornSoFar = result.skipped;

      // The next append is clean: its line reads back and adds no skip.
      await store.append([{ session: 'marker', t: new Date().toISOString(), i: runNo }]);
      const after = await store.read();
      expect(after.skipped).toBe(tornSoFar);
      expect(after.items.filter((e) => e.session === 'marker').map((e) => e.i)).toEqual([...Array(runNo + 1).keys()]);
    }
  }, 60_000);
});

describe('hostile file systems and files', () => {
  it('a read-only directory: a clear IO_ERROR on append, reads still work, nothing rewritten', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    const path = join(dir, 'events.jsonl');
    writeFileSync(path, '{"session":"s","t":"2026-01-01T00:00:00Z","i":1}\n', { mode: 0o644 });
    const before = sha(path);
    let outcome: { append: unknown; read: unknown };
    if (process.getuid?.() === 0) {
      // root ignores permissions, so the probe runs as nobody (65534), who may read but not write here.
      const r = await finished(run('probe.mjs', [path], { uid: 65534, gid: 65534 }));
      expect(r.stderr).toBe('');
      outcome = JSON.parse(r.stdout) as typeof outcome;
    } else {
      chmodSync(dir, 0o555);
      chmodSync(path, 0o444);
      const r = await finished(run('probe.mjs', [path]));
      outcome = JSON.parse(r.stdout) as typeof outcome;
      chmodSync(dir, 0o755);
    }
    expect(outcome.append).toEqual({
      isStoreError: true,
      code: 'IO_ERROR',
      message: `Cannot append to ${path}: permission denied; make it (and its directory) writable by this user, or choose another path (EACCES).`,
    });
    expect(outcome.read).toBe(1);
    expect(sha(path)).toBe(before);
  }, 60_000);

  it('a missing parent is created (0700); a parent that is a file is a clear error', async () => {
    const dir = tempDir();
    const store = eventStore(join(dir, 'missing', 'deeper', 'events.jsonl'));
    await store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 1 }]);
    expect(statSync(join(dir, 'missing', 'deeper')).mode & 0o777).toBe(0o700);
    expect((await store.read()).items).toHaveLength(1);

    writeFileSync(join(dir, 'a-file'), 'user data');
    const blocked = eventStore(join(dir, 'a-file', 'events.jsonl'));
    const error = await blocked.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 1 }]).catch((e: unknown) => e);
    expect(BiasStoreError.isInstance(error)).toBe(true);
    expect((error as BiasStoreError).code).toBe('IO_ERROR');
    expect((error as Error).message).toMatch(
      /a-file\/events\.jsonl: a component of the path is a file, not a directory; fix the path \(ENOTDIR\)/,
    );
    expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('user data');
  });

  it('a disk that fills up partway through a batch: the part written is taken back, so the batch is absent, not half there', async () => {
    // A file-size limit of 2 KiB stands in for a full disk: the kernel writes what fits, then refuses (EFBIG).
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const torn = '{"session":"s","t":"2026-01-01T00:00:00Z","i":-1,"pad":"torn'; // 60 bytes, no newline
    writeFileSync(path, torn);
    // bash's ulimit -f counts 1024-byte blocks (POSIX sh may count 512).
    const child = spawn(
      'bash',
      ['-c', `trap '' XFSZ; ulimit -f 2; exec "${process.execPath}" batch-writer.mjs "${path}"`],
      { cwd: childDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const result = await finished(child);
    const outcome = JSON.parse(result.stdout) as { code: string; message: string };
    // The kernel took 2048 bytes = 60 (old torn line) + 1 (its repair newline) + 6 × 300-byte lines + 187 bytes of the 7th:
    // six whole records that a reader would count, were they left. They are taken back.
    expect(outcome.code).toBe('IO_ERROR');
    expect(outcome.message).toBe(
      `Cannot append to ${path}: the file reached the largest size this process may write (a file-size limit, ulimit -f) (EFBIG). Nothing was added: the part of the 10 records written before the failure was taken back. Raise the limit or choose another path, then retry.`,
    );
    // To take it back safely the file was closed as a segment first (no other writer can reach it then); its bytes are
    // the store's bytes before the append, exactly.
    const store = eventStore(path);
    const files = await store.files();
    expect(files.map((f) => f.path)).toEqual([join(dir, 'events.000001.jsonl'), path]); // and an empty active file begun
    expect(Buffer.concat(files.map((f) => readFileSync(f.path))).toString()).toBe(torn);
    const read = await store.read();
    expect(read.items).toEqual([]);
    expect(read.reasons.torn_line).toBe(1);
    // Once the limit is gone, the whole batch appends and reads back: nothing doubled.
    await store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 0 }]);
    expect((await store.read()).items.map((e) => e.i)).toEqual([0]);
  }, 60_000);

  it('a path that is a directory: a clear error on append and on read, never a crash', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    mkdirSync(path);
    const store = eventStore(path);
    await expect(store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 1 }])).rejects.toThrow(
      `Cannot append to ${path}: it is a directory; give the path of a file inside it instead (EISDIR).`,
    );
    await expect(store.read()).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringContaining('it is a directory') as string,
    });
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it('non-UTF-8 bytes: the line is skipped and counted, the file untouched', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const good = '{"session":"s","t":"2026-01-01T00:00:00Z","i":1}\n';
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from(good),
        Buffer.from('{"session":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('","t":"2026-01-01T00:00:00Z","i":2}\n'),
        Buffer.from(good.replace('"i":1', '"i":3')),
      ]),
    );
    const before = sha(path);
    const result = await eventStore(path).read();
    expect(result.items.map((e) => e.i)).toEqual([1, 3]);
    expect(result.firstBadLines).toEqual([
      { file: path, line: 2, reason: 'invalid_utf8', detail: 'the line is not valid UTF-8' },
    ]);
    expect(sha(path)).toBe(before);
  });

  it('a 10 MB line: skipped as too long without buffering it, neighbours read, file untouched', async () => {
    const path = join(tempDir(), 'events.jsonl');
    const huge = `{"session":"s","t":"2026-01-01T00:00:00Z","i":2,"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    writeFileSync(
      path,
      `{"session":"s","t":"2026-01-01T00:00:00Z","i":1}\n${huge}\n{"session":"s","t":"2026-01-01T00:00:00Z","i":3}\n`,
    );
    const before = sha(path);
    const result = await eventStore(path).read();
    expect(result.items.map((e) => e.i)).toEqual([1, 3]);
    expect(result.firstBadLines).toEqual([
      {
        file: path,
        line: 2,
        reason: 'line_too_long',
        detail: `the line is ${Buffer.byteLength(huge)} bytes, over maxLineBytes (1048576)`,
      },
    ]);
    expect(sha(path)).toBe(before);
  });

  it('a schema 2.0.0 record: skipped and counted as unsupported, the rest read, appends leave it alone', async () => {
    const path = join(tempDir(), 'bias_metrics.jsonl');
    const line = (version: string, reviewer: string) =>
      `{"schema_version":${version},"session_id":"s","timestamp":"2026-01-01T00:00:00Z","consent_level":1,"reviewer_id":"${reviewer}","model_id":"m","position":0,"response_length_chars":1,"score_value":5,"score_scale":"1-10","council_config_version":"0.4.0","query_hash":null}`;
    const original = `${line('"1.1.0"', 'r1')}\n${line('"2.0.0"', 'r2')}\n${line('1', 'r3')}\n`;
    writeFileSync(path, original);
    const store = createBiasStore({ path });
    const result = await store.read();
    expect(result.items.map((r) => r.reviewerId)).toEqual(['r1', 'r3']);
    expect(result.reasons.unsupported_version).toBe(1);
    expect(result.firstBadLines).toEqual([
      {
        file: path,
        line: 2,
        reason: 'unsupported_version',
        detail: 'schema_version "2.0.0" has major version 2; this reader understands major 1',
      },
    ]);
    const inode = statSync(path).ino;
    await store.append([{ ...result.items[0]!, reviewerId: 'r4', rankPosition: null, positionIsDisplayOrder: true }]);
    expect(readFileSync(path, 'utf8').startsWith(original)).toBe(true);
    expect(statSync(path).ino).toBe(inode);
  });
});
