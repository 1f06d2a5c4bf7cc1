import { spawnSync } from 'node:child_process';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { injectWriteFaults } from './__fixtures__/write-faults.js';
import type { WriteFault } from './__fixtures__/write-faults.js';
import { appendJsonLines } from './append-json-lines.js';
import { BiasStoreError } from './bias-store-error.js';
import { appendHistory, readHistory } from './history-log.js';
import type { HistoryEntry } from './history-log.js';
import { createJsonlStore } from './jsonl-store.js';
import { privateName } from './private-names.js';

// Issue 27 item 1: every append checks the bytes each write returns, and completes its lines or is absent.
const tempDir = useTempDirs();
const linux = process.platform === 'linux';
const eventStore = (path: string) => createJsonlStore<TestEvent>({ path, schema: eventSchema });
const event = (i: number, pad = ''): TestEvent => ({
  session: 's',
  t: '2026-01-01T00:00:00Z',
  i,
  ...(pad === '' ? {} : { pad }),
});

/** Every byte of a store, its files in read order: what a reader can ever see. */
async function storeBytes(path: string): Promise<string> {
  return Buffer.concat((await eventStore(path).files()).map((f) => readFileSync(f.path))).toString();
}

async function failing<T>(fault: WriteFault, fn: () => Promise<T> | T): Promise<unknown> {
  const injected = injectWriteFaults(fault);
  try {
    await fn();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    injected.restore();
  }
}

describe.runIf(linux)('a write cut short (injected at the write system call)', () => {
  // A batch of three 60-byte lines (180 bytes) after one line already there; the fault lets through 0, 1, 59 (all but
  // the newline of the first line), 60 (exactly one whole line: the case a reader would count), 61, 120, 179 bytes.
  for (const bytes of [0, 1, 59, 60, 61, 120, 179]) {
    it(`${bytes} of 180 bytes reach the file, then the disk is full: the append fails, and the store is as it was`, async () => {
      const dir = tempDir();
      const path = join(dir, 'events.jsonl');
      const store = eventStore(path);
      await store.append([event(0)]);
      const before = await storeBytes(path);
      const batch = [1, 2, 3].map((i) => event(i, 'xx')); // each line exactly 60 bytes with its newline
      expect(Buffer.byteLength(`${JSON.stringify(batch[0])}\n`)).toBe(60);
      const error = await failing({ under: dir, at: 0, bytes, fault: 'ENOSPC' }, () => store.append(batch));
      expect(BiasStoreError.isInstance(error)).toBe(true);
      expect((error as BiasStoreError).code).toBe('IO_ERROR');
      expect((error as Error).message).toBe(
        bytes === 0
          ? `Cannot append to ${path}: the disk is full; free some space (ENOSPC).`
          : `Cannot append to ${path}: the disk is full (ENOSPC). Nothing was added: the part of the 3 records written before the failure was taken back. Free some space, then retry.`,
      );
      expect(await storeBytes(path)).toBe(before);
      const read = await store.read();
      expect(read.items.map((e) => e.i)).toEqual([0]);
      expect(read.skipped).toBe(0);
      // Retrying once there is space adds the batch once.
      await store.append(batch);
      expect((await store.read()).items.map((e) => e.i)).toEqual([0, 1, 2, 3]);
    });
  }

  it('a failed fsync after the whole batch was written: taken back, so "failed" never leaves the records behind', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path);
    await store.append([event(0)]);
    const error = await failing({ under: dir, at: 0, call: 'fsync', fault: 'EIO' }, () =>
      store.append([event(1), event(2)], { fsync: true }),
    );
    expect((error as Error).message).toBe(
      `Cannot append to ${path}: flushing the 2 records to disk failed: the disk reported an input/output error (EIO). Nothing was added: the part of the 2 records written before the failure was taken back. Check the disk (dmesg), then retry.`,
    );
    expect((await store.read()).items.map((e) => e.i)).toEqual([0]);
  });

  it('another writer appended after the cut part: its line is kept, and the error says which records were written whole', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path);
    await store.append([event(0)]);
    const other = `${JSON.stringify(event(99))}\n`;
    // The fault lets 61 bytes through (one whole line and one byte), and another process appends its confirmed line
    // right after them, before the failed append can take its bytes back.
    const injected = injectWriteFaults({ under: dir, at: 0, bytes: 61, fault: 'ENOSPC' });
    let error: unknown;
    try {
      const pending = store.append([1, 2, 3].map((i) => event(i, 'xx')));
      injected.restore(); // the append's write already ran (synchronously): the other writer's append is not struck
      const fd = openSync(path, 'a');
      writeSync(fd, `\n${other}`);
      closeSync(fd);
      await pending;
    } catch (e) {
      error = e;
    } finally {
      injected.restore();
    }
    expect((error as Error).message).toBe(
      `Cannot append to ${path}: the disk is full (ENOSPC). The first 1 of the 3 records were written whole and could not be taken back (another process wrote after them); the rest were not (a cut line after them is skipped on read as torn). Free some space, then append only the last 2 again.`,
    );
    const read = await store.read();
    expect(read.items.map((e) => e.i)).toEqual([0, 1, 99]); // the other writer's line is there
  });

  it('another live writer still holds the file: the take-back waits until it is done, then cuts only its own bytes', async () => {
    const dir = tempDir();
    const path = join(dir, 'events.jsonl');
    const store = eventStore(path);
    await store.append([event(0)]);
    // A pin of a live process (this one) on the active file, as a writer between its link and its write has.
    const pin = privateName(path, 'pin');
    linkSync(path, pin);
    let released = false;
    setTimeout(() => {
      released = true;
      unlinkSync(pin);
    }, 150);
    const error = await failing({ under: dir, at: 0, bytes: 70, fault: 'ENOSPC' }, () =>
      store.append([event(1), event(2)]),
    );
    expect(released).toBe(true); // it waited for the pin to go
    expect((error as Error).message).toContain('Nothing was added');
    expect((await store.read()).items.map((e) => e.i)).toEqual([0]);
  });

  it('the history log: a short write is taken back, and the entry is absent rather than torn', async () => {
    const dir = tempDir();
    const path = join(dir, 'history.jsonl');
    const entry = (id: string): HistoryEntry => ({
      schema_version: '1.0.0',
      council_version: 't',
      simulated: true,
      query_metadata: null,
      session: { sessionId: id, timestamp: '2026-01-02T03:04:05.000Z', stage1: [], stage2: [], leaderboard: [] },
    });
    await appendHistory(path, [entry('s1')]);
    const line = readFileSync(path, 'utf8');
    // All of the line but its newline reaches the file: a complete JSON object a line reader would have accepted.
    const error = await failing({ under: dir, at: 0, bytes: line.length - 1, fault: 'ENOSPC' }, () =>
      appendHistory(path, [entry('s2')]),
    );
    expect((error as Error).message).toBe(
      `Cannot append to ${path}: the disk is full (ENOSPC). Nothing was added: the part of the 1 record written before the failure was taken back. Free some space, then retry.`,
    );
    const read = await readHistory(path);
    expect(read.entries.map((e) => e.session.sessionId)).toEqual(['s1']);
    expect(read.skipped).toBe(0);
  });

  it("a file of one writer (batch's results): a short write is truncated away, and a raw error never escapes", () => {
    const dir = tempDir();
    const path = join(dir, 'results.jsonl');
    appendJsonLines(path, [{ n: 1 }]);
    const injected = injectWriteFaults({ under: dir, at: 0, bytes: 5, fault: 'ENOSPC' });
    let error: unknown;
    try {
      appendJsonLines(path, [{ n: 2 }, { n: 3 }]);
    } catch (e) {
      error = e;
    } finally {
      injected.restore();
    }
    expect((error as Error).message).toBe(
      `Cannot append to ${path}: the disk is full (ENOSPC); nothing of the 2 lines was added. Free some space, then retry.`,
    );
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n');
  });
});

describe('special files where a store file should be', () => {
  const append = (path: string) => eventStore(path).append([event(1)]);

  it.runIf(linux)(
    'a FIFO: refused on append and on read, at once (nothing waits for a writer), and nothing is "saved" into it',
    () => {
      // In a child process with a deadline: a reader blocked on a FIFO would hang the test runner itself.
      const dir = tempDir();
      const path = join(dir, 'events.jsonl');
      expect(spawnSync('mkfifo', [path]).status).toBe(0);
      const program = `
      import { createJsonlStore } from ${JSON.stringify(new URL('./jsonl-store.ts', import.meta.url).pathname)};
      import { eventSchema } from ${JSON.stringify(new URL('./__fixtures__/event-schema.ts', import.meta.url).pathname)};
      import { readHistory } from ${JSON.stringify(new URL('./history-log.ts', import.meta.url).pathname)};
      const store = createJsonlStore({ path: process.argv[1], schema: eventSchema });
      const out = {};
      for (const [name, fn] of [['append', () => store.append([{ session: 's', t: '2026-01-01T00:00:00Z', i: 1 }])], ['read', () => store.read()], ['history', () => readHistory(process.argv[1])]]) {
        try { await fn(); out[name] = 'ok'; } catch (e) { out[name] = e.message; }
      }
      console.log(JSON.stringify(out));
    `;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program, path], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(child.signal).toBeNull();
      const refused = (action: string) =>
        `Cannot ${action} ${path}: it is a FIFO (named pipe), not a regular file; Council keeps its data only in regular files: remove it, or choose another path.`;
      expect(JSON.parse(child.stdout)).toEqual({
        append: refused('append to'),
        read: refused('read'),
        history: refused('read'),
      });
    },
    30_000,
  );

  it('a symbolic link (to a regular file, to a device, dangling): refused on append, and the file it points to is untouched', async () => {
    const dir = tempDir();
    const target = join(dir, 'elsewhere.jsonl');
    writeFileSync(target, "the user's own file\n");
    for (const [name, to] of [
      ['link.jsonl', target],
      ['device.jsonl', '/dev/null'],
      ['dangling.jsonl', join(dir, 'missing', 'x.jsonl')],
    ] as const) {
      const path = join(dir, name);
      symlinkSync(to, path);
      await expect(append(path)).rejects.toThrow(
        `Cannot append to ${path}: it is a symbolic link (to ${to}), and Council appends only to a regular file at the path it is given, never through a link; give the path of the file it points to instead, or replace the link with that file.`,
      );
    }
    expect(readFileSync(target, 'utf8')).toBe("the user's own file\n");
  });

  it.runIf(linux && process.getuid?.() === 0)(
    'a character device node (made with mknod, as root): refused on append and on read',
    async () => {
      const dir = tempDir();
      const path = join(dir, 'events.jsonl');
      expect(spawnSync('mknod', [path, 'c', '1', '3']).status).toBe(0); // the null device
      await expect(append(path)).rejects.toThrow(
        `Cannot append to ${path}: it is a character device, not a regular file; Council keeps its data only in regular files: remove it, or choose another path.`,
      );
      await expect(eventStore(path).read()).rejects.toThrow(
        `Cannot read ${path}: it is a character device, not a regular file`,
      );
    },
    60_000,
  );

  it('a directory where the history log should be: a clear error, not a crash', async () => {
    const dir = tempDir();
    const path = join(dir, 'history.jsonl');
    mkdirSync(path);
    await expect(readHistory(path)).rejects.toThrow(
      `Cannot read ${path}: it is a directory; give the path of a file inside it instead (EISDIR).`,
    );
  });
});
