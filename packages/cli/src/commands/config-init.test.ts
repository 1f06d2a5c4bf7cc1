import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

async function run(argv: string[], home: string) {
  const c = captureIo();
  const code = await runCli(argv, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: tmpdir() });
  return { code, out: c.out(), err: c.err() };
}

describe('council config init (issue 15 item 12)', () => {
  it('writes a commented config.yaml (0600) that changes nothing until a line is uncommented', async () => {
    const home = join(mkdtempSync(join(tmpdir(), 'council-init-')), 'home');
    const r = await run(['config', 'init'], home);
    expect(r.code).toBe(0);
    const path = join(home, 'config.yaml');
    expect(r.out).toBe(`Wrote ${path}: every key commented out, with its default. Uncomment what you want to change, then check it with council config show.\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    // Every line is a comment or blank.
    expect(text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))).toEqual([]);
    for (const key of ['members', 'chairman', 'pools', 'strategy', 'mode', 'order', 'quorum', 'retries', 'max_cost_usd', 'max_reply_bytes', 'timeouts', 'bias_audit', 'exclude_self_votes', 'self_review']) {
      expect(text).toContain(`# ${key}:`);
    }
    const shown = await run(['config', 'show', '--json'], home);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({ council: { strategy: 'balanced', mode: 'consensus', order: 'latin-square', quorum: 2 } });
  });

  it('every example line, uncommented, is valid configuration with the stated defaults', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-init-'));
    expect((await run(['config', 'init'], home)).code).toBe(0);
    const path = join(home, 'config.yaml');
    const uncommented = readFileSync(path, 'utf8').replace(/^# ( *[a-z0-9_-]+:(?: |$))/gm, '$1');
    writeFileSync(path, uncommented);
    const shown = await run(['config', 'show', '--json'], home);
    expect(shown.err).toBe('');
    expect(JSON.parse(shown.out)).toMatchObject({
      council: { strategy: 'balanced', mode: 'consensus', order: 'latin-square', quorum: 2, strategies: ['balanced', 'compliance-first', 'goal-seeking', 'novelty', 'risk-averse'] },
    });
  });

  it('never overwrites an existing config.yaml', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-init-'));
    const path = join(home, 'config.yaml');
    writeFileSync(path, 'strategy: novelty\n');
    expect(await run(['config', 'init'], home)).toEqual({
      code: 1,
      out: '',
      err: `council: ${path} already exists; nothing was overwritten. Edit it, or move it away and run council config init again.\n`,
    });
    expect(readFileSync(path, 'utf8')).toBe('strategy: novelty\n');
  });
});
