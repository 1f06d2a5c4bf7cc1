import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// Key management without exporting variables (issue 30 item 15): `council keys set <provider>` reads the key from
// stdin into <home>/keys, mode 0600; the settings module reads it (a variable in the environment wins); no command
// ever prints it; a keys file open to others is refused, naming the fix.
const KEY = 'sk-or-v1-KEYS-FILE-SECRET-1234';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

async function run(argv: string[], options: { home: string; env?: Record<string, string>; stdin?: string }) {
  const c = captureIo();
  const io: CliIo = {
    ...c.io,
    stdinIsTTY: options.stdin === undefined,
    ...(options.stdin === undefined ? {} : { readStdin: () => Promise.resolve(Buffer.from(options.stdin!)) }),
  };
  const env = { LLM_COUNCIL_HOME: options.home, OPENROUTER_BASE_URL: server.url, ...options.env };
  const code = await runCli(argv, { version: '1.0.0', io, env, cwd: options.home });
  return { code, out: c.out(), err: c.err() };
}

describe('council keys (issue 30 item 15)', () => {
  it('saves a key read from stdin in <home>/keys, mode 0600, and ask then runs with it; nothing prints it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keys-'));
    const set = await run(['keys', 'set', 'openrouter'], { home, stdin: `${KEY}\n` });
    expect(set.code).toBe(0);
    expect(set.err).toContain(`Saved the openrouter key as OPENROUTER_API_KEY in ${join(home, 'keys')} (mode 0600).`);
    expect(statSync(join(home, 'keys')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(home, 'keys'), 'utf8')).toContain(`OPENROUTER_API_KEY=${KEY}\n`);
    const list = await run(['keys', 'list'], { home });
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/openrouter +key set \(OPENROUTER_API_KEY, from the keys file\)/);
    expect(list.out).toMatch(/anthropic +no key/);
    const asked = await run(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--no-persist'], { home });
    expect(asked.err).not.toContain('OPENROUTER_API_KEY is not set');
    expect(asked.code).toBe(0);
    // The server checks the bearer key; every call it answered carried the file's key.
    expect(server.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${KEY}`);
    const doctor = await run(['doctor', '--offline'], { home });
    const shown = await run(['config', 'show'], { home });
    const models = await run(['models', '--json'], { home });
    for (const r of [set, list, asked, doctor, shown, models]) {
      expect(r.out).not.toContain('1234');
      expect(r.err).not.toContain('1234');
    }
  }, 30_000);

  it('ask without a key names the keys command for its provider', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keys-none-'));
    const asked = await run(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--no-persist'], { home });
    expect(asked.code).toBe(1);
    expect(asked.err).toContain('No API key set: OPENROUTER_API_KEY (for test/alpha, test/beta, test/gamma).');
    expect(asked.err).toContain('Save it with `council keys set openrouter`');
  });

  it('a variable in the environment wins over the file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keys-env-'));
    await run(['keys', 'set', 'openrouter'], { home, stdin: 'sk-or-v1-WRONG-KEY' });
    const list = await run(['keys', 'list'], { home, env: { OPENROUTER_API_KEY: KEY } });
    expect(list.out).toMatch(/openrouter +key set \(OPENROUTER_API_KEY, from the environment\)/);
    const asked = await run(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--no-persist'], {
      home,
      env: { OPENROUTER_API_KEY: KEY },
    });
    expect(asked.code).toBe(0);
    expect(server.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${KEY}`);
  }, 30_000);

  it('refuses a keys file others can read, naming chmod 600, in every command and in keys list', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keys-open-'));
    writeFileSync(join(home, 'keys'), `OPENROUTER_API_KEY=${KEY}\n`);
    chmodSync(join(home, 'keys'), 0o644);
    const message = `The keys file ${join(home, 'keys')} is open to other users (mode 0644), so its keys are not used: run chmod 600 ${join(home, 'keys')}.`;
    const asked = await run(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--no-persist'], { home });
    expect(asked.code).toBe(2);
    expect(asked.err).toContain(message);
    const list = await run(['keys', 'list'], { home });
    expect(list.code).toBe(1);
    expect(list.err).toContain(message);
    expect(list.out).toMatch(/openrouter +no key/);
    chmodSync(join(home, 'keys'), 0o600);
    expect((await run(['keys', 'list'], { home })).out).toMatch(/openrouter +key set/);
  });

  it('takes no key from argv, refuses an unknown provider and an empty key, and removes a key', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keys-usage-'));
    const unknown = await run(['keys', 'set', 'openrouterx'], { home, stdin: KEY });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('"openrouterx" is not a provider Council knows; use one of openrouter, openai');
    const empty = await run(['keys', 'set', 'anthropic'], { home, stdin: '\n' });
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('No key was given on stdin; nothing was saved for anthropic.');
    // A key as a third word is not an argument keys takes: cac refuses it, nothing is saved.
    const argv = await run(['keys', 'set', 'anthropic', 'sk-ant-SECRET'], { home, stdin: '' });
    expect(argv.code).not.toBe(0);
    expect(argv.err).not.toContain('sk-ant-SECRET');
    expect(argv.err).toContain('council keys takes no key on the command line');
    await run(['keys', 'set', 'anthropic'], { home, stdin: 'sk-ant-KEY' });
    await run(['keys', 'set', 'openai'], { home, stdin: 'sk-OPENAI' });
    const removed = await run(['keys', 'remove', 'anthropic'], { home });
    expect(removed.err).toContain(`Removed the anthropic key from ${join(home, 'keys')}.`);
    expect(readFileSync(join(home, 'keys'), 'utf8')).not.toContain('ANTHROPIC');
    expect(readFileSync(join(home, 'keys'), 'utf8')).toContain('OPENAI_API_KEY=sk-OPENAI');
  });

  it('a write that fails leaves the keys file as it was, and says so', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keys-'));
    await run(['keys', 'set', 'openai'], { home, stdin: 'sk-OPENAI' });
    const before = readFileSync(join(home, 'keys'), 'utf8');
    // The new file's place is taken (as a full disk or a read-only home would stop it): the write cannot start.
    mkdirSync(join(home, `keys.${process.pid}.tmp`));
    const failed = await run(['keys', 'set', 'anthropic'], { home, stdin: 'sk-ant-KEY' });
    expect(failed.code).toBe(1);
    expect(failed.err).toContain(`Could not write ${join(home, 'keys')} (EEXIST): nothing was changed`);
    expect(failed.err).not.toContain('sk-ant-KEY');
    expect(readFileSync(join(home, 'keys'), 'utf8')).toBe(before);
  });
});
