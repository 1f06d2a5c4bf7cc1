import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

describe('a jury names a reviewer the bias store has flagged beside its vote', () => {
  it('after council demo (dmitri is built to grade harshly), dmitri’s vote carries "harsh reviewer"', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-jury-flags-'));
    const run = async (args: string[]) => {
      const c = captureIo();
      const code = await runCli([...args, '--home', home], { version: '1.2.3', io: c.io, env: {}, cwd: home });
      return { code, out: c.out(), err: c.err() };
    };
    // The demo stores 41 simulated sessions in this home: past the report's minimum, with dmitri's harshness in them.
    expect((await run(['demo', '--sessions', '40', '--json'])).code).toBe(0);
    const r = await run([
      'ask',
      'Should we merge the retry change?',
      '--models',
      'simulated:ada,simulated:basil,simulated:dmitri',
      '--verdict',
      'binary',
      '--no-persist',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const votes = (JSON.parse(r.out) as { verdict: { votes: { member: string; reviewerFlags: string[] }[] } }).verdict
      .votes;
    const flags = Object.fromEntries(votes.map((v) => [v.member, v.reviewerFlags]));
    expect(flags['simulated:dmitri']).toContain('harsh reviewer');
    expect(flags['simulated:basil']).not.toContain('harsh reviewer');
  }, 120_000);
});
