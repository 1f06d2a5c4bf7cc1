import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { captureIo } from './testing/capture-io.js';
import { writePlantedStore } from './testing/write-bias-records.js';

// Issue 27 item 3: a file Council writes for the user replaces nothing but a regular file the user named — never one
// of Council's own files in the home, never a device, a FIFO or a directory — through a temporary file, mode 0600.
const linux = process.platform === 'linux';
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), 'council-output-'));
  made.push(dir);
  return dir;
}

/** A home with a bias store of 3 planted sessions (48 records), a history, a configuration and a personality. */
async function home(): Promise<{ home: string; env: Record<string, string>; store: string; elsewhere: string }> {
  const dir = fresh();
  const h = join(dir, 'home');
  await writePlantedStore(join(h, 'bias_metrics.jsonl'), { sessions: 3 });
  writeFileSync(join(h, 'history.jsonl'), '');
  writeFileSync(join(h, 'config.yaml'), 'strategy: novelty\n');
  mkdirSync(join(h, 'personalities'));
  writeFileSync(
    join(h, 'personalities', 'sage.yaml'),
    'id: sage\nname: Sage\nmodel: test/a\nsystem_prompt: Be wise.\n',
  );
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  return { home: h, env: { LLM_COUNCIL_HOME: h }, store: join(h, 'bias_metrics.jsonl'), elsewhere };
}

async function council(argv: string[], env: Record<string, string>, cwd: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd });
  return { code, out: c.out(), err: c.err() };
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const report = (output: string, env: Record<string, string>, cwd: string) =>
  council(['bias-report', '--now', '2026-11-05T00:00:00Z', '--format', 'json', '--output', output], env, cwd);

describe("bias-report --output never writes over Council's own files", () => {
  it('the bias store, its segment names, the history, the configuration, a personality, the outbox: refused (exit 2), each file untouched', async () => {
    const h = await home();
    const before = {
      store: sha(h.store),
      history: sha(join(h.home, 'history.jsonl')),
      config: sha(join(h.home, 'config.yaml')),
    };
    const targets: [string, string][] = [
      [h.store, `Council's bias store (${h.store})`],
      [join(h.home, 'bias_metrics.000001.jsonl'), `Council's bias store (${h.store})`],
      [join(h.home, 'history.jsonl'), `Council's history log (${join(h.home, 'history.jsonl')})`],
      [join(h.home, 'contributions.jsonl'), `Council's contribution store (${join(h.home, 'contributions.jsonl')})`],
      [
        join(h.home, 'telemetry', 'outbox.jsonl'),
        `Council's telemetry outbox (${join(h.home, 'telemetry', 'outbox.jsonl')})`,
      ],
      [join(h.home, 'config.yaml'), `Council's configuration (${join(h.home, 'config.yaml')})`],
      [
        join(h.home, 'personalities', 'sage.yaml'),
        `a personality file of Council (${join(h.home, 'personalities', 'sage.yaml')})`,
      ],
      [join(h.home, 'journal', 'x.unsaved'), `Council's session journal (${join(h.home, 'journal', 'x.unsaved')})`],
    ];
    for (const [target, what] of targets) {
      const r = await report(target, h.env, h.elsewhere);
      expect(r.code, target).toBe(2);
      expect(r.err).toBe(
        `council: --output ${target}: it is ${what}, and Council never writes over its own files; choose another file name.\n`,
      );
    }
    expect({
      store: sha(h.store),
      history: sha(join(h.home, 'history.jsonl')),
      config: sha(join(h.home, 'config.yaml')),
    }).toEqual(before);
    expect(readdirSync(h.home).sort()).toEqual(['bias_metrics.jsonl', 'config.yaml', 'history.jsonl', 'personalities']);
    // The store still holds its 3 sessions.
    const read = await council(['bias-report', '--now', '2026-11-05T00:00:00Z', '--json'], h.env, h.elsewhere);
    expect((JSON.parse(read.out) as { input: { records: number } }).input.records).toBe(48);
  });

  it('another name of the store — a hard link, a symbolic link, a path through a linked directory — is the store, and refused', async () => {
    const h = await home();
    const before = sha(h.store);
    const hard = join(h.elsewhere, 'report.json');
    linkSync(h.store, hard);
    const soft = join(h.elsewhere, 'soft.json');
    symlinkSync(h.store, soft);
    const viaDirectory = join(h.elsewhere, 'home-link');
    symlinkSync(h.home, viaDirectory);
    for (const [target, shown] of [
      [hard, h.store], // the same inode as the store's file
      [soft, h.store],
      [join(viaDirectory, 'history.jsonl'), join(h.home, 'history.jsonl')],
    ] as const) {
      const r = await report(target, h.env, h.elsewhere);
      expect(r.code, target).toBe(2);
      expect(r.err).toContain(`council: --output ${target}: it is Council's`);
      expect(r.err).toContain(`(${shown})`);
    }
    expect(sha(h.store)).toBe(before);
    expect(statSync(hard).nlink).toBe(2);
  });
});

describe('bias-report --output replaces only a regular file', () => {
  it('a directory, a FIFO and a link to /dev/null: refused, before the report is computed, and left as they were', async () => {
    const h = await home();
    const dir = join(h.elsewhere, 'a-directory');
    mkdirSync(dir);
    const cases: [string, string][] = [
      [
        dir,
        'it is a directory, not a regular file; give the name of a file inside it, or leave --output out to print the report',
      ],
    ];
    const fifo = join(h.elsewhere, 'a-fifo');
    if (linux) {
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      cases.push([
        fifo,
        'it is a FIFO (named pipe), not a regular file; give the name of a regular file, or leave --output out to print the report',
      ]);
    }
    const devnull = join(h.elsewhere, 'null-link');
    symlinkSync('/dev/null', devnull);
    cases.push([
      devnull,
      'it is a character device (/dev/null), not a regular file; give the name of a regular file, or leave --output out to print the report',
    ]);
    for (const [target, why] of cases) {
      const r = await report(target, h.env, h.elsewhere);
      expect(r.code, target).toBe(2);
      expect(r.err).toBe(`council: --output ${target}: ${why}.\n`);
    }
    expect(statSync(dir).isDirectory()).toBe(true);
    if (linux) expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readlinkSync(devnull)).toBe('/dev/null');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync(h.elsewhere).sort()).toEqual(
      linux ? ['a-directory', 'a-fifo', 'null-link'] : ['a-directory', 'null-link'],
    );
  }, 60_000);

  it.runIf(linux && process.getuid?.() === 0)(
    'a device node (as root, made with mknod): refused, and still a device',
    async () => {
      const h = await home();
      const device = join(h.elsewhere, 'full');
      expect(spawnSync('mknod', [device, 'c', '1', '7']).status).toBe(0); // /dev/full's numbers
      const r = await report(device, h.env, h.elsewhere);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `council: --output ${device}: it is a character device, not a regular file; give the name of a regular file, or leave --output out to print the report.\n`,
      );
      expect(statSync(device).isCharacterDevice()).toBe(true);
    },
    60_000,
  );

  it('a new file and an existing regular file are written whole, mode 0600, with no temporary file left; a link to a file writes the file and keeps the link', async () => {
    const h = await home();
    const fresh = join(h.elsewhere, 'new', 'report.json');
    expect((await report(fresh, h.env, h.elsewhere)).code).toBe(0);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    expect((JSON.parse(readFileSync(fresh, 'utf8')) as { kind: string }).kind).toBe('council-bias-report');
    const existing = join(h.elsewhere, 'old.json');
    writeFileSync(existing, 'an old report', { mode: 0o644 });
    expect((await report(existing, h.env, h.elsewhere)).code).toBe(0);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    expect(readFileSync(existing, 'utf8')).toContain('"council-bias-report"');
    const link = join(h.elsewhere, 'latest.json');
    symlinkSync(existing, link);
    writeFileSync(existing, 'stale');
    expect((await report(link, h.env, h.elsewhere)).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(existing, 'utf8')).toContain('"council-bias-report"');
    expect(readdirSync(h.elsewhere).sort()).toEqual(['latest.json', 'new', 'old.json']);
    expect(readdirSync(join(h.elsewhere, 'new'))).toEqual(['report.json']);
  });
});

describe('the other files Council writes for the user', () => {
  it('batch --output: the history log or a FIFO refused before any session runs', async () => {
    const h = await home();
    const prompts = join(h.elsewhere, 'prompts.txt');
    writeFileSync(prompts, 'What is a stable sort?\n');
    const history = join(h.home, 'history.jsonl');
    const r = await council(
      ['batch', prompts, '--models', 'simulated:ada,simulated:basil,simulated:cleo', '--output', history],
      h.env,
      h.elsewhere,
    );
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `council: --output ${history}: it is Council's history log (${history}), and Council never writes over its own files; choose another file name.\n`,
    );
    expect(readFileSync(history, 'utf8')).toBe('');
    if (linux) {
      const fifo = join(h.elsewhere, 'results.fifo');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const f = await council(
        ['batch', prompts, '--models', 'simulated:ada,simulated:basil,simulated:cleo', '--output', fifo],
        h.env,
        h.elsewhere,
      );
      expect(f.code).toBe(2);
      expect(f.err).toBe(
        `council: --output ${fifo}: it is a FIFO (named pipe), not a regular file; give the name of a regular file, or leave --output out to write <file>.results.jsonl.\n`,
      );
    }
  }, 60_000);

  it.runIf(linux)(
    'demo: a FIFO where its bias-report.html goes is refused before any session runs, and nothing is saved',
    async () => {
      const dir = fresh();
      const h = join(dir, 'demo-home');
      mkdirSync(h);
      const html = join(h, 'bias-report.html');
      expect(spawnSync('mkfifo', [html]).status).toBe(0);
      const r = await council(['demo', '--home', h, '--sessions', '10'], {}, dir);
      expect(r.code).toBe(2);
      expect(r.err).toBe(
        `council: The demo report ${html}: it is a FIFO (named pipe), not a regular file; give the name of a regular file, or move it away and run council demo again.\n`,
      );
      expect(readdirSync(h)).toEqual(['bias-report.html']);
      expect(lstatSync(html).isFIFO()).toBe(true);
    },
    60_000,
  );

  it('store export --output: a file, or the home itself, refused; the store untouched', async () => {
    const h = await home();
    const before = sha(h.store);
    const file = join(h.elsewhere, 'a-file');
    writeFileSync(file, 'mine');
    const asFile = await council(['store', 'export', '--format', 'jsonl', '--output', file], h.env, h.elsewhere);
    expect(asFile.code).toBe(2);
    expect(asFile.err).toBe(
      `council: --output ${file}: it is a file, and --output names a directory to write the partitions into; choose a directory.\n`,
    );
    const intoHome = await council(['store', 'export', '--format', 'jsonl', '--output', h.home], h.env, h.elsewhere);
    expect(intoHome.code).toBe(2);
    expect(intoHome.err).toBe(
      `council: --output ${h.home}: it is Council's home (${h.home}), whose readers would take the exported files for Council's own; choose a directory of its own.\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine');
    expect(sha(h.store)).toBe(before);
    expect(existsSync(join(h.home, 'day=2026-11-01'))).toBe(false);
  });
});

describe('a symbolically linked bias store', () => {
  it('is followed when LLM_COUNCIL_BIAS_STORE names it: records go to the file it points to, and reports read them', async () => {
    const dir = fresh();
    const real = join(dir, 'shared', 'team.jsonl');
    mkdirSync(join(dir, 'shared'));
    const link = join(dir, 'my-store.jsonl');
    symlinkSync(real, link); // to a file not created yet
    const env = {
      LLM_COUNCIL_HOME: join(dir, 'home'),
      LLM_COUNCIL_BIAS_STORE: link,
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    };
    const r = await council(
      ['ask', 'Which sort is stable?', '--models', 'simulated:ada,simulated:basil,simulated:cleo'],
      env,
      dir,
    );
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8').trimEnd().split('\n')).toHaveLength(9); // 3 reviewers × 3 members shown
    const read = await council(['bias-report', '--json'], env, dir);
    expect((JSON.parse(read.out) as { input: { records: number } }).input.records).toBe(9);
  });

  it('is refused at the default path, which the user did not name: one message, nothing written through the link', async () => {
    const dir = fresh();
    const target = join(dir, 'somewhere.jsonl');
    writeFileSync(target, '');
    mkdirSync(join(dir, 'home'));
    const store = join(dir, 'home', 'bias_metrics.jsonl');
    symlinkSync(target, store);
    const env = { LLM_COUNCIL_HOME: join(dir, 'home'), LLM_COUNCIL_BIAS_PERSISTENCE: 'true' };
    const r = await council(
      ['ask', 'Which sort is stable?', '--models', 'simulated:ada,simulated:basil,simulated:cleo'],
      env,
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `council: The session was not saved whole: cannot append to ${store}: it is a symbolic link (to ${target}) (ENOTREG).`,
    );
    expect(readFileSync(target, 'utf8')).toBe('');
  });
});
