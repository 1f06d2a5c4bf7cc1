import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const bundle = fileURLToPath(new URL('../dist/council.js', import.meta.url));
const SIM = 'simulated:ada,simulated:basil,simulated:cleo';
let home = '';

/** Runs the bundled executable with a clean environment: no keys, no colour forcing, this home. */
function council(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: home, ...env },
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'council-bundle-'));
  const r = council(['demo', '--home', home]);
  expect(r.code).toBe(0);
}, 60_000);

describe('every command through the bundled executable', () => {
  it('demo printed a simulated session and the report, with no escape codes into a pipe', () => {
    // Re-run into a second home to look at the output itself.
    const r = council(['demo', '--home', mkdtempSync(join(tmpdir(), 'council-bundle-demo-'))]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Council bias report [simulated data]');
    expect(r.out + r.err).not.toContain('\u001b[');
  }, 60_000);

  it("bias-report --format json prints one document over the demo's 41 sessions", () => {
    const r = council(['bias-report', '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { report: { window: { sessions: number } }; simulated: boolean };
    expect(doc.report.window.sessions).toBe(41);
    expect(doc.simulated).toBe(true);
  }, 60_000);

  it("history, leaderboard and feedback read the demo's history", () => {
    const list = council(['history', 'list', '--json']);
    const sessions = JSON.parse(list.out) as { sessionId: string }[];
    expect(sessions).toHaveLength(20);
    const show = council(['history', 'show', sessions[0]!.sessionId.slice(0, 12)]);
    expect(show.code).toBe(0);
    expect(show.out).toContain(`Session ${sessions[0]!.sessionId}`);
    const board = council(['leaderboard', '--json']);
    expect((JSON.parse(board.out) as { sessions: number }).sessions).toBe(41);
    const fb = council(['feedback', 'simulated:ada', '--json']);
    expect(fb.code).toBe(0);
    expect((JSON.parse(fb.out) as { reviews: number }).reviews).toBeGreaterThan(0);
  }, 60_000);

  it('under node --jitless (no WebAssembly) bias-report says what is missing and what to do, without a stack trace', () => {
    const result = spawnSync(process.execPath, ['--jitless', bundle, 'bias-report', '--format', 'json'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: home },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('runs without WebAssembly');
    expect(result.stderr).toContain('start node without --jitless');
    expect(result.stderr).not.toMatch(/Cannot read properties|\n\s+at /);
  }, 60_000);

  it('ask runs a simulated council and --json never mixes in anything else', () => {
    const r = council(['ask', 'Which queue should we use?', '--models', SIM, '--json', '--no-persist']);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.out) as object)[0]).toBe('sessionId');
  }, 60_000);

  it('batch runs a prompts file and resumes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-bundle-batch-'));
    writeFileSync(join(dir, 'p.txt'), 'One?\nTwo?\n');
    const first = spawnSync(process.execPath, [bundle, 'batch', 'p.txt', '--models', SIM], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: join(dir, 'home') },
    });
    expect(first.status).toBe(0);
    expect(readFileSync(join(dir, 'p.txt.results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const again = spawnSync(process.execPath, [bundle, 'batch', 'p.txt', '--models', SIM, '--resume'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', LLM_COUNCIL_HOME: join(dir, 'home') },
    });
    expect(again.stderr).toContain('Batch: 2 prompts, 2 already done, 0 to run');
  }, 60_000);

  it('personalities lists the YAML files', () => {
    mkdirSync(join(home, 'personalities'), { recursive: true });
    writeFileSync(
      join(home, 'personalities', 'careful.yaml'),
      'id: careful\nname: Careful\nmodel: simulated:ada\nsystem_prompt: Be careful.\n',
    );
    const r = council(['personalities', 'list']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/careful +│ Careful +│ simulated:ada/);
  }, 60_000);

  it('telemetry status, preview, and upload through the bundled uploader', () => {
    const status = council(['telemetry', 'status', '--json']);
    expect(JSON.parse(status.out)).toMatchObject({ consentLevel: 1, sends: false, pendingEvents: 0 });
    expect(JSON.parse(council(['telemetry', 'preview']).out)).toEqual({ events: [] });
    // No cloud configured: the uploader itself answers, as a usage/configuration error or a no-op.
    const upload = council(['telemetry', 'upload', '--dry-run']);
    expect(upload.err).not.toContain('not available in this build');
    expect([0, 1, 2]).toContain(upload.code);
  }, 60_000);

  it('the live display draws in a pseudo-terminal and is absent in a pipe', () => {
    const demoHome = mkdtempSync(join(tmpdir(), 'council-pty-'));
    // util-linux `script` gives the command a pseudo-terminal on both streams.
    const tty = execFileSync(
      'script',
      ['-qfec', `${process.execPath} ${bundle} demo --sessions 10 --home ${demoHome}`, '/dev/null'],
      {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '', TERM: 'xterm' },
        timeout: 60_000,
      },
    );
    expect(tty).toContain('\u001b[?25l'); // cursor hidden while drawing
    // eslint-disable-next-line no-control-regex
    const plain = tty.replace(/\u001b\[[0-9;]*m/g, ''); // colours are on in a terminal
    expect(plain).toMatch(/Council · simulated · stage [123]: (answers|reviews|synthesis) · \d+\.\ds · [\d,]+ tokens/);
    expect(plain).toMatch(/simulated:ada +✓ \d+\.\ds/);
    // eslint-disable-next-line no-control-regex
    expect(tty).toMatch(/\u001b\[\d+A\r\u001b\[J/); // redrawn in place
    expect(tty).toContain('\u001b[?25h'); // and shown again
    expect(plain).toMatch(/\[#+-*\] \d+\/10 simulated sessions/);
    const piped = council(['demo', '--sessions', '10', '--home', mkdtempSync(join(tmpdir(), 'council-pipe-'))]);
    expect(piped.err).not.toMatch(/Council · simulated · stage/);
    expect(piped.err + piped.out).not.toContain('\u001b[');
  }, 60_000);

  it('doctor and config work without any key', () => {
    expect(council(['doctor', '--offline']).code).toBe(0);
    expect(council(['config', 'path']).out).toBe(`${home}\n`);
  }, 60_000);
});
