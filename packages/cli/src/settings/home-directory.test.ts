import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

async function run(argv: string[], env: Record<string, string>) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

function aFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'council-home-file-')), 'not-a-dir');
  writeFileSync(file, 'x');
  return file;
}

describe('a home that is a file (issue 15 item 12)', () => {
  it('LLM_COUNCIL_HOME naming a file says so, before anything runs', async () => {
    const file = aFile();
    const r = await run(['ask', 'q', '--models', 'simulated:ada,simulated:basil,simulated:cleo'], {
      LLM_COUNCIL_HOME: file,
    });
    expect(r).toEqual({
      code: 2,
      out: '',
      err: `council: LLM_COUNCIL_HOME ${file} is not valid: it is a file, not a directory. Point it at a directory (Council creates one that is missing).\n`,
    });
    expect(r.err).not.toContain('permissions');
  });

  it('--home under a file names the file in the way', async () => {
    const file = aFile();
    const r = await run(['history', 'list', '--home', join(file, 'home')], {});
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `council: --home ${join(file, 'home')} is not valid: ${file} is a file, not a directory. Point it at a directory (Council creates one that is missing).\n`,
    );
  });

  it('a home that does not exist yet is fine', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'council-home-new-')), 'a', 'b');
    expect(await run(['config', 'path'], { LLM_COUNCIL_HOME: home })).toEqual({ code: 0, out: `${home}\n`, err: '' });
  });
});

describe('telemetry status says how to turn telemetry on or off, whichever it is (issue 15 item 12)', () => {
  it('at consent 1 it is off and says how to turn it on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-text-'));
    const r = await run(['telemetry', 'status'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '1' });
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      '\nTelemetry is off: nothing is sent below consent level 2. Turn it on: LLM_COUNCIL_BIAS_CONSENT=2 (rankings only).\n',
    );
    expect(r.out).not.toContain('Turn it off');
  });

  it('at consent 2 it is on and says how to turn it off', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-telemetry-text-'));
    const r = await run(['telemetry', 'status'], { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_CONSENT: '2' });
    expect(r.out).toContain('Turn it off: LLM_COUNCIL_BIAS_CONSENT=1 (bias records kept on this machine only).\n');
  });
});
