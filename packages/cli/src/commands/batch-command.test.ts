import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS });
});
afterAll(() => server.close());

async function run(dir: string, args: string[]) {
  const c = captureIo();
  const env = {
    OPENROUTER_BASE_URL: server.url,
    OPENROUTER_API_KEY: 'k',
    LLM_COUNCIL_HOME: join(dir, 'home'),
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  const code = await runCli(['batch', ...args], { version: '1.2.3', io: c.io, env, cwd: dir });
  return { code, out: c.out(), err: c.err() };
}

function results(
  path: string,
): { prompt_id: string; session: { leaderboard: unknown[] } | null; error: string | null }[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) => JSON.parse(l) as { prompt_id: string; session: { leaderboard: unknown[] } | null; error: string | null },
    );
}

describe('council batch against an OpenRouter-compatible server on 127.0.0.1', () => {
  it('runs every prompt with bounded concurrency, records failures, and resumes only what is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(
      join(dir, 'prompts.txt'),
      '# comments and blank lines are skipped\nFirst question?\n\nSecond question?\nPLEASE-FAIL third\nFourth question?\n',
    );
    // test/broken fails (404) and test/hang times out in every session; the others carry on.
    const first = await run(dir, [
      'prompts.txt',
      '--models',
      [...MEMBERS, 'test/broken', 'test/hang'].join(','),
      '--concurrency',
      '2',
      '--timeout',
      '700ms',
    ]);
    expect(first.code).toBe(1); // one prompt failed
    expect(first.err).toContain('Batch: 4 prompts, 0 already done, 4 to run, 2 at a time');
    const lines = results(join(dir, 'prompts.txt.results.jsonl'));
    expect(lines.map((l) => l.prompt_id).sort()).toEqual(['line-2', 'line-4', 'line-5', 'line-6']);
    expect(lines.filter((l) => l.error !== null).map((l) => l.prompt_id)).toEqual(['line-5']);
    expect(first.out).toContain('3 sessions complete, 1 failed (run again with --resume to retry them)');
    // A member dropped while the quorum held is still a complete session.
    expect(first.err).toMatch(/\] line-2 complete \(/);
    // The batch leaderboard: the three answering members, each in 3 sessions.
    expect(first.out).toMatch(/test\/alpha +│ +[\d.]+ │ \[[\d.]+, [\d.]+\] │ +3 │/);
    // Concurrency 2: at most 2 sessions × 5 first-stage calls in flight (4 sessions at once would allow 20).
    expect(server.maxInFlight).toBeLessThanOrEqual(2 * 5);
    expect(
      readFileSync(join(dir, 'home', 'history.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(3);
    const done = lines.find((l) => l.prompt_id === 'line-2')!.session as unknown as {
      excluded: { member: string; reason: string }[];
    };
    expect(done.excluded.map((x) => [x.member, x.reason])).toEqual([
      ['test/broken', 'error'],
      ['test/hang', 'timeout'],
    ]);

    const again = await run(dir, ['prompts.txt', '--models', MEMBERS.join(','), '--resume']);
    expect(again.err).toContain('Batch: 4 prompts, 3 already done, 1 to run');
    expect(again.code).toBe(1);
    // Nothing completed was redone: one more line, for the failing prompt.
    expect(results(join(dir, 'prompts.txt.results.jsonl'))).toHaveLength(5);
  }, 30_000);

  it('exit 3 when a session finished partially and none failed: each line says why, the summary names them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\nSecond question?\n');
    // The chairman fails (404) in every session: answers, reviews and leaderboard, no synthesis.
    const r = await run(dir, [
      'prompts.txt',
      '--models',
      MEMBERS.join(','),
      '--chairman',
      'test/broken',
      '--concurrency',
      '1',
    ]);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/\[1\/2\] line-1 partial: no synthesis \(/);
    expect(r.err).toMatch(/\[2\/2\] line-2 partial: no synthesis \(/);
    expect(r.out).toContain('Batch finished: 0 sessions complete, 2 partial. Results: ');
    expect(r.out).toContain('Partial: line-1 (no synthesis), line-2 (no synthesis).');
    // The sessions were ranked: the batch leaderboard is there, and no session is named as unreadable.
    expect(r.out).toContain('Cross-query leaderboard');
    expect(r.out).not.toContain('No review could be read');
    const lines = readFileSync(join(dir, 'prompts.txt.results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { session: { complete: boolean; shortfalls: string[] } });
    expect(lines.map((l) => [l.session.complete, l.session.shortfalls])).toEqual([
      [false, ['no-synthesis']],
      [false, ['no-synthesis']],
    ]);
  }, 30_000);

  it('a failed session outranks a partial one: exit 1, and the partial one is still named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(
      join(dir, 'p.jsonl'),
      '{"id": "ok", "prompt": "One?"}\n{"id": "refused", "prompt": "PLEASE-FAIL two"}\n',
    );
    const r = await run(dir, ['p.jsonl', '--models', MEMBERS.join(','), '--chairman', 'test/broken', '--json']);
    expect(r.code).toBe(1);
    const summary = JSON.parse(r.out) as {
      ran: number;
      complete: number;
      partial: { prompt_id: string; shortfalls: string[] }[];
      unreadReviews: unknown[];
      failed: number;
    };
    expect(summary).toMatchObject({ ran: 2, complete: 0, failed: 1, unreadReviews: [] });
    expect(summary.partial.map((p) => [p.prompt_id, p.shortfalls])).toEqual([['ok', ['no-synthesis']]]);
  }, 30_000);

  it('sessions whose reviews could not be read: exit 3, named in the summary, and no bias records from them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'p.jsonl'), '{"id": "q1", "prompt": "One?"}\n{"id": "q2", "prompt": "Two?"}\n');
    // Every member reviews in prose with no ranking, also when asked to repair it; test/alpha chairs and synthesises.
    const vague = 'test/vague-a,test/vague-b,test/vague-c';
    const r = await run(dir, ['p.jsonl', '--models', vague, '--chairman', 'test/alpha', '--concurrency', '1']);
    expect(r.code).toBe(3);
    const lines = readFileSync(join(dir, 'p.jsonl.results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            prompt_id: string;
            session: { sessionId: string; synthesis: unknown; complete: boolean; shortfalls: string[] };
          },
      );
    const [q1, q2] = lines.map((l) => l.session);
    expect(q1!.synthesis).not.toBeNull();
    // Whether core also leaves such a session unranked (no ballot from an unread review) is core's; what is asserted
    // here is that no review was read, so the session is partial although it has a synthesis.
    expect(q1!.complete).toBe(false);
    expect(q1!.shortfalls).toContain('no-review-read');
    expect(q1!.shortfalls).not.toContain('no-synthesis');
    expect(r.err).toMatch(/\[1\/2\] q1 partial: (not ranked; )?no review could be read \(/);
    expect(r.out).toMatch(
      /Partial: q1 \((not ranked; )?no review could be read\), q2 \((not ranked; )?no review could be read\)\./,
    );
    expect(r.out).toContain(
      `No review could be read in 2 sessions, which added no bias records: q1 (session ${q1!.sessionId}), q2 (session ${q2!.sessionId}).`,
    );
    // Bias persistence is on, yet neither session wrote a record; both are in the history.
    expect(existsSync(join(dir, 'home', 'bias_metrics.jsonl'))).toBe(false);
    expect(
      readFileSync(join(dir, 'home', 'history.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(2);
  }, 30_000);

  it('--no-synthesis: a ranked session is complete (exit 0); an unranked one is partial (exit 3, "not ranked")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\n');
    const ranked = await run(dir, [
      'prompts.txt',
      '--models',
      MEMBERS.join(','),
      '--no-synthesis',
      '--output',
      'ranked.jsonl',
    ]);
    expect(ranked.code).toBe(0);
    expect(ranked.out).toContain('Batch finished: 1 session complete. Results: ');
    const pair = await run(dir, [
      'prompts.txt',
      '--models',
      'test/alpha,test/beta',
      '--no-synthesis',
      '--output',
      'pair.jsonl',
    ]);
    expect(pair.code).toBe(3);
    expect(pair.out).toContain('Partial: line-1 (not ranked).');
  }, 30_000);

  it('refuses to overwrite a results file without --resume, and reads .jsonl prompts with ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'p.jsonl'), '{"id": "q1", "prompt": "One?"}\n{"id": "q2", "prompt": "Two?"}\n');
    const ok = await run(dir, ['p.jsonl', '--models', MEMBERS.join(','), '--json']);
    expect(ok.code).toBe(0);
    const summary = JSON.parse(ok.out) as {
      prompts: number;
      ran: number;
      failed: number;
      leaderboard: { candidate: string; appearances: number }[];
    };
    expect(summary).toMatchObject({ prompts: 2, ran: 2, failed: 0 });
    expect(summary.leaderboard.map((e) => e.appearances)).toEqual([2, 2, 2]);
    expect(
      results(join(dir, 'p.jsonl.results.jsonl'))
        .map((l) => l.prompt_id)
        .sort(),
    ).toEqual(['q1', 'q2']);
    const refused = await run(dir, ['p.jsonl', '--models', MEMBERS.join(',')]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /already holds results: pass --resume to continue it, or --output to write elsewhere\.\n$/,
    );
  }, 30_000);

  it('names the file and line of a bad prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'p.jsonl'), '{"prompt": "fine"}\n{"text": "no prompt field"}\n');
    const r = await run(dir, ['p.jsonl', '--models', MEMBERS.join(',')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `council: ${join(dir, 'p.jsonl')}:2 has no "prompt" string. Each line must be {"prompt": "…"}.\n`,
    );
  });

  it('without the provider key, fails before any session and any request, and writes no results file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\n');
    const before = server.requests.length;
    const c = captureIo();
    const env = { OPENROUTER_BASE_URL: server.url, LLM_COUNCIL_HOME: join(dir, 'home') };
    const code = await runCli(['batch', 'prompts.txt', '--models', MEMBERS.join(',')], {
      version: '1.2.3',
      io: c.io,
      env,
      cwd: dir,
    });
    expect(code).toBe(1);
    expect(c.err()).toMatch(
      /^council: No API key set: OPENROUTER_API_KEY \(for test\/alpha, test\/beta, test\/gamma\)\. /,
    );
    expect(c.err().trimEnd().split('\n')).toHaveLength(1);
    expect(server.requests.length).toBe(before);
    expect(existsSync(join(dir, 'prompts.txt.results.jsonl'))).toBe(false);
  });

  it('says there is no leaderboard yet when no session completed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\n');
    const r = await run(dir, ['prompts.txt', '--models', 'test/broken,test/hang', '--timeout', '500ms']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('0 sessions complete, 1 failed');
    expect(r.out).toContain('No session has completed, so there is no leaderboard yet.');
    expect(r.out).not.toContain('┌');
  });

  it('rejects an unknown strategy, a missing goal or an unknown provider once, with exit 2, before any session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-batch-'));
    writeFileSync(join(dir, 'prompts.txt'), 'First question?\nSecond question?\n');
    const before = server.requests.length;
    const unknown = await run(dir, ['prompts.txt', '--models', MEMBERS.join(','), '--strategy', 'reckless']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(
      /^council: Unknown strategy "reckless"\. Accepted strategies: balanced, goal-seeking, novelty, risk-averse\./,
    );
    expect(unknown.err.trimEnd().split('\n')).toHaveLength(1);
    const noGoal = await run(dir, ['prompts.txt', '--models', MEMBERS.join(','), '--strategy', 'goal-seeking']);
    expect(noGoal.code).toBe(2);
    expect(noGoal.err).toBe(
      'council: The "goal-seeking" strategy needs a goal: add --goal "what the answer should achieve".\n',
    );
    const unknownProvider = await run(dir, ['prompts.txt', '--models', `${MEMBERS.join(',')},foo:bar`]);
    expect(unknownProvider.code).toBe(2);
    expect(unknownProvider.err).toBe(
      'council: Cannot use the model "foo:bar": The model id "foo:bar" names an unknown provider "foo". Known providers: anthropic, gemini, llamacpp, lmstudio, ollama, openai, openrouter, simulated, vllm. ' +
        'Check the model ids given (--models, --chairman, --model) or LLM_COUNCIL_MODELS and LLM_COUNCIL_CHAIRMAN.\n',
    );
    expect(server.requests.length).toBe(before);
    expect(existsSync(join(dir, 'prompts.txt.results.jsonl'))).toBe(false);
  });
});
