import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-LIMITS-KEY';
const MiB = 1024 * 1024;
const MEMBERS = 'test/alpha,test/beta,test/gamma';
let server: TestServer;

// Every answer reports 100 input and 50 output tokens and $0.001; a review reports 200 output tokens (still
// $0.001), so that the chairman's prompt is estimated longer than the reviews' (see the stage-3 case).
beforeAll(async () => {
  server = await startCouncilTestServer({
    contributors: ['test/alpha', 'test/beta', 'test/gamma'],
    apiKey: KEY,
    reviewUsage: { inputTokens: 100, outputTokens: 200, costUsd: 0.001 },
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function ask(args: string[], options: { config?: string } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-limits-'));
  if (options.config !== undefined) writeFileSync(join(home, 'config.yaml'), options.config);
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
  const code = await runCli(['ask', 'How do I test a legacy module?', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: home,
  });
  const history = (() => {
    try {
      return readFileSync(join(home, 'history.jsonl'), 'utf8');
    } catch {
      return '';
    }
  })();
  return { code, out: c.out(), err: c.err(), history };
}

interface Doc {
  stage1: Array<{ member: string; text: string | null }>;
  stage2: unknown[];
  synthesis: { text: string } | null;
  leaderboard: unknown[];
  excluded: Array<{ member: string; stage: number; reason: string; message: string }>;
  warnings: string[];
  costCap?: {
    maxCostUsd: number;
    spentUsd: number | null;
    estimatedUsd: number | null;
    stoppedBeforeStage: number | null;
  };
}

const stagesCalled = () => server.requests.length;

describe('--max-cost (issue 15 item 9)', () => {
  // By hand. Stage 1: 3 answers × $0.001 = $0.003, each at $0.001 / 150 tokens.
  // Stage 2 estimate: each reviewer re-reads its prompt (100) and the 3 answers (3 × 50) and writes as much as its
  // answer (50): 300 tokens × $0.001/150 = $0.002, × 3 reviewers = $0.006; with stage 1, $0.009.
  // Stage 2 as run: 3 × $0.001, so $0.006 spent. Stage 3 estimate: the chairman (test/alpha, a member) reads the
  // mean prompt (100), the answers (150) and the reviews (3 × 200 = 600), writes a mean answer (50): 900 tokens
  // × $0.001/150 = $0.006; with what was spent, $0.012.

  it('stops before the review when the estimate passes the cap: the answers are kept and shown, nothing after is asked for', async () => {
    const r = await ask(['--models', MEMBERS, '--max-cost', '0.005']);
    // Partial (issue 26): neither the ranking nor the synthesis was made; the output is whole all the same.
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/Partial session \(exit 3\): no synthesis; not ranked\.\n$/);
    expect(stagesCalled()).toBe(3);
    expect(r.out).toContain('the cost cap stopped the council before stage 2 (review)');
    expect(r.out).toContain(
      'Stopped by the cost cap before stage 2 (review): $0.0030 spent and about $0.0060 more estimated for it, $0.0090 in all, over the $0.0050 cap. Kept: the answers of stage 1. Skipped: the reviews, the ranking, the bias indicators and the synthesis.',
    );
    for (const member of MEMBERS.split(',')) expect(r.out).toContain(`Answer from ${member} (not reviewed)`);
    expect(r.out).not.toContain('Leaderboard');
    // What finished is saved like any session.
    expect(r.history.trim().split('\n')).toHaveLength(1);
  }, 20_000);

  it('--json records the cap: what was spent, the estimate and the stage it stopped before', async () => {
    const r = await ask(['--models', MEMBERS, '--max-cost', '$0.005', '--json']);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.out) as Doc & { complete: boolean; shortfalls: string[] };
    expect([doc.complete, doc.shortfalls]).toEqual([false, ['no-synthesis', 'not-ranked']]);
    expect(doc.stage1.filter((s) => s.text !== null)).toHaveLength(3);
    expect(doc.stage2).toEqual([]);
    expect(doc.synthesis).toBeNull();
    expect(doc.costCap?.stoppedBeforeStage).toBe(2);
    expect(doc.costCap?.maxCostUsd).toBe(0.005);
    expect(doc.costCap?.spentUsd).toBeCloseTo(0.003, 12);
    expect(doc.costCap?.estimatedUsd).toBeCloseTo(0.006, 12);
  }, 20_000);

  it('stops before the synthesis when only that passes the cap, keeping the reviews and the ranking', async () => {
    const r = await ask(['--models', MEMBERS, '--max-cost', '0.01', '--json']);
    expect(r.code).toBe(3);
    expect(stagesCalled()).toBe(6);
    const doc = JSON.parse(r.out) as Doc & { complete: boolean; shortfalls: string[] };
    // Ranked, not synthesised.
    expect([doc.complete, doc.shortfalls]).toEqual([false, ['no-synthesis']]);
    expect(r.err).toMatch(/Partial session \(exit 3\): no synthesis\.\n$/);
    expect(doc.stage2).toHaveLength(3);
    expect(doc.leaderboard).toHaveLength(3);
    expect(doc.synthesis).toBeNull();
    expect(doc.costCap?.stoppedBeforeStage).toBe(3);
    expect(doc.costCap?.spentUsd).toBeCloseTo(0.006, 12);
    expect(doc.costCap?.estimatedUsd).toBeCloseTo(0.006, 12);
    expect(doc.warnings).toContain(
      'Stopped by the cost cap before stage 3 (synthesis): $0.0060 spent and about $0.0060 more estimated for it, $0.0120 in all, over the $0.0100 cap. Kept: the answers, the reviews and the ranking. Skipped: the synthesis.',
    );
  }, 20_000);

  it('a cap the estimates stay under changes nothing; max_cost_usd in config.yaml is the default, the flag overrides it', async () => {
    const under = await ask(['--models', MEMBERS, '--json'], { config: 'max_cost_usd: 0.0125\n' });
    expect(stagesCalled()).toBe(7);
    const doc = JSON.parse(under.out) as Doc;
    expect(doc.synthesis?.text).toContain('characterisation tests');
    expect(doc.costCap).toEqual({
      maxCostUsd: 0.0125,
      spentUsd: expect.closeTo(0.006, 12) as number,
      estimatedUsd: expect.closeTo(0.006, 12) as number,
      stoppedBeforeStage: null,
    });

    server.reset();
    const flag = await ask(['--models', MEMBERS, '--max-cost', '0.005', '--json'], {
      config: 'max_cost_usd: 0.0125\n',
    });
    expect((JSON.parse(flag.out) as Doc).costCap?.stoppedBeforeStage).toBe(2);
    expect(stagesCalled()).toBe(3);
  }, 20_000);

  it('batch --max-cost caps each session alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-limits-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\nSecond question?\n');
    const c = captureIo();
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: join(dir, 'home') };
    const code = await runCli(['batch', 'prompts.txt', '--models', MEMBERS, '--max-cost', '0.005'], {
      version: '1.2.3',
      io: c.io,
      env,
      cwd: dir,
    });
    // Both sessions stopped before the review: partial, none failed.
    expect(code).toBe(3);
    const lines = readFileSync(join(dir, 'prompts.txt.results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { session: Doc });
    expect(lines.map((l) => l.session.costCap?.stoppedBeforeStage)).toEqual([2, 2]);
    // Two sessions of three answers each, and nothing more.
    expect(stagesCalled()).toBe(6);
  }, 20_000);

  it('a bad amount is one usage line, before anything runs', async () => {
    for (const value of ['cheap', '0']) {
      const r = await ask(['--models', MEMBERS, '--max-cost', value]);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(
        /--max-cost (expects an amount of US dollars such as 0\.50, got "cheap"|must be positive, got 0)/,
      );
    }
    const file = await ask(['--models', MEMBERS], { config: 'max_cost_usd: -1\n' });
    expect(file.code).toBe(2);
    expect(file.err).toMatch(/config\.yaml: "max_cost_usd" \(line 1\) (.*positive|Too small)/i);
    expect(stagesCalled()).toBe(0);
  }, 20_000);
});

describe('reply size limit (issue 15 item 9)', () => {
  it('a 50 MB reply is excluded as "reply too large" at the default limit (4 MiB), without being read; the council goes on', async () => {
    const r = await ask(['--models', `${MEMBERS},test/huge`, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Doc;
    expect(doc.excluded).toEqual([
      {
        member: 'test/huge',
        stage: 1,
        reason: 'too-large',
        message: expect.stringMatching(/^reply too large: openrouter sent more than 4 MiB for test\/huge/) as string,
      },
    ]);
    expect(doc.synthesis?.text).toContain('characterisation tests');
    // The server wrote what the socket took before the client stopped reading: the limit and buffers, not 50 MB.
    expect(server.hugeBytesSent).toBeLessThan(20 * MiB);
    expect(Buffer.byteLength(r.history)).toBeLessThan(MiB);
  }, 30_000);

  it('max_reply_bytes in config.yaml sets the limit; the text output names the key', async () => {
    const r = await ask(['--models', `${MEMBERS},test/huge`], { config: 'max_reply_bytes: 65536\n' });
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'Excluded: test/huge at stage 1 (reply too large): openrouter sent more than 64 KiB for test/huge, so it was cut off unread. Raise max_reply_bytes in config.yaml to accept longer replies.',
    );
  }, 30_000);

  it("the history log keeps to the store's 1 MiB line limit: a session of three 400 KiB answers is saved with its longest texts cut", async () => {
    const r = await ask(['--models', 'test/long-a,test/long-b,test/long-c', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Doc;
    // --json has the answers whole.
    expect(doc.stage1.map((s) => s.text?.length)).toEqual([400 * 1024, 400 * 1024, 400 * 1024]);
    const lines = r.history.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(Buffer.byteLength(lines[0]!)).toBeLessThanOrEqual(MiB);
    expect(lines[0]).toContain('… [cut for the history log:');
    expect(r.err).toContain(
      "note: the session's history line would have passed 1 MiB, so its longest texts were cut in the history log (--json prints them whole).",
    );
  }, 30_000);
});
