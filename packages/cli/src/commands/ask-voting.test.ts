import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-VOTING-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  // This server's chairman credits contributors but never names a winner.
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

async function ask(args: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'council-voting-'));
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
  const code = await runCli(
    [
      'ask',
      'Which test first?',
      '--models',
      MEMBERS.join(','),
      '--mode',
      'voting',
      '--order',
      'shared',
      '--no-persist',
      ...args,
    ],
    { version: '1.2.3', io: c.io, env, cwd: home },
  );
  return { code, out: c.out(), err: c.err() };
}

describe('voting mode without a winner from the chairman (issue 15 item 8)', () => {
  it('names the Borda leader as the winner and says so', async () => {
    const r = await ask(['--seed', '4', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      stage2: { order: string[] }[];
      leaderboard: { candidate: string; bordaScore: number }[];
      synthesis: { winner: string | null; winnerSource: string | null; warnings: string[] };
    };
    // One shared order [x, y, z], and every reviewer ranks in the order shown. Without self-votes: x's ballot is
    // y > z, y's is x > z, z's is x > y; so x is first on both its ballots (Borda 1), y scores 1/2, z 0.
    const [x, y, z] = doc.stage2[0]!.order;
    expect(doc.leaderboard.map((e) => [e.candidate, e.bordaScore])).toEqual([
      [x, 1],
      [y, 0.5],
      [z, 0],
    ]);
    expect(doc.synthesis.winner).toBe(x);
    expect(doc.synthesis.winnerSource).toBe('borda-leader');
    expect(doc.synthesis.warnings).toContain(
      `the chairman reported no winner; the winner is the Borda leader, ${x!} (Borda score 1.000).`,
    );

    const text = await ask(['--seed', '4']);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`Winner (voting mode): ${x!} (the Borda leader: the chairman named no winner)`);
  }, 20_000);
});
