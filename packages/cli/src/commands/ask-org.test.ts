import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';

const MEMBERS = 'simulated:ada,simulated:basil,simulated:cleo';

/** `ask --json` in a fresh home whose organization `acme` switches the mode to voting (the default is consensus). */
async function ask(args: string[], env: Record<string, string>) {
  const home = mkdtempSync(join(tmpdir(), 'council-org-'));
  mkdirSync(join(home, 'organizations', 'acme', 'config'), { recursive: true });
  writeFileSync(join(home, 'organizations', 'acme', 'config', 'system-prompts.yaml'), 'mode: voting\n');
  const c = captureIo();
  const code = await runCli(['ask', 'Which test first?', '--models', MEMBERS, '--no-persist', '--json', ...args], {
    version: '1.2.3',
    io: c.io,
    env: { HOME: home, LLM_COUNCIL_HOME: home, ...env },
    cwd: home,
  });
  return { code, out: c.out(), err: c.err() };
}

describe('ask --org over LLM_COUNCIL_ORG (flags > environment)', () => {
  it('a valid --org overrides an invalid LLM_COUNCIL_ORG, which is then not checked', async () => {
    const r = await ask(['--org', 'acme'], { LLM_COUNCIL_ORG: 'Acme Corp' });
    expect(r.err).not.toContain('LLM_COUNCIL_ORG');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { config: { mode: string } }).config.mode).toBe('voting');
  });

  it('--org wins over a valid LLM_COUNCIL_ORG', async () => {
    const r = await ask(['--org', 'acme'], { LLM_COUNCIL_ORG: 'beta' });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { config: { mode: string } }).config.mode).toBe('voting');
  });

  it('ask --continue with --org reads the history under the same settings: a valid flag over an invalid variable', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-org-'));
    mkdirSync(join(home, 'organizations', 'acme', 'config'), { recursive: true });
    writeFileSync(join(home, 'organizations', 'acme', 'config', 'system-prompts.yaml'), 'mode: voting\n');
    const env = {
      HOME: home,
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_BIAS_CONSENT: '1',
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    };
    const run = async (args: string[], extra: Record<string, string>) => {
      const c = captureIo();
      const code = await runCli(['ask', ...args, '--models', MEMBERS, '--json'], {
        version: '1.2.3',
        io: c.io,
        env: { ...env, ...extra },
        cwd: home,
      });
      return { code, out: c.out(), err: c.err() };
    };
    const first = await run(['First question?'], {});
    expect(first.code, first.err).toBe(0);
    const next = await run(['--continue', 'last', 'And then?', '--org', 'acme'], { LLM_COUNCIL_ORG: 'Acme Corp' });
    expect(next.err).not.toContain('LLM_COUNCIL_ORG');
    expect(next.code).toBe(0);
    const doc = JSON.parse(next.out) as { config: { mode: string }; conversation: { previousSessionId: string } };
    expect(doc.config.mode).toBe('voting');
    expect(doc.conversation.previousSessionId).toBe((JSON.parse(first.out) as { sessionId: string }).sessionId);
  });

  it('an invalid --org is a usage error naming the flag, before any call', async () => {
    const r = await ask(['--org', '../etc'], {});
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'council: --org "../etc" is not valid: use letters, digits, ".", "_" or "-" only, starting with a letter or digit.\n',
    );
  });
});
