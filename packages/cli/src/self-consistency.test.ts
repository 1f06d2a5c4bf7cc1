import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { measureSelfConsistency } from './self-consistency.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';
import { scoredHistoryEntry } from './testing/history-fixture.js';

describe('measureSelfConsistency (issue 15 item 13)', () => {
  it('pools the within-answer SD over answers a reviewer scored more than once, with a χ² interval', () => {
    // r scores answer text "A" 7 then 9, and text "B" 5, 5, 8 (B comes from a different member in s3: same text is
    // the same content). Means 8 and 6; squares 1 + 1 and 1 + 1 + 4 = 8 on df (2 − 1) + (3 − 1) = 3:
    // SD √(8/3) = 1.63299. χ² quantiles on 3 df from a printed table: 0.975 → 9.348, 0.025 → 0.2158, so the
    // interval is [√(8/9.348), √(8/0.2158)] = [0.9251, 6.0886]. Text "C" is scored once and does not count;
    // q never meets an answer twice.
    const entries = [
      scoredHistoryEntry('s1', { x: 'A', y: 'B', z: 'C' }, { r: { x: 7, y: 5, z: 4 }, q: { x: 6 } }),
      scoredHistoryEntry('s2', { x: 'A', y: 'B' }, { r: { x: 9, y: 5 } }),
      scoredHistoryEntry('s3', { w: 'B' }, { r: { w: 8 } }),
    ];
    const [q, r] = measureSelfConsistency(entries);
    expect(r).toMatchObject({
      reviewer: 'r',
      repeatedAnswers: 2,
      reviews: 5,
      sessions: 3,
      df: 3,
      tier: 'insufficient_data',
    });
    expect(r!.scoreSd).toBeCloseTo(1.63299, 4);
    expect(r!.interval![0]).toBeCloseTo(0.9251, 3);
    expect(r!.interval![1]).toBeCloseTo(6.0886, 2);
    expect(q).toEqual({
      reviewer: 'q',
      repeatedAnswers: 0,
      reviews: 0,
      sessions: 0,
      df: 0,
      scoreSd: null,
      interval: null,
      tier: 'insufficient_data',
    });
  });
});

describe('council history consistency (issue 15 item 13)', () => {
  const KEY = 'sk-or-v1-CONSISTENCY-KEY';
  const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
  let server: TestServer;
  beforeAll(async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  });
  afterAll(() => server.close());

  async function council(argv: string[], home: string) {
    const c = captureIo();
    const env = { LLM_COUNCIL_HOME: home, OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY };
    const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: home });
    return { code, out: c.out(), err: c.err() };
  }

  it('an empty history says what self-consistency needs', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-consistency-'));
    const r = await council(['history', 'consistency'], home);
    expect(r.code).toBe(0);
    expect(r.out).toContain('No reviewer has scored the same answer twice yet.');
  });

  it('the same question asked twice with one seed: every reviewer scores its three identical answers the same', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-consistency-'));
    // The test server answers the same text for a model every time and scores by display position; one seed gives
    // one order. So each of the 3 reviewers scores 3 identical answers twice, the same each time: 6 reviews, df 3, SD 0.
    for (let i = 0; i < 2; i++)
      expect(
        (await council(['ask', 'Which sort is stable?', '--models', MEMBERS.join(','), '--seed', '5'], home)).code,
      ).toBe(0);
    const r = await council(['history', 'consistency', '--json'], home);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { sessions: number; reviewers: unknown[] };
    expect(doc.sessions).toBe(2);
    expect(doc.reviewers).toEqual(
      MEMBERS.map((reviewer) => ({
        reviewer,
        repeatedAnswers: 3,
        reviews: 6,
        sessions: 2,
        df: 3,
        scoreSd: 0,
        interval: [0, 0],
        tier: 'insufficient_data',
      })),
    );
    const text = await council(['history', 'consistency'], home);
    expect(text.out).toContain('collecting data (2 of 10 sessions)');
  }, 30_000);
});
