import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../eval/compute-eval-report.js';
import type { EvalJournalLine } from '../eval/eval-journal.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// The test server's members answer "Answer from <model>: write characterisation tests first. …", its chairman
// "Start with characterisation tests around the riskiest module.", and every review ranks the answers in the order
// shown with scores 9, 7, 5… (see startCouncilTestServer). Each call costs $0.001.
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS });
});
afterAll(() => server.close());

const envFor = (dir: string, url = server.url) => ({
  OPENROUTER_BASE_URL: url,
  OPENROUTER_API_KEY: 'k',
  LLM_COUNCIL_HOME: join(dir, 'home'),
  LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
});

async function run(dir: string, args: string[]) {
  const c = captureIo();
  const code = await runCli(['eval', ...args], { version: '1.2.3', io: c.io, env: envFor(dir), cwd: dir });
  return { code, out: c.out(), err: c.err() };
}

const journal = (path: string): EvalJournalLine[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EvalJournalLine);

const DATASET = [
  // alpha only: the phrase is its own id.
  { id: 'q1', question: 'Who answers first?', accept: { any_of: ['test/alpha'] } },
  // every member, and the synthesis.
  { id: 'q2', question: 'How do we start testing legacy code?', accept: { any_of: ['characterisation tests'] } },
  // alpha and beta, by a regular expression.
  { id: 'q3', question: 'Alpha or beta?', accept: { any_of: ['/from test\\/(alpha|beta)/'] } },
  // the synthesis only.
  { id: 'q4', question: 'Where should we start?', accept: { all_of: ['riskiest module'] } },
  // only a reference answer: graded by the chairman, whose reply here says neither CORRECT nor INCORRECT.
  { id: 'r1', question: 'Explain the plan.', reference: 'Characterisation tests first.' },
  {
    id: 'p1',
    question: 'Which answer is better?',
    answers: ['the first answer', 'the second answer'],
    preferred: [0, 0, 1],
  },
  { id: 's1', question: 'Rate this answer.', answer: 'A short answer.', human_score: 3 },
  { id: 's2', question: 'Rate that answer.', answer: 'A longer answer.', human_score: 8 },
];

describe('council eval against an OpenRouter-compatible server on 127.0.0.1', () => {
  it('reports accuracy worked out by hand, the council against its best member, and agreement that is undefined as such', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-eval-'));
    writeFileSync(join(dir, 'golden.jsonl'), DATASET.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const result = await run(dir, ['golden.jsonl', '--models', MEMBERS.join(','), '--json', '--bootstrap', '200']);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain('Eval: 8 items, 0 already done, 8 to run, 2 at a time');
    const report = JSON.parse(result.out) as EvalReport;
    expect(report.items).toEqual({ total: 8, done: 8, notDone: 0, withCouncil: 5, withPreference: 1, withScore: 2 });
    const member = (id: string) => report.members.find((m) => m.member === id)!;
    // Key content over q1–q4: alpha q1 q2 q3, beta q2 q3, gamma q2; the synthesis q2 q4.
    expect([member('test/alpha').keyContent.count, member('test/alpha').keyContent.n]).toEqual([3, 4]);
    expect([member('test/beta').keyContent.count, member('test/beta').keyContent.n]).toEqual([2, 4]);
    expect([member('test/gamma').keyContent.count, member('test/gamma').keyContent.n]).toEqual([1, 4]);
    expect(member('test/alpha').keyContent.estimate).toBe(0.75);
    // Wilson's interval for 3 of 4, by hand: z²/n = 3.8416/4 = 0.9604; centre (0.75 + 0.4802)/1.9604 = 0.62752;
    // half-width (1.96/1.9604)·√(0.75·0.25/4 + 0.9604/16) = 0.32689 → [0.3006, 0.9544].
    expect(member('test/alpha').keyContent.interval!.lower).toBeCloseTo(0.3006, 3);
    expect(member('test/alpha').keyContent.interval!.upper).toBeCloseTo(0.9544, 3);
    expect([report.council.count, report.council.n]).toEqual([2, 4]);
    // The chairman's reply to the grading prompt says neither word: r1 is ungraded, not counted wrong.
    expect(member('test/alpha').graded.n).toBe(0);
    // Council 2/4 against alpha's 3/4 on the same four items: −25 points.
    expect(report.councilVsBest.items).toBe(4);
    expect(report.councilVsBest.best).toEqual({ member: 'test/alpha', rate: 0.75 });
    expect(report.councilVsBest.difference.estimate).toBeCloseTo(-0.25, 12);
    // Alpha's five answers (q1–q4, r1) cost $0.005 for 3 correct: 600 correct answers per dollar.
    expect(member('test/alpha').costUsd).toBeCloseTo(0.005, 12);
    expect(member('test/alpha').correctPerDollar).toBeCloseTo(600, 6);
    // Every reviewer scores the one answer 9 whatever people gave it (3 and 8): ρ and α are undefined (null).
    for (const r of report.reviewers) {
      expect(r.scores.n).toBe(2);
      expect(r.scores.rho.estimate).toBeNull();
      expect(r.preferences.n).toBe(1);
    }
    expect(result.out).not.toContain('NaN');
    // The journal: one done line per item; the preference shown in a drawn order, and preferred as shown first.
    const lines = journal(join(dir, 'golden.jsonl.eval.jsonl'));
    expect(lines.map((l) => l.item_id).sort()).toEqual(DATASET.map((d) => d.id).sort());
    const p1 = lines.find((l) => l.item_id === 'p1')!;
    expect(p1.session).toBeNull();
    for (const j of p1.judgements) expect(j.preferred).toBe(j.shown_first);
    // Sessions were persisted like any other: the history has one per council item.
    const history = readFileSync(join(dir, 'home', 'history.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(history).toHaveLength(5);
  }, 60_000);

  it('prints the report in text, each figure in a sentence, and reports a finished run again with --resume', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-eval-'));
    writeFileSync(join(dir, 'golden.jsonl'), DATASET.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const first = await run(dir, ['golden.jsonl', '--models', MEMBERS.join(','), '--bootstrap', '100']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('Accuracy · agreement · bias');
    expect(first.out).toContain(
      "test/alpha's answer passed the key-content check on 3 of 4 (75%, 95% interval 30%–95%) items.",
    );
    expect(first.out).toContain('Is the council better than its best member?');
    expect(first.out).toContain('Spearman’s ρ is undefined on these 2 items (one side does not vary)');
    const before = server.requests.length;
    const again = await run(dir, ['golden.jsonl', '--models', MEMBERS.join(','), '--bootstrap', '100']);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/already holds an eval run: pass --resume/);
    const resumed = await run(dir, ['golden.jsonl', '--models', MEMBERS.join(','), '--bootstrap', '100', '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.err).toContain('Eval: 8 items, 8 already done, 0 to run');
    expect(server.requests.length).toBe(before);
    expect(resumed.out).toBe(first.out);
  }, 60_000);

  it('takes sessions already run (--sessions) for the items whose questions they answered, asking no member again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-eval-'));
    const councilItems = DATASET.filter((d) => d.id.startsWith('q'));
    writeFileSync(join(dir, 'golden.jsonl'), councilItems.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const first = await run(dir, ['golden.jsonl', '--models', MEMBERS.join(','), '--json', '--bootstrap', '100']);
    expect(first.code, first.err).toBe(0);
    const ids = journal(join(dir, 'golden.jsonl.eval.jsonl')).map((l) => l.session!.sessionId);
    // Three of the four sessions: the fourth item is left out and said so.
    const before = server.requests.length;
    const taken = await run(dir, [
      'golden.jsonl',
      '--sessions',
      ids.slice(0, 3).join(','),
      '--output',
      'taken.jsonl',
      '--json',
      '--bootstrap',
      '100',
    ]);
    expect(taken.code, taken.err).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(taken.err).toContain(
      '--sessions: 3 sessions answer their items; 1 item with key content or a reference answer no given session answers is left out.',
    );
    const report = JSON.parse(taken.out) as EvalReport;
    // The same answers, checked the same way (by hand, as above): alpha passes q1 q2 q3, beta q2 q3, gamma q2.
    const takenItems = journal(join(dir, 'taken.jsonl')).map((l) => l.item_id);
    const passes: Record<string, string[]> = {
      'test/alpha': ['q1', 'q2', 'q3'],
      'test/beta': ['q2', 'q3'],
      'test/gamma': ['q2'],
    };
    for (const m of report.members) {
      expect(m.keyContent.n).toBe(3);
      expect(m.keyContent.count).toBe(takenItems.filter((id) => passes[m.member]!.includes(id)).length);
    }
    const unknown = await run(dir, ['golden.jsonl', '--sessions', 'no-such-session', '--output', 'x.jsonl']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/--sessions: no session no-such-session in the history/);
  }, 60_000);

  it("with --both-orders, shows each pair both ways round: the server's judges, who always prefer what is shown first, are never position-consistent and their preferences count as ties", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-eval-'));
    writeFileSync(join(dir, 'pairs.jsonl'), JSON.stringify(DATASET[5]) + '\n');
    const before = server.requests.length;
    const result = await run(dir, [
      'pairs.jsonl',
      '--models',
      MEMBERS.join(','),
      '--both-orders',
      '--json',
      '--bootstrap',
      '0',
    ]);
    expect(result.code, result.err).toBe(0);
    // Two reviews per judge: 3 judges × 2 orders.
    expect(server.requests.length - before).toBe(6);
    const report = JSON.parse(result.out) as EvalReport;
    for (const r of report.reviewers) {
      expect([r.preferences.consistency.count, r.preferences.consistency.n]).toEqual([0, 1]);
      // People's votes [0, 0, 1] make 0 the majority; the judge's tie disagrees.
      expect([r.preferences.agreement.count, r.preferences.agreement.n]).toEqual([0, 1]);
    }
    const [line] = journal(join(dir, 'pairs.jsonl.eval.jsonl'));
    for (const j of line!.judgements) expect([j.preferred, j.consistent]).toEqual(['tie', false]);
  }, 60_000);

  it('keeps no question in the history with --no-keep-question, as ask and batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-eval-'));
    writeFileSync(join(dir, 'one.jsonl'), JSON.stringify(DATASET[1]) + '\n');
    const result = await run(dir, [
      'one.jsonl',
      '--models',
      MEMBERS.join(','),
      '--no-keep-question',
      '--bootstrap',
      '0',
    ]);
    expect(result.code, result.err).toBe(0);
    const [entry] = readFileSync(join(dir, 'home', 'history.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(entry!)).not.toHaveProperty('question');
  }, 60_000);

  it('refuses bad datasets before any model is called, naming the line and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-eval-'));
    const before = server.requests.length;
    writeFileSync(
      join(dir, 'bad.jsonl'),
      '{"id": "a", "question": "Q", "answers": ["x", "y"], "preferred": "first"}\n',
    );
    const bad = await run(dir, ['bad.jsonl', '--models', MEMBERS.join(',')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(
      /bad\.jsonl:1: field "preferred" must be 0 \(the first answer\), 1 \(the second\) or "tie"/,
    );
    // A --grader whose provider has no key is refused before any call, as a member's is (exit 1, naming the key).
    writeFileSync(join(dir, 'ref.jsonl'), JSON.stringify(DATASET[4]) + '\n');
    const grader = await run(dir, ['ref.jsonl', '--models', MEMBERS.join(','), '--grader', 'anthropic:claude-x']);
    expect(grader.code).toBe(1);
    expect(grader.err).toMatch(/No API key set: ANTHROPIC_API_KEY \(for anthropic:claude-x\)/);
    writeFileSync(join(dir, 'prompts.txt'), 'How do I write tests?\nWhat is a backup?\n');
    const notDataset = await run(dir, ['prompts.txt', '--models', MEMBERS.join(',')]);
    expect(notDataset.code).toBe(2);
    expect(notDataset.err).toMatch(/prompts\.txt is not an eval dataset/);
    expect(server.requests.length).toBe(before);
  });
});

describe('council eval killed with SIGKILL mid-run', () => {
  it('resumes with nothing asked or counted twice', async () => {
    // A slow server (each reply waits), so the kill lands while items are in flight.
    const slow = await startCouncilTestServer({ contributors: MEMBERS, delayMs: 150 });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'council-eval-kill-'));
      const items = Array.from({ length: 8 }, (_, i) => ({
        id: `k${i}`,
        question: `Kill question number ${i}?`,
        accept: { any_of: ['characterisation tests'] },
      }));
      writeFileSync(join(dir, 'kill.jsonl'), items.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const path = join(dir, 'kill.jsonl.eval.jsonl');
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(new URL('../eval/__fixtures__/run-cli-child.mts', import.meta.url)),
          dir,
          'eval',
          'kill.jsonl',
          '--models',
          MEMBERS.join(','),
          '--concurrency',
          '2',
        ],
        { env: { PATH: process.env.PATH ?? '', ...envFor(dir, slow.url) }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      // Kill it once two items are in the journal (polled: the run's own pace decides when).
      await expect
        .poll(() => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0), {
          timeout: 60_000,
          interval: 20,
        })
        .toBeGreaterThanOrEqual(2);
      child.kill('SIGKILL');
      expect(await exited, stderr).toBe('SIGKILL');
      const doneBefore = new Set(journal(path).map((l) => l.item_id));
      expect(doneBefore.size).toBeLessThan(items.length);
      const killedAt = slow.requests.length;

      const c = captureIo();
      const code = await runCli(
        ['eval', 'kill.jsonl', '--models', MEMBERS.join(','), '--resume', '--json', '--bootstrap', '100'],
        {
          version: '1.2.3',
          io: c.io,
          env: envFor(dir, slow.url),
          cwd: dir,
        },
      );
      expect(code, c.err()).toBe(0);
      // No item done before the kill was asked again.
      const askedAfter = slow.requests.slice(killedAt).map((r) => JSON.stringify(r.body));
      for (const id of doneBefore) {
        const question = items.find((i) => i.id === id)!.question;
        expect(askedAfter.some((b) => b.includes(question))).toBe(false);
      }
      // Every item counted once: 8 items, each member's answer checked once per item.
      const report = JSON.parse(c.out()) as EvalReport;
      expect(report.items.done).toBe(8);
      for (const m of report.members) expect([m.keyContent.count, m.keyContent.n]).toEqual([8, 8]);
      expect(report.council.n).toBe(8);
    } finally {
      await slow.close();
    }
  }, 120_000);
});
