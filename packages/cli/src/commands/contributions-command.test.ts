import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCouncil } from '@council/core';
import type { CouncilSession } from '@council/core';
import type { GenerateOptions, GenerateResult, LanguageModelV1 } from '@council/providers';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistSession } from '../persist-session.js';
import { runCli } from '../run-cli.js';
import { resolveCouncilSettings } from '../settings/resolve-council-settings.js';
import { captureIo, testContext } from '../testing/capture-io.js';
import { councilRequestStage } from '../testing/council-request-stage.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { computeContributionsReport } from './contributions-command.js';
import type { ContributionsDocument } from './contributions-command.js';

/** One scripted session: its strategy, the chairman's raw weights (null: no block), the model every reviewer ranks first, and a member whose answer fails. */
interface Script {
  strategy: string;
  weights: Record<string, number> | null;
  first: string;
  fails?: string;
}

// Four sessions; the skeptic personality is played by test/c. Worked by hand:
//   s1 balanced     block a 3, b 1 → a 0.75, b 0.25, skeptic 0; every reviewer ranks test/b first → b leads
//   s2 risk-averse  block a 1, b 1, skeptic 2 → 0.25, 0.25, 0.5; test/a first → a leads
//   s3 balanced     no block (weights null); test/c first → skeptic leads
//   s4 balanced     skeptic's answer fails (it did not sit in); block b 1 → a 0, b 1; two answers are not ranked
//                   (self-votes excluded, core leaves the leaderboard empty), so nobody leads the vote
// a: weights 0.75, 0.25, 0 → 1/3 over 3 sessions, credited 2, wins 1 of 4
// b: 0.25, 0.25, 1 → 0.5 over 3, credited 3, wins 1 of 4
// skeptic: 0, 0.5 → 0.25 over 2, credited 1, wins 1 of 3
const SCRIPTS: Script[] = [
  { strategy: 'balanced', weights: { 'test/a': 3, 'test/b': 1 }, first: 'test/b' },
  { strategy: 'risk-averse', weights: { 'test/a': 1, 'test/b': 1, skeptic: 2 }, first: 'test/a' },
  { strategy: 'balanced', weights: null, first: 'test/c' },
  { strategy: 'balanced', weights: { 'test/b': 1 }, first: 'test/a', fails: 'test/c' },
];

const blockPattern = /^<<<(\S+) (Response [A-Z]+)>>>\n([\s\S]*?)\n<<<\1 END>>>$/gm;

/** A scripted model: answers name the model; reviews rank `script.first`'s answer first; the chairman credits `script.weights`. */
function scriptedModel(id: string, script: () => Script): LanguageModelV1 {
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: id,
    doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      const prompt = options.messages.map((m) => m.content).join('\n');
      const s = script();
      const reply = (text: string): Promise<GenerateResult> =>
        Promise.resolve({
          text,
          usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
          finishReason: 'stop',
          latencyMs: 1,
        });
      switch (councilRequestStage(prompt)) {
        case 'answer':
          if (s.fails === id) return Promise.reject(new Error('the scripted member is down'));
          return reply(`ANSWER-${id}: write characterisation tests first.`);
        case 'review': {
          const blocks = [...prompt.matchAll(blockPattern)].map((m) => ({ label: m[2]!, text: m[3]! }));
          const ranked = [...blocks].sort(
            (x, y) => Number(y.text.includes(`ANSWER-${s.first}:`)) - Number(x.text.includes(`ANSWER-${s.first}:`)),
          );
          const scores = Object.fromEntries(ranked.map((b, i) => [b.label, 9 - 2 * i]));
          const critiques = ranked
            .map((b) => `### ${b.label}\n**Strengths**: clear\n**Weaknesses**: short\n**Score**: ${scores[b.label]}`)
            .join('\n\n');
          return reply(
            `${critiques}\n\n\`\`\`json\n${JSON.stringify({ ranking: ranked.map((b) => b.label), scores })}\n\`\`\`\n\nFINAL RANKING:\n${ranked.map((b, i) => `${i + 1}. ${b.label}`).join('\n')}`,
          );
        }
        case 'chairman': {
          if (s.weights === null) return reply('Start with characterisation tests.');
          const contributors = Object.entries(s.weights).map(([member, weight]) => ({
            id: member,
            weight,
            reason: 'useful steps',
          }));
          return reply(`Start with characterisation tests.\n\n\`\`\`json\n${JSON.stringify({ contributors })}\n\`\`\``);
        }
      }
    },
  };
}

/** Runs the scripted sessions through runCouncil and persistSession into `home`. */
async function runScriptedSessions(
  env: Record<string, string>,
): Promise<{ sessions: CouncilSession[]; saved: Awaited<ReturnType<typeof persistSession>>[] }> {
  let current = SCRIPTS[0]!;
  const model = (id: string): LanguageModelV1 => scriptedModel(id, () => current);
  const [a, b, c, chair] = [model('test/a'), model('test/b'), model('test/c'), model('test/chair')];
  const settings = resolveCouncilSettings(env);
  const sessions: CouncilSession[] = [];
  const saved = [];
  for (const [i, script] of SCRIPTS.entries()) {
    current = script;
    const session = await runCouncil({
      query: 'How do I test a legacy module?',
      members: [a, b, { id: 'skeptic', model: c, systemPrompt: 'You doubt every plan.' }],
      chairman: chair,
      strategy: script.strategy,
      seed: i + 1,
      clock: { now: () => Date.UTC(2026, 10, 1 + i, 10) },
    });
    sessions.push(session);
    saved.push(await persistSession({ session, settings, version: '1.2.3' }));
  }
  return { sessions, saved };
}

async function contributionsJson(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; doc: ContributionsDocument; err: string }> {
  const c = captureIo();
  const code = await runCli(['contributions', '--json', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: env['LLM_COUNCIL_HOME']!,
  });
  return { code, doc: (code === 0 ? JSON.parse(c.out()) : null) as ContributionsDocument, err: c.err() };
}

const z = 1.959963984540054;
/** Wilson's score interval at the mean p of n values (written out here, independently of the package). */
function wilson(p: number, n: number): [number, number] {
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return [p === 0 ? 0 : centre - half, p === 1 ? 1 : centre + half];
}

describe('council contributions over sessions persisted by persistSession', () => {
  let home: string;
  let env: Record<string, string>;
  let saved: Awaited<ReturnType<typeof persistSession>>[];

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'council-contributions-'));
    env = { LLM_COUNCIL_HOME: home, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' };
    ({ saved } = await runScriptedSessions(env));
  }, 30_000);

  it('writes one record per member that answered, without the chairman reason or the query', () => {
    expect(saved.map((s) => s.contributions)).toEqual([3, 3, 3, 2]);
    const text = readFileSync(join(home, 'contributions.jsonl'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(11);
    expect(text).not.toContain('useful steps');
    expect(text).not.toContain('legacy module');
    const first = JSON.parse(text.split('\n')[2]!) as Record<string, unknown>;
    expect(first).toMatchObject({
      member: 'skeptic',
      model: 'test/c',
      personality: 'skeptic',
      strategy: 'balanced',
      mode: 'consensus',
      weight: 0,
      vote_winner: false,
      config_version: '1.2.3',
    });
  });

  it('prints the hand-derived figures as JSON', async () => {
    const { code, doc, err } = await contributionsJson([], env);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(doc.sessions).toBe(4);
    expect(doc.sessionsWithBlock).toBe(3);
    expect(doc.members.map((m) => [m.member, m.satIn, m.sessions, m.credited, m.wins])).toEqual([
      ['test/b', 4, 3, 3, 1],
      ['test/a', 4, 3, 2, 1],
      ['skeptic', 3, 2, 1, 1],
    ]);
    const [b, a, skeptic] = doc.members;
    const expected: [typeof a, number, number][] = [
      [b, 0.5, 3],
      [a, 1 / 3, 3],
      [skeptic, 0.25, 2],
    ];
    for (const [member, mean, n] of expected) {
      const [lower, upper] = wilson(mean, n);
      expect(member!.meanWeight.estimate).toBeCloseTo(mean, 12);
      expect(member!.meanWeight.lower).toBeCloseTo(lower, 9);
      expect(member!.meanWeight.upper).toBeCloseTo(upper, 9);
      expect(member!.meanWeight).toMatchObject({ n, tier: 'insufficient_data' });
    }
    // By hand: 1/3 of 3 → [0.06149, 0.79234]; 0.5 of 3 → [0.12533, 0.87467].
    expect(a!.meanWeight.lower).toBeCloseTo(0.061492, 5);
    expect(b!.meanWeight.upper).toBeCloseTo(0.874666, 5);
    expect(doc.heatmap.strategies).toEqual(['balanced', 'risk-averse']);
    expect(doc.heatmap.cells.map((c) => [c.member, c.strategy, c.meanWeight.estimate, c.meanWeight.n])).toEqual([
      ['test/b', 'balanced', 0.625, 2],
      ['test/b', 'risk-averse', 0.25, 1],
      ['test/a', 'balanced', 0.375, 2],
      ['test/a', 'risk-averse', 0.25, 1],
      ['skeptic', 'balanced', 0, 1],
      ['skeptic', 'risk-averse', 0.5, 1],
    ]);
    expect(doc.store).toMatchObject({
      path: join(home, 'contributions.jsonl'),
      records: 11,
      skipped: 0,
      duplicates: 0,
      conflicts: 0,
    });
  });

  it('windows by --last and --since', async () => {
    // s3 and s4: a 0 (s4), b 1 (s4), skeptic sat in s3 only, which had no block; only s3 had a vote leader.
    const last = await contributionsJson(['--last', '2'], env);
    expect(last.doc.members.map((m) => [m.member, m.meanWeight.estimate, m.sessions, m.satIn, m.wins])).toEqual([
      ['test/b', 1, 1, 2, 0],
      ['test/a', 0, 1, 2, 0],
      ['skeptic', null, 0, 1, 1],
    ]);
    const since = await contributionsJson(['--since', '2026-11-03'], env);
    expect(since.doc.members).toEqual(last.doc.members);
    expect(since.doc.window.since).toBe('2026-11-03T00:00:00.000Z');
    // A window past the last session: the store is not empty, so no hint to run a demo.
    const c = captureIo();
    expect(
      await runCli(['contributions', '--since', '2026-12-01T00:00+01:00'], {
        version: '1.2.3',
        io: c.io,
        env,
        cwd: home,
      }),
    ).toBe(0);
    expect(c.out()).toBe(
      `No session in ${join(home, 'contributions.jsonl')} since 2026-11-30T23:00:00.000Z: try an earlier --since, or none.\n`,
    );
  });

  it('prints a table', async () => {
    const c = captureIo();
    expect(await runCli(['contributions'], { version: '1.2.3', io: c.io, env, cwd: home })).toBe(0);
    expect(c.out()).toMatch(/4 sessions \(3 with a contributors block\)/);
    expect(c.out()).toMatch(
      /test\/b[\s│]+0\.500[\s│]+\[0\.125, 0\.875\][\s│]+too little data[\s│]+3[\s│]+3[\s│]+1 of 4/,
    );
    expect(c.out()).toMatch(/skeptic[\s│]+0\.000 \(1\)[\s│]+0\.500 \(1\)/);
    expect(c.out()).toMatch(/Influence by strategy/);
  });

  it('refuses bad windows with a usage error (exit 2), in the CLI and for the server', async () => {
    for (const [args, message] of [
      [['--last', '0'], /--last/],
      [['--last', 'ten'], /--last expects a whole number/],
      [['--since', 'yesterday'], /--since expects an ISO 8601 date or time such as 2026-11-01/],
      // Real dates only: Date.parse would read these as 2 March and 2 November.
      [['--since', '2026-02-30'], /--since expects an ISO 8601 date or time.*got "2026-02-30"/],
      [['--since', '2026-11-01T24:00:00Z'], /--since expects an ISO 8601 date or time/],
    ] as const) {
      const r = await contributionsJson([...args], env);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
    }
    const t = testContext({ env });
    await expect(computeContributionsReport({ last: 1.5 }, t.ctx)).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/--last expects a whole number/) as unknown,
    });
    await expect(computeContributionsReport({ since: '2026-13-45' }, t.ctx)).rejects.toMatchObject({ code: 'USAGE' });
  });
});

describe('the consent rule of contribution records', () => {
  it('writes none at consent 0, nor with bias persistence off (and says so)', async () => {
    const cases: Record<string, string>[] = [
      { LLM_COUNCIL_BIAS_PERSISTENCE: 'true', LLM_COUNCIL_BIAS_CONSENT: '0' },
      {},
    ];
    for (const extra of cases) {
      const home = mkdtempSync(join(tmpdir(), 'council-contributions-off-'));
      const { saved } = await runScriptedSessions({ LLM_COUNCIL_HOME: home, ...extra });
      expect(saved.every((s) => s.contributions === 0)).toBe(true);
      expect(existsSync(join(home, 'contributions.jsonl'))).toBe(false);
      expect(saved[0]!.notes.join(' ')).toMatch(/nothing was saved|contribution records are off/);
      const { doc } = await contributionsJson([], { LLM_COUNCIL_HOME: home });
      expect(doc).toMatchObject({ sessions: 0, members: [] });
    }
  }, 30_000);
});

describe('council ask → council contributions (OpenRouter test server)', () => {
  const KEY = 'sk-or-v1-CONTRIB-KEY';
  const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
  let server: TestServer;
  beforeAll(async () => {
    server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
  });
  afterAll(() => server.close());

  it('records the session ask saved: each member credited 1/3, one vote leader at most', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-contributions-ask-'));
    const env = {
      OPENROUTER_BASE_URL: server.url,
      OPENROUTER_API_KEY: KEY,
      LLM_COUNCIL_HOME: home,
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
    };
    const c = captureIo();
    expect(
      await runCli(['ask', 'How do I test a legacy module?', '--models', MEMBERS.join(','), '--seed', '3', '--json'], {
        version: '1.2.3',
        io: c.io,
        env,
        cwd: home,
      }),
    ).toBe(0);
    const { doc } = await contributionsJson([], env);
    expect(doc.sessions).toBe(1);
    expect(doc.members.map((m) => m.member).sort()).toEqual(MEMBERS);
    for (const m of doc.members) expect(m.meanWeight.estimate).toBeCloseTo(1 / 3, 12);
    expect(doc.members.reduce((sum, m) => sum + m.wins, 0)).toBeLessThanOrEqual(1);
  }, 30_000);
});
