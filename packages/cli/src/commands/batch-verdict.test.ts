import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// The test server decides by the member's id (see startCouncilTestServer): `reject` rejects, `unclear` is unclear,
// any other approves; `PLEASE-FAIL` in the prompt fails every member.
const KEY = 'sk-or-v1-BATCH-JURY-KEY';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: [], apiKey: KEY });
});
afterAll(() => server.close());

interface Summary {
  ran: number;
  complete: number;
  failed: number;
  verdicts: { approve: number; reject: number; unclear: number } | null;
}

async function batch(prompts: string, args: string[], files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'council-batch-jury-'));
  writeFileSync(join(dir, 'prompts.txt'), prompts);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: join(dir, 'home') };
  const code = await runCli(['batch', 'prompts.txt', '--order', 'shared', '--seed', '4', '--no-persist', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: dir,
  });
  const results = () =>
    readFileSync(join(dir, 'prompts.txt.results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { prompt_id: string; session: { verdict?: { decision: string } } | null });
  return { code, out: c.out(), err: c.err(), summary: () => JSON.parse(c.out()) as Summary, results };
}

// Built from pieces, so no scanner mistakes this file for a leak.
const planted = ['sk', 'proj', 'PLANTEDk3y9Xv2Lq8Wm4Rt7'].join('-');

describe('batch --verdict against the OpenRouter test server', () => {
  it('makes each prompt a jury over the same evidence and counts the verdicts; a failed prompt counts in none', async () => {
    const before = server.requests.length;
    const r = await batch(
      'Merge the first change?\nMerge the second change?\nPLEASE-FAIL the third\n',
      ['--models', 'test/alpha,test/beta,test/gamma', '--verdict', 'binary', '--evidence', 'design.md', '--json'],
      { 'design.md': 'The design keeps the public API unchanged.\n' },
    );
    expect(r.code).toBe(1); // the third prompt failed
    expect(r.summary()).toMatchObject({
      ran: 3,
      complete: 2,
      failed: 1,
      verdicts: { approve: 2, reject: 0, unclear: 0 },
    });
    expect(r.results().map((l) => [l.prompt_id, l.session?.verdict?.decision ?? null])).toEqual([
      ['line-1', 'approve'],
      ['line-2', 'approve'],
      ['line-3', null],
    ]);
    // Every member of every session was asked as a juror with the evidence in its prompt.
    const stage1 = server.requests
      .slice(before)
      .map((q) => JSON.stringify(q.body))
      .filter((b) => b.includes('You are one member of a jury'));
    expect(stage1.length).toBeGreaterThanOrEqual(6);
    for (const body of stage1) expect(body).toContain('The design keeps the public API unchanged.');
  }, 60_000);

  it('the text summary says how many sessions approved, rejected or were unclear', async () => {
    const rejected = await batch('Ship it?\nShip that?\n', [
      '--models',
      'test/reject-a,test/reject-b',
      '--verdict',
      'binary',
    ]);
    expect(rejected.code).toBe(0);
    expect(rejected.out).toContain('Verdicts: 0 approve, 2 reject, 0 unclear (of 2 sessions run).');
    expect(rejected.err).toMatch(/\[1\/2\] line-\d complete, verdict reject/);
    const unclear = await batch('Ship it?\n', [
      '--models',
      'test/unclear-a,test/unclear-b',
      '--verdict',
      'tie-breaker',
    ]);
    expect(unclear.out).toContain('Verdicts: 0 approve, 0 reject, 1 unclear (of 1 session run).');
  }, 60_000);

  it('without --verdict there are no verdicts (null in the JSON, no line in the text)', async () => {
    const r = await batch('Which is faster?\n', ['--models', 'test/alpha,test/beta,test/gamma', '--json']);
    expect(r.summary().verdicts).toBeNull();
    const text = await batch('Which is faster?\n', ['--models', 'test/alpha,test/beta,test/gamma']);
    expect(text.out).not.toContain('Verdicts:');
  }, 60_000);

  it('refuses evidence with a planted secret before any prompt is sent, naming file and line, never the secret', async () => {
    const before = server.requests.length;
    const r = await batch(
      'Merge it?\n',
      ['--models', 'test/alpha,test/beta,test/gamma', '--verdict', 'binary', '--evidence', 'config.ts'],
      { 'config.ts': `export const a = 1;\nexport const key = '${planted}';\n` },
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain('config.ts:2:21: an OpenAI API key (sk-…)');
    expect(r.err).not.toContain('PLANTED');
    expect(server.requests.length).toBe(before);
  }, 30_000);
});
