import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectWriteFaults } from '@council/bias-store/test';
import type { TestServer } from '@council/providers/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';

// Issue 27 items 1 and 2, through the CLI: a full disk, a file-size limit, a crash and a special file at every write of
// a session. After each: nothing confirmed is lost, nothing half-saved is counted by the readers (history list,
// bias-report, contributions, the outbox), the user saw one clear message, and `council doctor --repair` makes the
// session whole, counted once.
const KEY = 'sk-faults';
const linux = process.platform === 'linux';
const MEMBERS = 'test/a,test/b,test/c';
let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: ['test/a', 'test/b', 'test/c'], apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});
const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Home {
  home: string;
  env: Record<string, string>;
  files: { bias: string; contributions: string; history: string; outbox: string; journal: string };
}

function newHome(): Home {
  const home = mkdtempSync(join(tmpdir(), 'council-faults-'));
  homes.push(home);
  return {
    home,
    // Consent 2 with real (test-server) members: a session writes bias records, contributions, history and an outbox event.
    env: {
      LLM_COUNCIL_HOME: home,
      OPENROUTER_BASE_URL: server.url,
      OPENROUTER_API_KEY: KEY,
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
      LLM_COUNCIL_BIAS_CONSENT: '2',
    },
    files: {
      bias: join(home, 'bias_metrics.jsonl'),
      contributions: join(home, 'contributions.jsonl'),
      history: join(home, 'history.jsonl'),
      outbox: join(home, 'telemetry', 'outbox.jsonl'),
      journal: join(home, 'journal'),
    },
  };
}

/** Runs the CLI in this process; a call still running after 20 s is a hang (a FIFO read), reported as such. */
async function council(h: Home, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const captured = captureIo();
  const done = runCli(argv, { version: '1.0.0', io: captured.io, env: h.env }).then((code) => ({
    code,
    out: captured.out(),
    err: captured.err(),
  }));
  const hang = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`council ${argv.join(' ')} still running after 20 s`)), 20_000).unref(),
  );
  return Promise.race([done, hang]);
}

async function ask(h: Home): Promise<{ code: number; out: string; err: string; sessionId: string }> {
  const r = await council(h, ['ask', 'Which sort is stable?', '--models', MEMBERS, '--json']);
  return { ...r, sessionId: (JSON.parse(r.out) as { sessionId: string }).sessionId };
}

/** The lines the user was told on stderr that come from Council's error reporting (`council: …`). */
const councilLines = (err: string) => err.split('\n').filter((l) => l.startsWith('council: '));

/** What each reader counts: sessions in the history, bias records and sessions in the report, contributions, queued events. */
async function counted(h: Home) {
  const history = await council(h, ['history', 'list', '--json']);
  const report = await council(h, ['bias-report', '--json']);
  const contributions = await council(h, ['contributions', '--json']);
  const telemetry = await council(h, ['telemetry', 'status', '--json']);
  for (const r of [history, report, contributions, telemetry]) expect(r.code, r.err).toBe(0);
  const doc = JSON.parse(report.out) as {
    input: { kept: number; duplicates: number };
    report: { window: { sessions: number } };
  };
  return {
    history: (JSON.parse(history.out) as { sessionId: string }[]).map((e) => e.sessionId).sort(),
    biasRecords: doc.input.kept,
    biasSessions: doc.report.window.sessions,
    duplicates: doc.input.duplicates,
    contributions: (JSON.parse(contributions.out) as { store: { records: number } }).store.records,
    queuedEvents: (JSON.parse(telemetry.out) as { pendingEvents: number }).pendingEvents,
  };
}

/** One whole session of the test council: 3 reviewers × 3 members shown = 9 bias records, 3 contributions, 1 event. */
const sessions = (ids: string[]) => ({
  history: [...ids].sort(),
  biasRecords: 9 * ids.length,
  biasSessions: ids.length,
  duplicates: 0,
  contributions: 3 * ids.length,
  queuedEvents: ids.length,
});

async function doctor(h: Home, repair = false): Promise<{ status: string; detail: string }> {
  const r = await council(h, ['doctor', '--offline', '--json', ...(repair ? ['--repair'] : [])]);
  const { status, detail } = (
    JSON.parse(r.out) as { checks: { check: string; status: string; detail: string }[] }
  ).checks.find((c) => c.check === 'sessions saved whole')!;
  return { status, detail };
}

const saveMessage = ({
  failed,
  journalFile,
  problem,
  fix,
}: {
  failed: string;
  journalFile: string;
  problem: string;
  fix: string;
}) =>
  `council: The session was not saved whole: cannot append to ${failed}: ${problem}. 9 bias records, 3 contribution records, its history entry and its telemetry event are kept in ${journalFile} and left out of the history and reports until saved; ${fix}, then run \`council doctor --repair\` to finish saving it.`;

// The writes of a session, in order: the journal, the bias records, the contributions, the history entry, the outbox event.
const writes = ['journal', 'bias', 'contributions', 'history', 'outbox'] as const;

describe.runIf(linux)('a full disk at every write of a session (injected short writes)', () => {
  for (const [at, slot] of writes.entries()) {
    for (const bytes of [0, 100]) {
      it(`write ${at} (${slot}) fails after ${bytes} bytes: one message saying what was and was not saved; nothing half-saved counted; doctor --repair makes it whole`, async () => {
        const h = newHome();
        const before = await ask(h);
        expect(before.code).toBe(0);
        const injected = injectWriteFaults({ under: h.home, at, bytes, fault: 'ENOSPC' });
        let failed;
        try {
          failed = await ask(h);
        } finally {
          injected.restore();
        }
        expect(failed.code).toBe(1);
        expect(failed.out).toContain('"synthesis"'); // the answer was given before the save
        expect(failed.err).not.toContain('Saved ');
        const lines = councilLines(failed.err);
        expect(lines).toHaveLength(1);
        if (slot === 'journal') {
          expect(lines[0]).toMatch(
            new RegExp(
              `^council: The session was not saved: cannot write ${h.files.journal}/${failed.sessionId}\\.saving-[0-9a-f]{12}-\\d+-[0-9a-z]+: the disk is full \\(ENOSPC\\)\\. Nothing of it was written to disk; free some space before the next session\\.$`,
            ),
          );
        } else {
          expect(lines[0]).toBe(
            saveMessage({
              failed: h.files[slot],
              journalFile: join(h.files.journal, `${failed.sessionId}.unsaved`),
              problem: 'the disk is full (ENOSPC)',
              fix: 'free some space',
            }),
          );
        }
        // Nothing confirmed lost, nothing half-saved counted.
        expect(await counted(h)).toEqual(sessions([before.sessionId]));
        if (slot === 'journal') {
          expect(await doctor(h)).toEqual({ status: 'ok', detail: 'every session is saved whole' });
          expect(readdirSync(h.files.journal)).toEqual([]);
          return;
        }
        expect(await doctor(h)).toMatchObject({
          status: 'warn',
          detail: expect.stringContaining(
            `1 session not saved whole (${failed.sessionId}: a save failed or was interrupted)`,
          ) as string,
        });
        expect(await doctor(h, true)).toEqual({
          status: 'ok',
          detail: `finished saving 1 session (${failed.sessionId}): now in the history and reports`,
        });
        expect(await counted(h)).toEqual(sessions([before.sessionId, failed.sessionId]));
        expect(await doctor(h)).toEqual({ status: 'ok', detail: 'every session is saved whole' });
      }, 60_000);
    }
  }
});

const runCliModule = fileURLToPath(new URL('./run-cli.ts', import.meta.url));
/**
 * `council ask` in a child process (with the fault shim, or under a file-size limit): its exit code or signal and its
 * output. Asynchronous: the test server that plays the council runs in this process, and must answer meanwhile.
 */
async function askInChild(
  h: Home,
  options: { fault?: object; ulimitBlocks?: number; uid?: number },
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const program = [
    "import { injectWriteFaults } from '@council/bias-store/test';",
    `import { runCli } from ${JSON.stringify(runCliModule)};`,
    'const fault = process.env.FAULT ? JSON.parse(process.env.FAULT) : null;',
    'if (fault !== null) injectWriteFaults(fault);',
    'const io = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };',
    `process.exitCode = await runCli(['ask', 'Which sort is stable?', '--models', ${JSON.stringify(MEMBERS)}], { version: '1.0.0', io, env: JSON.parse(process.env.COUNCIL_ENV) });`,
  ].join('\n');
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', program];
  const env = {
    ...process.env,
    COUNCIL_ENV: JSON.stringify(h.env),
    ...(options.fault === undefined ? {} : { FAULT: JSON.stringify(options.fault) }),
  };
  const quoted = node.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const cwd = fileURLToPath(new URL('..', import.meta.url));
  const child =
    options.ulimitBlocks === undefined
      ? spawn(node[0]!, node.slice(1), {
          env,
          cwd,
          stdio: ['ignore', 'pipe', 'pipe'],
          ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
        })
      : spawn('bash', ['-c', `ulimit -f ${options.ulimitBlocks} && exec ${quoted}`], {
          env,
          cwd,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    }),
  );
}

describe.runIf(linux)('SIGKILL between the files of one session (a child process)', () => {
  for (const [at, slot] of writes.entries()) {
    it(`killed in write ${at} (${slot}): nothing half-saved is counted; doctor --repair makes it whole (or finds nothing was written)`, async () => {
      const h = newHome();
      const before = await ask(h);
      const child = await askInChild(h, { fault: { under: h.home, at, bytes: 20, fault: 'SIGKILL' } });
      expect(child.signal).toBe('SIGKILL');
      expect(await counted(h)).toEqual(sessions([before.sessionId]));
      const left = readdirSync(h.files.journal);
      expect(left).toHaveLength(1);
      const killed = decodeURIComponent(left[0]!.slice(0, left[0]!.indexOf('.')));
      expect(await doctor(h)).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining(
          `1 session not saved whole (${killed}: a save failed or was interrupted)`,
        ) as string,
      });
      if (slot === 'journal') {
        expect(await doctor(h, true)).toEqual({
          status: 'ok',
          detail:
            'removed 1 journal file of a save stopped before it wrote anything (nothing of that session was on disk)',
        });
        expect(await counted(h)).toEqual(sessions([before.sessionId]));
      } else {
        expect(await doctor(h, true)).toEqual({
          status: 'ok',
          detail: `finished saving 1 session (${killed}): now in the history and reports`,
        });
        expect(await counted(h)).toEqual(sessions([before.sessionId, killed]));
      }
      expect(readdirSync(h.files.journal)).toEqual([]);
    }, 90_000);
  }
});

describe.runIf(linux)('a file-size limit (ulimit -f) reached by the history log', () => {
  it('the history append fails with EFBIG: one message, the session left out everywhere, and saved whole by doctor --repair once the limit is gone', async () => {
    const h = newHome();
    const before = await ask(h);
    // A valid filler entry brings the history to 100 bytes under 64 KiB: the next entry crosses the limit of a
    // process started with `ulimit -f 64`, while the other files of a session (a few KiB each) stay far below it.
    const limit = 64 * 1024;
    const size = readFileSync(h.files.history).length;
    const first = JSON.parse(readFileSync(h.files.history, 'utf8')) as { session: { sessionId: string } };
    const filler = (pad: string) =>
      `${JSON.stringify({ ...first, session: { ...first.session, sessionId: 'filler' }, pad })}\n`;
    const padLength = limit - 100 - size - filler('').length;
    writeFileSync(h.files.history, filler('x'.repeat(padLength)), { flag: 'a' });
    expect(readFileSync(h.files.history).length).toBe(limit - 100);
    const child = await askInChild(h, { ulimitBlocks: 64 });
    expect(child.status, child.stderr).toBe(1);
    const lines = councilLines(child.stderr);
    expect(lines).toHaveLength(1);
    const journalFile = readdirSync(h.files.journal);
    expect(journalFile).toHaveLength(1);
    expect(lines[0]).toBe(
      saveMessage({
        failed: h.files.history,
        journalFile: join(h.files.journal, journalFile[0]!),
        problem: 'the file reached the largest size this process may write (a file-size limit, ulimit -f) (EFBIG)',
        fix: 'raise the limit or choose another path',
      }),
    );
    const session = journalFile[0]!.replace(/\.unsaved$/, '');
    // The cut entry was taken back: the history's bytes are what they were (the log closed as a segment to do it safely).
    const historyFiles = readdirSync(h.home)
      .filter((n) => /^history(\.\d{6})?\.jsonl$/.test(n))
      .sort();
    expect(historyFiles).toEqual(['history.000001.jsonl', 'history.jsonl']);
    expect(Buffer.concat(historyFiles.map((n) => readFileSync(join(h.home, n)))).length).toBe(limit - 100);
    expect(await counted(h)).toEqual({ ...sessions([before.sessionId]), history: [before.sessionId, 'filler'].sort() });
    expect(await doctor(h, true)).toEqual({
      status: 'ok',
      detail: `finished saving 1 session (${session}): now in the history and reports`,
    });
    expect(await counted(h)).toEqual({
      ...sessions([before.sessionId, session]),
      history: [before.sessionId, 'filler', session].sort(),
    });
  }, 90_000);
});

describe.runIf(linux)('a read-only home (EACCES)', () => {
  it('the session is answered, one message says nothing was saved and what to do, and the home is as it was', async () => {
    const h = newHome();
    const before = await ask(h);
    const { chmodSync } = await import('node:fs');
    const root = process.getuid?.() === 0;
    // root ignores permissions: the child runs as nobody (65534) in root's home; otherwise the home is made read-only.
    if (!root) for (const dir of [h.home, h.files.journal]) chmodSync(dir, 0o555);
    else chmodSync(h.home, 0o755); // nobody may read the home (its journal stays root's 0700: not writable for nobody)
    const child = await askInChild(h, root ? { uid: 65534 } : {});
    if (!root) for (const dir of [h.home, h.files.journal]) chmodSync(dir, 0o700);
    expect(child.status, child.stderr).toBe(1);
    expect(child.stdout).toContain('Synthesised from');
    const lines = councilLines(child.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^council: The session was not saved: cannot write ${h.files.journal}/[0-9a-f-]+\\.saving-[0-9a-f]{12}-\\d+-[0-9a-z]+: permission denied \\(EACCES\\)\\. Nothing of it was written to disk; make it \\(and its directory\\) writable by this user, or choose another path before the next session\\.$`,
      ),
    );
    expect(await counted(h)).toEqual(sessions([before.sessionId]));
    expect(readdirSync(h.files.journal)).toEqual([]);
  }, 90_000);
});

describe.runIf(linux)('a FIFO, a directory, a symbolic link and a device in every file slot', () => {
  const kinds = {
    fifo: {
      make: (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0),
      says: 'it is a FIFO (named pipe), not a regular file',
    },
    directory: { make: (path: string) => mkdirSync(path), says: 'it is a directory' },
    'link to a file': {
      make: (path: string) => symlinkSync(join(path, '..', 'elsewhere.txt'), path),
      says: 'it is a symbolic link',
    },
    'link to /dev/null': {
      make: (path: string) => symlinkSync('/dev/null', path),
      says: 'it is a symbolic link (to /dev/null)',
    },
  };
  for (const [kind, { make, says }] of Object.entries(kinds)) {
    for (const slot of ['bias', 'contributions', 'history', 'outbox'] as const) {
      it(`${kind} as the ${slot} file: ask answers, says in one line that the session is not saved and why, and nothing of it is counted`, async () => {
        const h = newHome();
        const before = await ask(h);
        writeFileSync(join(h.home, 'elsewhere.txt'), 'a file of the user\n');
        const original = readFileSync(h.files[slot]);
        rmSync(h.files[slot]);
        make(h.files[slot]);
        const failed = await ask(h);
        expect(failed.code).toBe(1);
        const lines = councilLines(failed.err);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(
          `council: The session was not saved whole: cannot append to ${h.files[slot]}: ${says}`,
        );
        expect(lines[0]).toContain(
          `are kept in ${join(h.files.journal, `${failed.sessionId}.unsaved`)} and left out of the history and reports until saved;`,
        );
        expect(readFileSync(join(h.home, 'elsewhere.txt'), 'utf8')).toBe('a file of the user\n');
        // Put the file back: the readers count the earlier session alone, and the repair makes the new one whole.
        rmSync(h.files[slot], { recursive: true });
        writeFileSync(h.files[slot], original);
        expect(await counted(h)).toEqual(sessions([before.sessionId]));
        expect((await doctor(h, true)).status).toBe('ok');
        expect(await counted(h)).toEqual(sessions([before.sessionId, failed.sessionId]));
      }, 60_000);
    }
    it(`${kind} where the journal directory belongs: nothing of the session is written, and the message says so`, async () => {
      const h = newHome();
      const before = await ask(h);
      writeFileSync(join(h.home, 'elsewhere.txt'), 'a file of the user\n');
      rmSync(h.files.journal, { recursive: true }); // left empty by the first session
      make(h.files.journal);
      const failed = await ask(h);
      if (kind === 'directory') {
        expect(failed.code).toBe(0); // a directory is what belongs there
        return;
      }
      expect(failed.code).toBe(1);
      const lines = councilLines(failed.err);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^council: The session was not saved: cannot create the directory ${h.files.journal}: .* is in the way \\(EEXIST\\)\\. Nothing of it was written to disk; move it away, or choose another path before the next session\\.$`,
        ),
      );
      rmSync(h.files.journal);
      expect(await counted(h)).toEqual(sessions([before.sessionId]));
    }, 60_000);
  }

  for (const [slot, relative] of [
    ['config.yaml', 'config.yaml'],
    ['a personality', join('personalities', 'sage.yaml')],
  ] as const) {
    it(`a FIFO, a directory and a link to /dev/null as ${slot}: refused at once with the file named, exit 2, nothing saved`, async () => {
      for (const [kind, make, says] of [
        ['fifo', kinds.fifo.make, 'it is a FIFO (named pipe), not a regular file'],
        ['directory', kinds.directory.make, 'it is a directory, not a regular file'],
        ['device', kinds['link to /dev/null'].make, 'it is a character device, not a regular file'],
      ] as const) {
        const h = newHome();
        const path = join(h.home, relative);
        mkdirSync(join(path, '..'), { recursive: true });
        make(path);
        const r = await council(h, ['ask', 'Which sort is stable?', '--models', MEMBERS]);
        expect(r.code, kind).toBe(2);
        expect(councilLines(r.err), kind).toEqual([
          `council: ${path}: ${says}; Council reads its configuration only from regular files: remove it, or put a YAML file there.`,
        ]);
        rmSync(path, { recursive: true });
        expect((await council(h, ['history', 'list', '--json'])).out.trim()).toBe('[]');
      }
    }, 60_000);
  }
});
