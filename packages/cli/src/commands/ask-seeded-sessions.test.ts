import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-SEED-KEY';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

async function council(args: string[], home: string) {
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
  const code = await runCli(args, { version: '1.2.3', io: c.io, env, cwd: home });
  return { code, out: c.out(), err: c.err() };
}

interface AskDoc {
  sessionId: string;
  stage2: {
    reviewer: string;
    order: string[];
    labelToModel: Record<string, { model: string; displayIndex: number }>;
  }[];
}

describe('a seed reproduces orders and labels, never the session id (issue 15 item 5)', () => {
  it('two saved runs with one --seed are two sessions: history, leaderboard and show tell them apart', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-seed-'));
    const args = [
      'ask',
      'How do I test a legacy module?',
      '--models',
      MEMBERS.join(','),
      '--order',
      'per-reviewer',
      '--seed',
      '11',
      '--json',
    ];
    const first = await council(args, home);
    const second = await council(args, home);
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    const a = JSON.parse(first.out) as AskDoc;
    const b = JSON.parse(second.out) as AskDoc;
    expect(b.sessionId).not.toBe(a.sessionId);
    // The seed still fixes what each reviewer saw and which label stood for whom.
    expect(b.stage2.map((r) => r.order)).toEqual(a.stage2.map((r) => r.order));
    expect(b.stage2.map((r) => r.labelToModel)).toEqual(a.stage2.map((r) => r.labelToModel));

    const list = await council(['history', 'list', '--json'], home);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.out) as { sessionId: string }[]).map((e) => e.sessionId).sort()).toEqual(
      [a.sessionId, b.sessionId].sort(),
    );
    // Before the fix the leaderboard refused the history ("repeats the id of sessions[0]").
    const board = await council(['leaderboard', '--json'], home);
    expect(board.err).toBe('');
    expect(board.code).toBe(0);
    expect((JSON.parse(board.out) as { sessions: number }).sessions).toBe(2);
    const show = await council(['history', 'show', b.sessionId], home);
    expect(show.code).toBe(0);
    expect(show.out).toContain(`Session ${b.sessionId}`);
  }, 30_000);
});
