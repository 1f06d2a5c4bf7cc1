import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSchema } from './__fixtures__/event-schema.js';
import type { TestEvent } from './__fixtures__/event-schema.js';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { injectWriteFaults } from './__fixtures__/write-faults.js';
import { prepareHistory, readHistory } from './history-log.js';
import type { HistoryEntry } from './history-log.js';
import { createJsonlStore } from './jsonl-store.js';
import { completeUnsavedSessions, saveSessionWhole, SessionSaveError } from './save-session-whole.js';
import type { SessionPart } from './save-session-whole.js';
import { journalFileName, journalText, unsavedSessionIds } from './session-journal.js';

// Issue 27 item 2: a session's lines in several files are all visible to readers, or none.
const tempDir = useTempDirs();
const linux = process.platform === 'linux';

/** A home with three stores and a history log, as a session writes them (generic items stand in for the records). */
function home(dir: string) {
  const paths = {
    bias: join(dir, 'bias_metrics.jsonl'),
    contributions: join(dir, 'contributions.jsonl'),
    history: join(dir, 'history.jsonl'),
    outbox: join(dir, 'telemetry', 'outbox.jsonl'),
    journal: join(dir, 'journal'),
  };
  const store = (path: string) => createJsonlStore<TestEvent>({ path, schema: eventSchema });
  const entry = (id: string): HistoryEntry => ({
    schema_version: '1.0.0',
    council_version: 't',
    simulated: true,
    query_metadata: null,
    session: { sessionId: id, timestamp: '2026-01-02T03:04:05.000Z', stage1: [], stage2: [], leaderboard: [] },
  });
  const parts = (id: string, sizes = { bias: 3, contributions: 2 }): SessionPart[] => [
    {
      what: `${sizes.bias} bias records`,
      prepared: store(paths.bias).prepare(
        Array.from({ length: sizes.bias }, (_, i) => ({ session: id, t: '2026-01-02T03:04:05Z', i })),
      ),
    },
    {
      what: `${sizes.contributions} contribution records`,
      prepared: store(paths.contributions).prepare(
        Array.from({ length: sizes.contributions }, (_, i) => ({ session: id, t: '2026-01-02T03:04:05Z', i })),
      ),
    },
    { what: 'its history entry', prepared: prepareHistory(paths.history, [entry(id)]).prepared },
    {
      what: 'its telemetry event',
      prepared: store(paths.outbox).prepare([{ session: id, t: '2026-01-02T03:04:05Z', i: 0 }]),
    },
  ];
  /** What a reader that honours the journal counts of each file: the session's lines, sessions left out excluded. */
  const counted = async (id: string) => {
    const leftOut = await unsavedSessionIds(paths.journal);
    const count = async (path: string) =>
      leftOut.has(id) ? 0 : (await store(path).read()).items.filter((e) => e.session === id).length;
    const history = leftOut.has(id)
      ? 0
      : (await readHistory(paths.history)).entries.filter((e) => e.session.sessionId === id).length;
    return {
      bias: await count(paths.bias),
      contributions: await count(paths.contributions),
      history,
      outbox: await count(paths.outbox),
    };
  };
  /** Every line of each file that belongs to the session, whatever the journal says: what is physically there. */
  const onDisk = async (id: string) => {
    const count = async (path: string) => (await store(path).read()).items.filter((e) => e.session === id).length;
    return {
      bias: await count(paths.bias),
      contributions: await count(paths.contributions),
      history: (await readHistory(paths.history)).entries.filter((e) => e.session.sessionId === id).length,
      outbox: await count(paths.outbox),
    };
  };
  return { paths, parts, counted, onDisk };
}

const whole = { bias: 3, contributions: 2, history: 1, outbox: 1 };
const none = { bias: 0, contributions: 0, history: 0, outbox: 0 };

describe('saveSessionWhole', () => {
  it('writes every part, then removes its journal file: the session is counted once, whole', async () => {
    const h = home(tempDir());
    await saveSessionWhole({ journal: h.paths.journal, sessionId: 's1', parts: h.parts('s1') });
    expect(readdirSync(h.paths.journal)).toEqual([]);
    expect(await h.counted('s1')).toEqual(whole);
  });

  // The writes of one session: 0 the journal, 1 the bias records, 2 the contributions, 3 the history, 4 the outbox.
  describe.runIf(linux)('a full disk at every write of the session', () => {
    for (const at of [0, 1, 2, 3, 4]) {
      for (const bytes of [0, 40]) {
        it(`write ${at} fails after ${bytes} bytes: all or nothing is counted, the error says where the session is, and completing it counts it once`, async () => {
          const dir = tempDir();
          const h = home(dir);
          await saveSessionWhole({ journal: h.paths.journal, sessionId: 'before', parts: h.parts('before') });
          const injected = injectWriteFaults({ under: dir, at, bytes, fault: 'ENOSPC' });
          let error: unknown;
          try {
            await saveSessionWhole({ journal: h.paths.journal, sessionId: 's1', parts: h.parts('s1') });
          } catch (e) {
            error = e;
          } finally {
            injected.restore();
          }
          expect(SessionSaveError.isInstance(error)).toBe(true);
          const failed = error as SessionSaveError;
          expect(failed.problem).toMatchObject({ code: 'ENOSPC', what: 'the disk is full', fix: 'free some space' });
          expect(await h.counted('before')).toEqual(whole); // nothing confirmed is lost
          expect(await h.counted('s1')).toEqual(none); // nothing half-saved is counted
          if (at === 0) {
            // The journal itself could not be written: nothing of the session is anywhere, and nothing waits.
            expect(failed.journalFile).toBeNull();
            expect(failed.failedPath.startsWith(join(h.paths.journal, 's1.saving-'))).toBe(true);
            expect(failed.message).toBe(
              `Session s1 was not saved: cannot write ${failed.failedPath}: the disk is full (ENOSPC). Nothing of it was written (3 bias records, 2 contribution records, its history entry and its telemetry event); free some space, then save it again.`,
            );
            expect(await h.onDisk('s1')).toEqual(none);
            expect(readdirSync(h.paths.journal)).toEqual([]);
            return;
          }
          const failedFile = [h.paths.bias, h.paths.contributions, h.paths.history, h.paths.outbox][at - 1]!;
          expect(failed.journalFile).toBe(join(h.paths.journal, 's1.unsaved'));
          expect(failed.message).toBe(
            `Session s1 was not saved whole: cannot append to ${failedFile}: the disk is full (ENOSPC). 3 bias records, 2 contribution records, its history entry and its telemetry event wait in ${failed.journalFile}, left out of what readers count until saved; free some space, then complete it (completeUnsavedSessions).`,
          );
          // The parts before the failed one are on disk, hidden; the failed one was taken back; none after it was tried.
          const written = Object.fromEntries(Object.entries(whole).map(([k, n], i) => [k, i < at - 1 ? n : 0]));
          expect(await h.onDisk('s1')).toEqual(written);

          const done = await completeUnsavedSessions({ journal: h.paths.journal });
          expect(done.completed.map((c) => c.sessionId)).toEqual(['s1']);
          expect(done.completed[0]!.added.map((a) => a.lines)).toEqual(
            Object.values(whole).map((n, i) => (i < at - 1 ? 0 : n)),
          );
          expect(readdirSync(h.paths.journal)).toEqual([]);
          expect(await h.counted('s1')).toEqual(whole);
          expect(await h.counted('before')).toEqual(whole);
        });
      }
    }
  });

  describe.runIf(linux)('SIGKILL at every write of the session (a child process)', () => {
    const storeModule = new URL('./jsonl-store.ts', import.meta.url).pathname;
    for (const at of [0, 1, 2, 3, 4]) {
      it(`killed halfway through write ${at}: nothing half-saved is counted; completeUnsavedSessions makes it whole`, async () => {
        const dir = tempDir();
        const h = home(dir);
        await saveSessionWhole({ journal: h.paths.journal, sessionId: 'before', parts: h.parts('before') });
        const program = `
          import { injectWriteFaults } from ${JSON.stringify(new URL('./__fixtures__/write-faults.ts', import.meta.url).pathname)};
          import { createJsonlStore } from ${JSON.stringify(storeModule)};
          import { eventSchema } from ${JSON.stringify(new URL('./__fixtures__/event-schema.ts', import.meta.url).pathname)};
          import { prepareHistory } from ${JSON.stringify(new URL('./history-log.ts', import.meta.url).pathname)};
          import { saveSessionWhole } from ${JSON.stringify(new URL('./save-session-whole.ts', import.meta.url).pathname)};
          const [dir, at] = process.argv.slice(1);
          const store = (path) => createJsonlStore({ path, schema: eventSchema });
          const ev = (i) => ({ session: 's1', t: '2026-01-02T03:04:05Z', i });
          const entry = { schema_version: '1.0.0', council_version: 't', simulated: true, query_metadata: null, session: { sessionId: 's1', timestamp: '2026-01-02T03:04:05.000Z', stage1: [], stage2: [], leaderboard: [] } };
          const parts = [
            { what: '3 bias records', prepared: store(dir + '/bias_metrics.jsonl').prepare([ev(0), ev(1), ev(2)]) },
            { what: '2 contribution records', prepared: store(dir + '/contributions.jsonl').prepare([ev(0), ev(1)]) },
            { what: 'its history entry', prepared: prepareHistory(dir + '/history.jsonl', [entry]).prepared },
            { what: 'its telemetry event', prepared: store(dir + '/telemetry/outbox.jsonl').prepare([ev(0)]) },
          ];
          injectWriteFaults({ under: dir, at: Number(at), bytes: 30, fault: 'SIGKILL' });
          await saveSessionWhole({ journal: dir + '/journal', sessionId: 's1', parts });
          console.log('not killed');
        `;
        const child = spawnSync(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', program, dir, String(at)],
          { encoding: 'utf8', timeout: 30_000 },
        );
        expect(child.signal).toBe('SIGKILL');
        // Whatever the dead process left, no reader counts the session, and nothing confirmed before it is lost.
        expect(await h.counted('s1')).toEqual(none);
        expect(await h.counted('before')).toEqual(whole);
        expect([...(await unsavedSessionIds(h.paths.journal))]).toEqual(['s1']);
        const done = await completeUnsavedSessions({ journal: h.paths.journal });
        expect(readdirSync(h.paths.journal)).toEqual([]);
        if (at === 0) {
          // Killed while its journal was written: no file of the session was touched; the torn journal is discarded.
          expect(done).toMatchObject({ completed: [], discarded: 1 });
          expect(await h.onDisk('s1')).toEqual(none);
        } else {
          expect(done.completed.map((c) => c.sessionId)).toEqual(['s1']);
          expect(await h.counted('s1')).toEqual(whole);
        }
      }, 40_000);
    }
  });

  it('a journal of a live process is left alone; one given up is completed by one of two repairers at once, never twice', async () => {
    const h = home(tempDir());
    const parts = h.parts('gave-up');
    const lines = (p: SessionPart) => p.prepared.data.toString().trimEnd().split('\n');
    const text = journalText({
      sessionId: 'gave-up',
      createdAt: new Date().toISOString(),
      parts: parts.map((p) => ({
        what: p.what,
        path: p.prepared.path,
        segmentBytes: p.prepared.segmentBytes,
        lines: lines(p),
      })),
    });
    mkdirSync(h.paths.journal, { recursive: true });
    writeFileSync(join(h.paths.journal, journalFileName('gave-up', 'unsaved')), text);
    // This process's own `saving` journal: a save in progress.
    writeFileSync(
      join(h.paths.journal, journalFileName('in-progress', 'saving')),
      journalText({ sessionId: 'in-progress', createdAt: new Date().toISOString(), parts: [] }),
    );
    // One bias record and the history entry are already there (a save that died after them), so only the rest is added.
    const bias = lines(parts[0]!);
    const history = lines(parts[2]!);
    writeFileSync(h.paths.bias, `${bias[0]}\n`);
    writeFileSync(h.paths.history, `${history[0]}\n`);
    const [a, b] = await Promise.all([
      completeUnsavedSessions({ journal: h.paths.journal }),
      completeUnsavedSessions({ journal: h.paths.journal }),
    ]);
    expect([...a.completed, ...b.completed].map((c) => c.sessionId)).toEqual(['gave-up']);
    expect([...a.completed, ...b.completed][0]!.added.map((x) => x.lines)).toEqual([2, 2, 0, 1]);
    expect(a.busy).toEqual(['in-progress']);
    expect(await h.onDisk('gave-up')).toEqual(whole);
    expect([...(await unsavedSessionIds(h.paths.journal))]).toEqual(['in-progress']);
    expect(existsSync(join(h.paths.journal, journalFileName('gave-up', 'unsaved')))).toBe(false);
    expect(
      readFileSync(h.paths.bias, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(3);
  });
});
