import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { measureStyleMimicry, styleStatistics } from './style-mimicry.js';
import { captureIo } from './testing/capture-io.js';
import { startCouncilTestServer } from './testing/council-test-server.js';
import { historyEntry, scoredHistoryEntry, writeHistory } from './testing/history-fixture.js';
import type { HistoryEntry } from './history-entry.js';

// Every line is one sentence of three words; only the share of list lines differs (1, ½, 0).
const LIST = '- x y z.\n- x y z.';
const HALF = '- x y z.\nx y z.';
const PROSE = 'x y z.\nx y z.';

describe('style statistics and style mimicry (issue 15 item 13)', () => {
  it('measures words per sentence, list, heading and code shares and emphasis, not length', () => {
    expect(styleStatistics(LIST)).toEqual([3, 1, 0, 0, 0]);
    expect(styleStatistics('# Title\n\nOne **two** three. Four five six seven!')).toEqual([8 / 3, 0, 1 / 2, 0, 25]);
    // 8 words (Title, One … seven) in 3 sentences; 1 of 2 non-blank lines a heading; two ** markers per 8 words.
    expect(styleStatistics(`${LIST}\n${LIST}`)).toEqual(styleStatistics(LIST));
  });

  it("regresses a reviewer's scores on closeness to its own style within sessions, clustered by session", () => {
    // The list share over all seven answers in the history: 1, 1, 0 and 1, ½, 0, 0 — mean ½, sample SD √(6·¼/6) = ½
    // (the other statistics never vary and drop out). r answers in lists. Session 1: a (lists, distance 0) gets 8, b (prose,
    // 1/SD) gets 4; session 2: a (half, ½/SD) 7, b (prose, 1/SD) 6. Centred within sessions, closeness is ±½/SD and
    // ±¼/SD, scores ±2 and ±½: slope = (2·½·2 + 2·¼·½)/SD ÷ (2·¼ + 2·1/16)/SD² = 2.25/0.625·SD = 3.6·SD = 1.8.
    // Residuals ±0.2 and ∓0.4; cluster scores 0.2/SD and −0.2/SD; variance 0.08/SD² ÷ (0.625/SD²)² × 2/1 = 0.4096·SD²,
    // SE 0.64·SD = 0.32; t(0.975, 1 df) = 12.7062 from a printed table: 1.8 ∓ 4.0660 = [−2.2660, 5.8660] per unit of
    // distance. Put per SD of the closeness r met within sessions: centred closeness ±1 and ±½ (units), Σx² = 2.5 over
    // 4 reviews − 2 sessions, SD √1.25 = 1.118034; 1.8 × 1.118034 = 2.012461 points per SD, interval
    // [−2.265984, 5.865984] × 1.118034 = [−2.533448, 6.558362]. Correlation: Σxy = 2·1·2 + 2·½·½ = 4.5,
    // Σy² = 4 + 4 + ¼ + ¼ = 8.5, r = 4.5/√(2.5 × 8.5) = 0.976187 (and r × the scores' SD √(8.5/2) = 2.0125 again).
    // r's own answer (scored 9) is left out; q reviews in one session only.
    const entries = [
      scoredHistoryEntry('s1', { r: LIST, a: LIST, b: PROSE }, { r: { r: 9, a: 8, b: 4 } }),
      scoredHistoryEntry('s2', { r: LIST, a: HALF, b: PROSE, q: PROSE }, { r: { a: 7, b: 6 }, q: { a: 3, b: 5 } }),
    ];
    const [q, r] = measureStyleMimicry(entries);
    expect(r).toMatchObject({ reviewer: 'r', sessions: 2, reviews: 4, tier: 'insufficient_data' });
    expect(r!.similaritySd).toBeCloseTo(1.118034, 6);
    expect(r!.pointsPerSimilaritySd).toBeCloseTo(2.012461, 5);
    expect(r!.interval![0]).toBeCloseTo(-2.533448, 3);
    expect(r!.interval![1]).toBeCloseTo(6.558362, 3);
    expect(r!.correlation).toBeCloseTo(0.976187, 6);
    expect(q).toEqual({
      reviewer: 'q',
      sessions: 1,
      reviews: 2,
      pointsPerSimilaritySd: null,
      interval: null,
      correlation: null,
      similaritySd: null,
      tier: 'insufficient_data',
    });
  });
});

describe('council history mimicry in points per SD of style closeness (issue 30 item 9)', () => {
  it('prints the hand-computed figure of the two-session case above, with its interval and correlation', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-mimicry-units-'));
    // The log's reader wants whole entries: a hand-written session with these texts and scores written in.
    const stored = (id: string, answers: Record<string, string>, scores: Record<string, Record<string, number>>) => {
      const entry: HistoryEntry = historyEntry({
        id,
        timestamp: '2026-11-01T10:00:00.000Z',
        ranking: Object.keys(answers),
        bordaScores: {},
      });
      const { session } = entry;
      session.stage1 = session.stage1.map((a) => ({ ...a, text: answers[a.member]! }));
      session.stage2 = session.stage2
        .filter((review) => scores[review.reviewer] !== undefined)
        .map((review) => ({ ...review, evaluation: { ...review.evaluation!, scores: scores[review.reviewer]! } }));
      return entry;
    };
    writeHistory(join(home, 'history.jsonl'), [
      stored('s1', { r: LIST, a: LIST, b: PROSE }, { r: { r: 9, a: 8, b: 4 } }),
      stored('s2', { r: LIST, a: HALF, b: PROSE, q: PROSE }, { r: { a: 7, b: 6 }, q: { a: 3, b: 5 } }),
    ]);
    // The same seven answers and scores as above, so the same figures: 2.012461 points per SD [−2.533448, 6.558362],
    // correlation 0.976187.
    const c = captureIo();
    const code = await runCli(['history', 'mimicry', '--json', '--home', home], {
      version: '1.0.0',
      io: c.io,
      env: {},
      cwd: home,
    });
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    const [, r] = (JSON.parse(c.out()) as { reviewers: Record<string, unknown>[] }).reviewers;
    expect(r!.pointsPerSimilaritySd as number).toBeCloseTo(2.012461, 5);
    expect((r!.interval as number[])[0]).toBeCloseTo(-2.533448, 3);
    expect((r!.interval as number[])[1]).toBeCloseTo(6.558362, 3);
    expect(r!.correlation as number).toBeCloseTo(0.976187, 6);
  });
});

describe('council history mimicry (issue 15 item 13)', () => {
  const KEY = 'sk-or-v1-MIMICRY-KEY';
  const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
  let server: TestServer;
  beforeAll(async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  });
  afterAll(() => server.close());

  it('after one council, each reviewer has one session of two other answers and no estimate yet', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-mimicry-'));
    const env = { LLM_COUNCIL_HOME: home, OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY };
    const run = async (argv: string[]) => {
      const c = captureIo();
      const code = await runCli(argv, { version: '1.0.0', io: c.io, env, cwd: home });
      return { code, out: c.out(), err: c.err() };
    };
    expect((await run(['history', 'mimicry'])).out).toContain(
      'No reviewer has both answered and scored two other answers in a session yet.',
    );
    expect((await run(['ask', 'Which sort is stable?', '--models', MEMBERS.join(',')])).code).toBe(0);
    const r = await run(['history', 'mimicry', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { reviewers: unknown[] }).reviewers).toEqual(
      MEMBERS.map((reviewer) => ({
        reviewer,
        sessions: 1,
        reviews: 2,
        pointsPerSimilaritySd: null,
        interval: null,
        correlation: null,
        similaritySd: null,
        tier: 'insufficient_data',
      })),
    );
    expect((await run(['history', 'mimicry'])).out).toContain('collecting data (1 of 10 sessions)');
  }, 30_000);
});
