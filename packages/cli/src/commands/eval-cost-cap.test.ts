import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvalReport } from '../eval/compute-eval-report.js';
import type { EvalJournalLine } from '../eval/eval-journal.js';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// Every call to the test server reports 100 input and 50 output tokens and $0.001: $0.001 / 150 tokens for every
// model. A session of three members: 3 answers, 3 reviews, 1 synthesis = $0.007. Its own checks (as ask-limits
// works out): before stage 2, $0.003 spent + $0.006 estimated = $0.009; before stage 3, $0.006 + $0.003 = $0.009.
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function run(dir: string, args: string[]) {
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: 'k', LLM_COUNCIL_HOME: join(dir, 'home') };
  const code = await runCli(['eval', 'golden.jsonl', '--models', MEMBERS.join(','), '--concurrency', '1', ...args], {
    version: '1.2.3',
    io: c.io,
    env,
    cwd: dir,
  });
  return { code, out: c.out(), err: c.err() };
}

function dataset(items: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'council-eval-cap-'));
  writeFileSync(join(dir, 'golden.jsonl'), items.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return dir;
}

const journal = (dir: string): EvalJournalLine[] =>
  readFileSync(join(dir, 'golden.jsonl.eval.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EvalJournalLine);

describe('council eval --max-cost covers the grader and the judges (issue 31)', () => {
  it("stops before the grader's call that would pass an item's cap; --resume asks nothing more and counts nothing twice", async () => {
    const dir = dataset([{ id: 'r1', question: 'Explain the plan.', reference: 'Characterisation tests first.' }]);
    // Cap $0.0091: the session's checks ($0.009) pass and it costs $0.007. The grader (the chairman, test/alpha) is
    // then asked about 4 answers, each estimated before it is made as its prompt (~600–750 characters, about 4 a
    // token) plus a reply — as long as the graded answer (alpha's: 60 characters) until the grader's replies are
    // seen, then theirs (50 tokens) — at $0.001/150 a token: the first ≈ (148 + 15) tokens ≈ $0.0011, $0.0081 in all;
    // made, it costs $0.001. The second (beta's answer, 204 characters) ≈ (184 + 50) tokens ≈ $0.0016 on $0.008
    // spent passes $0.0091: it and the two after it are not made.
    const first = await run(dir, ['--max-cost', '0.0091', '--json', '--bootstrap', '50']);
    expect(first.code, first.err).toBe(0);
    expect(server.requests).toHaveLength(7 + 1);
    const [line] = journal(dir);
    expect(line!.grades.map((g) => [g.target, g.cost_usd, g.error])).toEqual([
      ['test/alpha', 0.001, null],
      ['test/beta', 0, 'not made: the cost cap stopped the item before it'],
      ['test/gamma', 0, 'not made: the cost cap stopped the item before it'],
      ['council', 0, 'not made: the cost cap stopped the item before it'],
    ]);
    expect(line!.cost_cap?.max_cost_usd).toBe(0.0091);
    expect(line!.cost_cap?.spent_usd).toBeCloseTo(0.008, 12);
    expect(line!.cost_cap?.stopped_before).toBe("the grader's call on test/beta's answer of r1");
    expect(line!.cost_cap?.message).toMatch(
      /^Stopped by the cost cap before the grader's call on test\/beta's answer of r1: \$0\.0080 spent and about \$0\.00\d\d more estimated for it, \$0\.0\d{3} in all, over the \$0\.0091 cap\./,
    );
    expect(first.err).toContain('r1 done');
    expect(first.err).toContain("Stopped by the cost cap before the grader's call on test/beta's answer of r1");
    expect(first.err).toContain('the cost cap of $0.0091 stopped 1 item before all its calls were made');
    const report = JSON.parse(first.out) as EvalReport;
    expect(report.cost.sessionsUsd).toBeCloseTo(0.007, 12);
    expect(report.cost.gradingUsd).toBeCloseTo(0.001, 12);
    // No judging calls: nothing spent on them.
    expect(report.cost.judgingUsd).toBe(0);
    expect(report.cost.totalUsd).toBeCloseTo(0.008, 12);
    expect([report.cost.itemsCapped, report.cost.notMade]).toEqual([1, 3]);
    // The grader's one reply says neither word: graded by nobody, and the three not made count neither way.
    expect(report.members.find((m) => m.member === 'test/alpha')!.graded.n).toBe(0);
    expect(report.sentences).toContain(
      "The run cost $0.0080: $0.0070 for the sessions, $0.0010 for grading and $0.0000 for the judges' reviews. The cost cap of $0.0091 an item stopped 1 item before all its calls were made: 3 grades or judgements not made, counted neither right nor wrong.",
    );

    // --resume: the item is done (stopped by the cap, as a session stopped by its cap is done); nothing is asked,
    // and the cost is the journal's, once.
    server.reset();
    const again = await run(dir, ['--max-cost', '0.0091', '--resume', '--json', '--bootstrap', '50']);
    expect(again.code, again.err).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect((JSON.parse(again.out) as EvalReport).cost).toEqual(report.cost);
  }, 60_000);

  it("stops before the judges' review that would pass the cap, counting the reviews in flight; without a cap every call is made and counted", async () => {
    const items = [
      { id: 'q1', question: 'How do we start testing legacy code?', accept: { any_of: ['characterisation tests'] } },
      {
        id: 'p1',
        question: 'Which answer is better?',
        answers: ['the first answer', 'the second answer'],
        preferred: 0,
      },
    ];
    const dir = dataset(items);
    // q1's session (cap $0.01: its checks, $0.009, pass) costs $0.007 and teaches the prices: $0.001/150 a token,
    // each member's reviews 50 tokens long. p1 (--both-orders): six reviews, listed alpha, alpha swapped, beta, beta
    // swapped, gamma, gamma swapped, all sent at once, so each is checked against what the ones before it are
    // estimated at. Each is asked for as structured output, as stage 2 asks: the evaluation prompt with two short
    // answers (~1,200 characters, ~300 tokens) + a 50-token reply ≈ 350 tokens ≈ $0.0023; four make ≈ $0.0093 ≤
    // $0.01, a fifth ≈ $0.0117 does not — gamma's first review, and so its second.
    const capped = await run(dir, ['--max-cost', '0.01', '--both-orders', '--json', '--bootstrap', '50']);
    expect(capped.code, capped.err).toBe(0);
    expect(server.requests).toHaveLength(7 + 4);
    const p1 = journal(dir).find((l) => l.item_id === 'p1')!;
    expect(p1.session).toBeNull();
    expect(p1.judgements.map((j) => [j.reviewer, j.error === null, j.cost_usd])).toEqual([
      ['test/alpha', true, 0.002],
      ['test/beta', true, 0.002],
      ['test/gamma', false, 0],
    ]);
    expect(p1.judgements[2]!.preferred).toBeNull();
    expect(p1.cost_cap?.stopped_before).toBe("test/gamma's review of p1's two answers");
    expect(p1.cost_cap?.spent_usd).toBeCloseTo(0.004, 12);
    expect(p1.cost_cap?.message).toMatch(/: \$0\.0093 spent or committed and about \$0\.0023 more estimated for it/);
    const report = JSON.parse(capped.out) as EvalReport;
    expect(report.cost.totalUsd).toBeCloseTo(0.011, 12);
    expect(report.cost.judgingUsd).toBeCloseTo(0.004, 12);
    // Gamma's judgement is not made.
    expect([report.cost.itemsCapped, report.cost.notMade]).toEqual([1, 1]);
    expect(report.reviewers.find((r) => r.reviewer === 'test/beta')!.preferences.n).toBe(1);
    expect(report.reviewers.find((r) => r.reviewer === 'test/gamma')!.preferences.n).toBe(0);
    // The reviews were asked for as structured output (core's council_review schema), as the sessions' are.
    const judged = server.requests.slice(7);
    for (const r of judged)
      expect(
        (r.body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema?.name,
      ).toBe('council_review');

    // No cap: the six reviews are made, and the run costs $0.007 + $0.006.
    server.reset();
    const free = await run(dataset(items), ['--both-orders', '--json', '--bootstrap', '50']);
    expect(free.code, free.err).toBe(0);
    expect(server.requests).toHaveLength(7 + 6);
    const all = JSON.parse(free.out) as EvalReport;
    expect(all.cost.totalUsd).toBeCloseTo(0.013, 12);
    expect([all.cost.maxCostUsd, all.cost.itemsCapped, all.cost.notMade]).toEqual([null, 0, 0]);
  }, 60_000);

  it("on --resume the journal's sessions price the models: a judged item added since is capped from its first call", async () => {
    const q1 = {
      id: 'q1',
      question: 'How do we start testing legacy code?',
      accept: { any_of: ['characterisation tests'] },
    };
    const p1 = {
      id: 'p1',
      question: 'Which answer is better?',
      answers: ['the first answer', 'the second answer'],
      preferred: 0,
    };
    const dir = dataset([q1]);
    expect((await run(dir, ['--max-cost', '0.01', '--json', '--bootstrap', '50'])).code).toBe(0);
    // p1 added, and the run resumed: no call of this process has reported a cost when p1's six reviews are checked,
    // but q1's session in the journal has ($0.001/150 a token, 50-token reviews): as worked out above, four of them.
    writeFileSync(join(dir, 'golden.jsonl'), [q1, p1].map((d) => JSON.stringify(d)).join('\n') + '\n');
    server.reset();
    const resumed = await run(dir, ['--max-cost', '0.01', '--both-orders', '--resume', '--json', '--bootstrap', '50']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(resumed.err).not.toContain('could not be applied');
    expect(journal(dir).find((l) => l.item_id === 'p1')!.cost_cap?.stopped_before).toBe(
      "test/gamma's review of p1's two answers",
    );
  }, 60_000);

  it('a judged item before any provider reported a cost is not capped, and says so', async () => {
    const dir = dataset([
      {
        id: 'p1',
        question: 'Which answer is better?',
        answers: ['the first answer', 'the second answer'],
        preferred: 0,
      },
    ]);
    const r = await run(dir, ['--max-cost', '0.0001', '--json', '--bootstrap', '50']);
    expect(r.code, r.err).toBe(0);
    // Nothing priced yet: the three reviews are made, and the note says the cap could not be applied to them.
    expect(server.requests).toHaveLength(3);
    expect(r.err).toContain('the cost cap could not be applied to every grading and judging call');
    expect((JSON.parse(r.out) as EvalReport).cost.judgingUsd).toBeCloseTo(0.003, 12);
  }, 60_000);
});
