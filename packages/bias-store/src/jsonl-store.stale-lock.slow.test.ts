import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForChildren } from './__fixtures__/child-bundle.js';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import type * as JsonlStoreModule from './jsonl-store.js';

// Issue 12, item 6: a rotator that dies holding the rotation lock, and several writers that then take the stale lock
// over at once, must not lose a record whose append resolved. Each round starts writer processes on a store with tiny
// segments, keeps the lock stale (every process treats any lock as stale, and a helper re-creates an old lock file
// whenever it is absent, as a dead rotator leaves it), runs a compactor beside them, and in every other round kills one
// writer at a random moment. Every record a writer confirmed must then be read back exactly once.
//
// BIAS_STORE_STRESS_ROUNDS=200 runs the long variant; BIAS_STORE_STRESS_ENTRY=/path/to/src/__fixtures__/child-entry.ts
// runs the same rounds against another copy of the package (the figures for today's code in the README came from it).
const rounds = Number(process.env.BIAS_STORE_STRESS_ROUNDS ?? 14);
const writers = 6;
const appendsPerWriter = 150;

// Appends `appends` batches of 1–3 records, printing "ok <first i> <count>" once each append has resolved.
const writer = `
const { createJsonlStore, eventSchema } = await import('./bias-store.mjs');
const [path, writer, appends, startAt, segmentBytes] = process.argv.slice(2);
const store = createJsonlStore({ path, schema: eventSchema, segmentBytes: Number(segmentBytes), rotationLockStaleMs: 0 });
let seed = Number(writer) * 7919 + Number(startAt % 100000);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
while (Date.now() < Number(startAt)) await new Promise((r) => setTimeout(r, 2));
let next = 0;
for (let a = 0; a < Number(appends); a++) {
  const count = 1 + Math.floor(random() * 3);
  const batch = Array.from({ length: count }, (_, k) => ({ session: 'w' + writer, t: new Date().toISOString(), i: next + k, pad: 'p'.repeat(Math.floor(random() * 400)) }));
  await store.append(batch);
  process.stdout.write('ok ' + next + ' ' + count + '\\n');
  next += count;
}
`;

// Compacts (default options) in a loop until the stop file appears.
const compactor = `
const { createJsonlStore, eventSchema } = await import('./bias-store.mjs');
const { existsSync } = await import('node:fs');
const [path, stopFile] = process.argv.slice(2);
const store = createJsonlStore({ path, schema: eventSchema, rotationLockStaleMs: 0 });
let passes = 0;
while (!existsSync(stopFile)) {
  await store.compact();
  passes++;
  await new Promise((r) => setTimeout(r, 3));
}
process.stdout.write('passes ' + passes + '\\n');
`;

let childDir = '';
// The test reads (and compacts at the end) through the same copy of the package as the children.
let createJsonlStore: typeof JsonlStoreModule.createJsonlStore;
beforeAll(async () => {
  const entry = process.env.BIAS_STORE_STRESS_ENTRY;
  childDir = await bundleForChildren(
    { 'writer.mjs': writer, 'compactor.mjs': compactor },
    entry === undefined ? {} : { entry },
  );
  ({ createJsonlStore } = (await import(entry ?? './jsonl-store.js')) as typeof JsonlStoreModule);
}, 60_000);
afterAll(() => rmSync(childDir, { recursive: true, force: true }));

const tempDir = useTempDirs();

function run(
  script: string,
  args: string[],
): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [join(childDir, script), ...args], {
    cwd: childDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/**
 * Keeps the rotation lock stale, as if its holder had died: ages whatever lock file is there (so a live holder's lock is
 * taken over too) and puts an old one in place whenever it is absent. Returns a function that stops it.
 */
function keepLockStale(path: string): () => void {
  const lock = `${path}.rotate.lock`;
  const old = `${lock}.old`;
  const longAgo = new Date(Date.now() - 600_000);
  let stopped = false;
  const tick = (): void => {
    if (stopped) return;
    try {
      utimesSync(lock, longAgo, longAgo);
    } catch {
      try {
        if (!existsSync(old)) {
          writeFileSync(old, '');
          utimesSync(old, longAgo, longAgo);
        }
        linkSync(old, lock); // appears already old, in one step
      } catch {
        // created meanwhile (EEXIST), or the directory is not there yet
      }
    }
    setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    stopped = true;
    for (const name of [lock, old]) if (existsSync(name)) unlinkSync(name);
  };
}

/** Every file in `dir` (private names too) with size, inode and link count, and which of `ids` its lines hold. */
function describeFiles(dir: string, ids: string[]): string {
  const wanted = new Set(ids);
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const info = statSync(join(dir, name));
      let held: string[] = [];
      try {
        const bytes = readFileSync(join(dir, name));
        const text = (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
        held = text.split('\n').flatMap((line) => {
          const m = /"session":"(w\d+)".*"i":(\d+)/.exec(line);
          return m !== null && wanted.has(`${m[1]}:${m[2]}`) ? [`${m[1]}:${m[2]}`] : [];
        });
      } catch (error) {
        held = [`unreadable: ${String(error)}`];
      }
      return `  ${name} (${info.size} B, inode ${info.ino}, ${info.nlink} names)${held.length > 0 ? ` holds ${held.join(' ')}` : ''}`;
    })
    .join('\n');
}

describe('a stale rotation lock taken over by several processes at once', () => {
  it(`${rounds} rounds × ${writers} writers (tiny segments, a lock always stale, a compactor running, writers killed): every confirmed record read back exactly once`, async () => {
    let confirmedTotal = 0;
    let lostTotal = 0;
    let doubledTotal = 0;
    let lostBeforeCleanup = 0;
    let segmentsTotal = 0;
    let killed = 0;
    const lossyRounds: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const dir = tempDir();
      const path = join(dir, 'events.jsonl');
      const segmentBytes = [2048, 4096, 8192, 16384][round % 4]!;
      const stopLock = keepLockStale(path);
      const stopFile = join(dir, 'stop');
      const startAt = Date.now() + 400;
      const compacting = run('compactor.mjs', [path, stopFile]);
      const children = Array.from({ length: writers }, (_, w) =>
        run('writer.mjs', [path, String(w), String(appendsPerWriter), String(startAt), String(segmentBytes)]),
      );
      if (round % 2 === 1) {
        // Kill one writer at a random moment of its run: it may die holding the lock, a pin, or mid-rotation.
        const victim = children[round % writers]!;
        setTimeout(() => victim.child.kill('SIGKILL'), 400 + Math.random() * 600);
      }
      const results = await Promise.all(children.map((c) => c.done));
      writeFileSync(stopFile, '');
      const compacted = await compacting.done;
      stopLock();
      expect(compacted).toMatchObject({ code: 0, stderr: '' });

      // What each writer confirmed: only whole "ok" lines (a killed writer's last line may be cut).
      const confirmed = new Set<string>();
      results.forEach((r, w) => {
        if (r.signal === 'SIGKILL') killed++;
        else expect(r).toMatchObject({ code: 0, stderr: '' });
        for (const m of r.stdout.matchAll(/^ok (\d+) (\d+)$/gm))
          for (let k = 0; k < Number(m[2]); k++) confirmed.add(`w${w}:${Number(m[1]) + k}`);
      });
      const count = async (): Promise<{ lost: number; doubled: number; segments: number; lostIds: string[] }> => {
        const store = createJsonlStore<TestEvent>({ path, schema: eventSchema });
        const seen = new Map<string, number>();
        for (const e of (await store.read()).items)
          seen.set(`${e.session}:${e.i}`, (seen.get(`${e.session}:${e.i}`) ?? 0) + 1);
        const lostIds = [...confirmed].filter((id) => !seen.has(id));
        const doubled = [...seen.values()].filter((n) => n > 1).length; // no record is ever written twice
        return { lost: lostIds.length, doubled, segments: (await store.files()).length, lostIds };
      };
      // Read as the processes left it, then after one more compaction, which also tidies up after the killed writer.
      const before = await count();
      const leftBy = before.lost > 0 ? describeFiles(dir, before.lostIds) : '';
      // Keep the store as the processes left it (the test's own directory is removed afterwards) for a post-mortem.
      const kept =
        before.lost > 0 ? join(tmpdir(), `stale-lock-loss-${process.pid}-${Date.now()}-round-${round}`) : null;
      if (kept !== null) {
        cpSync(dir, kept, { recursive: true });
        writeFileSync(join(kept, 'LOST.txt'), `${before.lostIds.join('\n')}\n\n${leftBy}\n`);
      }
      await createJsonlStore<TestEvent>({ path, schema: eventSchema }).compact({ minAgeMs: 0 });
      const after = await count();
      confirmedTotal += confirmed.size;
      lostBeforeCleanup += before.lost;
      lostTotal += after.lost;
      doubledTotal += Math.max(before.doubled, after.doubled);
      segmentsTotal += after.segments;
      if (after.lost > 0 || before.lost > 0) {
        lossyRounds.push(round);
        // What the next engineer needs to find the race: which records, and the files as the processes left them.
        console.log(
          `round ${round} (segments of ${segmentBytes} B${round % 2 === 1 ? ', a writer killed' : ''}): lost ${before.lost} before, ${after.lost} after the last compaction: ` +
            `${before.lostIds.slice(0, 30).join(' ')}\nfiles as the processes left them (copied to ${String(kept)}):\n${leftBy}\nafter:\n${describeFiles(dir, after.lostIds)}`,
        );
      }
    }
    console.log(
      `stale-lock stress: ${rounds} rounds, ${writers} writers + 1 compactor each, ${confirmedTotal} records confirmed, ${segmentsTotal} segments, ${killed} writers killed; ` +
        `lost ${lostTotal} (${lostBeforeCleanup} before the last compaction) in rounds [${lossyRounds.join(', ')}], doubled ${doubledTotal}`,
    );
    expect(segmentsTotal).toBeGreaterThan(rounds * 10); // rotations happened, many of them
    expect({ lost: lostTotal, lostBeforeCleanup, doubled: doubledTotal }).toEqual({
      lost: 0,
      lostBeforeCleanup: 0,
      doubled: 0,
    });
  }, 600_000);
});
