import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-SMALL-KEY';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: ['test/alpha', 'test/beta'], apiKey: KEY });
});
afterAll(() => server.close());

async function ask(args: string[], extraEnv: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-small-'));
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home, ...extraEnv };
  const code = await runCli(['ask', 'How do I test a legacy module?', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: home,
  });
  return { code, out: c.out(), err: c.err(), home };
}

const NOT_RANKED =
  /Not ranked: with self-votes excluded, a ranking needs at least 3 answers and only 2 members answered/g;

describe('a council of fewer than three answers is not ranked (issue 15 item 4)', () => {
  it('two members: says so once, prints no leaderboard or bias flags, and still synthesises', async () => {
    const r = await ask(['--models', 'test/alpha,test/beta']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Start with characterisation tests around the riskiest module.');
    expect(r.out).toContain('Synthesised from: test/alpha (50%), test/beta (50%)');
    expect((r.out + r.err).match(NOT_RANKED)).toHaveLength(1);
    // Before: both members at Borda 0.000, rank 1, and a POSITION_BIAS flag from one ballot each.
    expect(r.out).not.toContain('Leaderboard');
    expect(r.out).not.toContain('Bias indicators');
    expect(r.out).not.toContain('POSITION_BIAS');
  }, 20_000);

  it('--json: an empty leaderboard, no indicators, the reviews kept, the reason in warnings; no telemetry event at consent 2', async () => {
    const r = await ask(['--models', 'test/alpha,test/beta,test/broken', '--json'], { LLM_COUNCIL_BIAS_CONSENT: '2' });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as {
      leaderboard: unknown[];
      biasIndicators: unknown;
      stage2: unknown[];
      synthesis: { text: string } | null;
      warnings: string[];
      complete: boolean;
      shortfalls: string[];
    };
    expect(doc.leaderboard).toEqual([]);
    expect(doc.biasIndicators).toBeNull();
    expect(doc.stage2).toHaveLength(2);
    expect(doc.synthesis?.text).toContain('characterisation tests');
    expect(doc.warnings.join('\n').match(NOT_RANKED)).toHaveLength(1);
    // Synthesised, as asked: complete (exit 0), with the ranking it could not make named (issue 26).
    expect([doc.complete, doc.shortfalls]).toEqual([true, ['not-ranked']]);
    expect(readFileSync(join(r.home, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    // An event would carry no rankings: none is queued.
    expect(existsSync(join(r.home, 'telemetry', 'outbox.jsonl'))).toBe(false);
  }, 20_000);

  it('three members are ranked as before', async () => {
    const r = await ask(['--models', 'test/alpha,test/beta,test/gamma']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Leaderboard');
    expect(r.out).not.toMatch(NOT_RANKED);
  }, 20_000);
});
