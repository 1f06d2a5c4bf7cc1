import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@council/providers/test';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-MIMICRY-SPREAD-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];

// The first hour, after ten councils: `history mimicry` said "collecting data (12 of 10 sessions)" for test/beta. The
// test server's test/alpha and test/gamma answer the same text, so every session shows test/beta two answers equally
// close to its style: there is nothing to regress its scores on, however many sessions there are.
describe('council history mimicry with no spread in style (issue 30 item 9, the first hour)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  });
  afterAll(() => server.close());

  it('says why a reviewer with enough sessions has no estimate, instead of "collecting data (10 of 10 sessions)"', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-mimicry-spread-'));
    const env = { LLM_COUNCIL_HOME: home, OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY };
    const run = async (argv: string[]) => {
      const c = captureIo();
      const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: home });
      return { code, out: c.out(), err: c.err() };
    };
    for (let i = 1; i <= 10; i++)
      expect((await run(['ask', `Question ${i}: which sort is stable?`, '--models', MEMBERS.join(',')])).code).toBe(0);
    const json = JSON.parse((await run(['history', 'mimicry', '--json'])).out) as {
      reviewers: { reviewer: string; sessions: number; pointsPerSimilaritySd: number | null }[];
    };
    expect(json.reviewers.find((r) => r.reviewer === 'test/beta')).toMatchObject({
      sessions: 10,
      pointsPerSimilaritySd: null,
    });
    const text = await run(['history', 'mimicry']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      /│ test\/beta +│ +10 │ +\d+ │ n\/a: every answer it scored was equally close to its style │/,
    );
    expect(text.out).not.toContain('collecting data (10 of 10 sessions)');
  }, 60_000);
});
