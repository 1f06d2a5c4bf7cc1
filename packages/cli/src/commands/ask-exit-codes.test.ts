import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-EXIT-KEY';
const MEMBERS = 'test/alpha,test/beta,test/gamma';
// Reviews in prose with no ranking, to the review and to the repair request alike (see the test server).
const VAGUE = 'test/vague-a,test/vague-b,test/vague-c';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS.split(','), apiKey: KEY });
});
afterAll(() => server.close());

async function ask(args: string[], options: { question?: string; env?: Record<string, string> } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-exit-'));
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home, ...options.env };
  const code = await runCli(['ask', options.question ?? 'How do I test a legacy module?', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: home,
  });
  return { code, out: c.out(), err: c.err(), home };
}

interface Doc {
  synthesis: { text: string } | null;
  leaderboard: unknown[];
  complete: boolean;
  shortfalls: string[];
}

describe('ask exit codes tell the truth (issue 26)', () => {
  it('a complete session exits 0 and says nothing about shortfalls', async () => {
    const r = await ask(['--models', MEMBERS, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Doc;
    expect([doc.complete, doc.shortfalls]).toEqual([true, []]);
    expect(r.err).not.toContain('Partial session');
  }, 20_000);

  it('no chairman answered: exit 3 after the whole output, with one stderr line naming what is missing', async () => {
    const r = await ask(['--models', MEMBERS, '--chairman', 'test/broken']);
    expect(r.code).toBe(3);
    // The answers, the reviews' leaderboard and the indicators are all printed.
    expect(r.out).toContain('Leaderboard');
    expect(r.out).toContain('Answer from test/alpha');
    // The line comes last, after what was saved.
    const lines = r.err.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Partial session (exit 3): no synthesis.');
    expect(lines.filter((l) => l.startsWith('Partial session'))).toHaveLength(1);
    expect(r.err).toContain('Saved history at consent level 1 (local only).');
  }, 20_000);

  it('--json: stdout is the one document, with complete false and the shortfalls; the line goes to stderr', async () => {
    const r = await ask(['--models', MEMBERS, '--chairman', 'test/broken', '--json']);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.out) as Doc;
    expect(doc.synthesis).toBeNull();
    expect(doc.leaderboard).toHaveLength(3);
    expect([doc.complete, doc.shortfalls]).toEqual([false, ['no-synthesis']]);
    expect(r.err).toMatch(/Partial session \(exit 3\): no synthesis\.\n$/);
  }, 20_000);

  it('no review could be read: exit 3 although the chairman synthesised; history written, no bias records, and a note says why', async () => {
    const r = await ask(['--models', VAGUE, '--chairman', 'test/alpha', '--json'], {
      env: { LLM_COUNCIL_BIAS_PERSISTENCE: 'true' },
    });
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.out) as Doc;
    expect(doc.synthesis?.text).toContain('characterisation tests');
    expect(doc.complete).toBe(false);
    expect(doc.shortfalls).toContain('no-review-read');
    expect(doc.shortfalls).not.toContain('no-synthesis');
    expect(r.err).toContain('note: no bias records: no review of this session could be read.\n');
    expect(r.err).toMatch(/Partial session \(exit 3\): (not ranked; )?no review could be read\.\n$/);
    expect(existsSync(join(r.home, 'bias_metrics.jsonl'))).toBe(false);
    expect(readFileSync(join(r.home, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  }, 20_000);

  it('a session that could not run at all is still a runtime error (exit 1), and a bad flag a usage error (exit 2)', async () => {
    // Every member refuses the question: below the quorum of two, the council fails.
    const failed = await ask(['--models', MEMBERS], { question: 'PLEASE-FAIL this one' });
    expect(failed.code).toBe(1);
    expect(failed.err).not.toContain('Partial session');
    const usage = await ask(['--models', MEMBERS, '--order', 'sideways']);
    expect(usage.code).toBe(2);
  }, 20_000);
});

describe('ask --no-synthesis: a ranking is what was asked (issue 26)', () => {
  it('ranked: exit 0, complete, nothing missing — no synthesis was asked for, so none is a shortfall', async () => {
    const r = await ask(['--models', MEMBERS, '--no-synthesis', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Doc;
    expect(doc.synthesis).toBeNull();
    expect(doc.leaderboard).toHaveLength(3);
    expect([doc.complete, doc.shortfalls]).toEqual([true, []]);
    expect(r.err).not.toContain('Partial session');
  }, 20_000);

  it('not ranked (two members: self-votes excluded, a ranking needs three answers): exit 3, "not ranked"', async () => {
    const r = await ask(['--models', 'test/alpha,test/beta', '--no-synthesis', '--json']);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.out) as Doc;
    expect([doc.complete, doc.shortfalls]).toEqual([false, ['not-ranked']]);
    expect(r.err).toMatch(/Partial session \(exit 3\): not ranked\.\n$/);
  }, 20_000);
});
