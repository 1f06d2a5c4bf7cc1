import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: ['test/alpha', 'test/beta'] });
});
afterAll(() => server.close());

async function council(args: string[], dir: string) {
  const c = captureIo();
  const env = {
    OPENROUTER_BASE_URL: server.url,
    OPENROUTER_API_KEY: 'k',
    LLM_COUNCIL_HOME: join(dir, 'home'),
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  const code = await runCli(args, { version: '1.2.3', io: c.io, env, cwd: dir });
  return { code, out: c.out(), err: c.err() };
}

describe('unranked two-member sessions downstream (issue 15 item 4)', () => {
  it('batch, leaderboard and bias-report take sessions that were not ranked without failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-small-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First?\nSecond?\n');
    const batch = await council(['batch', 'prompts.txt', '--models', 'test/alpha,test/beta'], dir);
    expect(batch.err).not.toContain('council: ');
    expect(batch.code).toBe(0);
    expect(batch.out).toContain('2 sessions complete.');
    expect(batch.out).toContain(
      'No leaderboard: no completed session was ranked (with self-votes excluded, a ranking needs at least three answers).',
    );
    const board = await council(['leaderboard', '--json'], dir);
    expect(board.code).toBe(0);
    expect(JSON.parse(board.out)).toMatchObject({ sessions: 2, borda: [] });
    const report = await council(['bias-report'], dir);
    expect(report.err).not.toContain('council: ');
    expect(report.code).toBe(0);
  }, 30_000);
});
