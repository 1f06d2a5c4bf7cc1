import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// Issue 30 item 14: after the first council the commands said "1 sessions".
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const KEY = 'sk-or-v1-ONE-SESSION';
let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

describe('one session is "1 session"', () => {
  it('in doctor and the leaderboard after the first council', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-one-session-'));
    const env = {
      LLM_COUNCIL_HOME: home,
      OPENROUTER_BASE_URL: server.url,
      OPENROUTER_API_KEY: KEY,
      LLM_COUNCIL_BIAS_PERSISTENCE: '1',
    };
    const run = async (argv: string[]) => {
      const c = captureIo();
      const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: home });
      return { code, out: c.out(), err: c.err() };
    };
    expect((await run(['ask', 'Which sort is stable?', '--models', MEMBERS.join(',')])).code).toBe(0);
    const doctor = await run(['doctor', '--offline']);
    // Three reviewers, each scoring the two other answers: 6 records, in 1 session, in 1 file.
    expect(doctor.out).toMatch(/ records? in 1 session, 1 file, all readable/);
    expect(doctor.out).not.toContain('1 sessions');
    const leaderboard = await run(['leaderboard']);
    expect(leaderboard.out).toContain('· 1 session');
    expect(leaderboard.out).not.toContain('1 sessions');
  }, 30_000);
});
