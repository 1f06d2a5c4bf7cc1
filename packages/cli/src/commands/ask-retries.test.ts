import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-RETRIES-KEY';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: ['test/alpha', 'test/beta'], apiKey: KEY });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function ask(args: string[], config?: string) {
  const home = mkdtempSync(join(tmpdir(), 'council-retries-'));
  if (config !== undefined) writeFileSync(join(home, 'config.yaml'), config);
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
  const code = await runCli(
    [
      'ask',
      'How do I test a legacy module?',
      '--models',
      'test/alpha,test/beta,test/gamma,test/flaky',
      '--chairman',
      'test/alpha',
      '--no-persist',
      ...args,
    ],
    {
      version: '1.2.3',
      io: c.io,
      env,
      cwd: home,
    },
  );
  return { code, out: c.out(), err: c.err() };
}

const flakyCalls = () => server.requests.filter((request) => request.model === 'test/flaky').length;

describe('--retries and the retries config key (issue 15 item 12)', () => {
  it('the HTTP 500 hint names --retries and the config key, and --retries 0 makes one call', async () => {
    const r = await ask(['--retries', '0']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Excluded: test/flaky at stage 1');
    expect(r.out).toContain(
      'allow more retries (maxRetries; in the council CLI, --retries N or retries: N in config.yaml)',
    );
    expect(r.out).not.toContain('raise maxRetries');
    expect(flakyCalls()).toBe(1);
  }, 20_000);

  it('--retries 1 makes the first call and one retry', async () => {
    expect((await ask(['--retries', '1'])).code).toBe(0);
    expect(flakyCalls()).toBe(2);
  }, 20_000);

  it('retries: 0 in config.yaml is used when no flag is given, and the flag beats it', async () => {
    expect((await ask([], 'retries: 0\n')).code).toBe(0);
    expect(flakyCalls()).toBe(1);
    server.reset();
    expect((await ask(['--retries', '1'], 'retries: 0\n')).code).toBe(0);
    expect(flakyCalls()).toBe(2);
  }, 20_000);

  it('rejects a retry count outside 0 to 10', async () => {
    const r = await ask(['--retries', '11']);
    expect(r).toMatchObject({ code: 2, err: 'council: --retries must be at most 10, got 11.\n' });
  });
});
