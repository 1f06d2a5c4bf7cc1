import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

// Issue 30 item 14: the demo's progress (stderr) landed in the middle of its results (stdout) when only stderr was a
// terminal (`council demo | tee demo.txt`), and it ended "Done in 0.7 s" after a run whose set-up took minutes.
describe('council demo with stdout in a pipe and stderr on a terminal', () => {
  it('writes one line of progress, no per-call lines, and says what its time counts', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-demo-streams-'));
    const c = captureIo();
    const io = { ...c.io, stderrIsTTY: true, stdoutIsTTY: false };
    const code = await runCli(['demo', '--home', home, '--sessions', '10'], {
      version: '1.0.0',
      io,
      env: {},
      cwd: tmpdir(),
    });
    expect(code).toBe(0);
    expect(c.err()).toContain(
      'Running session 1 (simulated; its progress lines are left out while stdout is not a terminal)…',
    );
    expect(c.err()).not.toMatch(/stage 1 \(answers\)|answered \(|reviewed \(/);
    expect(c.out()).toContain('── Session 1: a full council on the simulated provider ──');
    expect(c.out()).toMatch(/The demo ran in \d+\.\d s \(building Council, when npm start did, is not counted\)\./);
  }, 60_000);

  it('keeps its progress lines on stderr when both streams go to the same kind of place (a log)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-demo-streams-log-'));
    const c = captureIo();
    const code = await runCli(['demo', '--home', home, '--sessions', '10'], {
      version: '1.0.0',
      io: c.io,
      env: {},
      cwd: tmpdir(),
    });
    expect(code).toBe(0);
    expect(c.err()).toContain('stage 1 (answers): 5 calls started');
  }, 60_000);
});
