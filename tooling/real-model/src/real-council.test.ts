// A whole council on a real model, through the built `council` executable: four members and a chairman, all
// SmolLM2-135M behind the fixture (the llamacpp provider), with bias records on. Asserts what any real run
// guarantees — the session completes, every review is read, the records are written — never the model's words.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealModelServer } from './real-model-server.js';
import type { RealModelServer } from './real-model-server.js';
import { requireBuiltCli, requireRealModel } from './real-model-test-setup.js';
import { runCouncilCli } from './run-council-cli.js';
import type { CouncilCliRun } from './run-council-cli.js';

const members = ['llamacpp:smollm2-a', 'llamacpp:smollm2-b', 'llamacpp:smollm2-c', 'llamacpp:smollm2-d'];
const chairman = 'llamacpp:smollm2-chair';
// Nine model calls, one at a time, on a 2-core machine shared with other work.
const councilTimeout = 30 * 60_000;

let server: RealModelServer;
let home: string;
let cliPath: string;
let run: CouncilCliRun;

beforeAll(async () => {
  cliPath = requireBuiltCli();
  server = await startRealModelServer({ modelPath: requireRealModel() });
  home = mkdtempSync(join(tmpdir(), 'council-real-'));
  run = await runCouncilCli({
    cliPath,
    question: 'Why do we have seasons on Earth? Explain briefly.',
    members,
    chairman,
    baseURL: server.baseURL,
    home,
  });
}, councilTimeout);

afterAll(async () => {
  await server?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

function explain(): string {
  return `council exited ${String(run.exitCode)} after ${(run.wallMs / 1000).toFixed(0)} s; its stderr ends:\n${run.stderr.slice(-3000)}`;
}

function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a whole council of SmolLM2-135M through the built council executable', () => {
  it('exits 0 with a complete session: 4 answers, 4 reviews read, a leaderboard of 4, a synthesis', () => {
    expect(run.exitCode, explain()).toBe(0);
    const session = run.session;
    expect(session, `stdout was not one JSON document: ${run.stdout.slice(0, 500)}`).toBeDefined();
    if (!session) return;

    expect(session.stage1).toHaveLength(4);
    expect(session.stage1.map((answer) => answer.member).sort()).toEqual([...members].sort());
    for (const answer of session.stage1) {
      expect(answer.error ?? null, `${answer.member}'s answer failed`).toBeNull();
      expect(typeof answer.text).toBe('string');
      expect(answer.text?.trim().length, `${answer.member} answered nothing`).toBeGreaterThan(0);
    }

    expect(session.stage2).toHaveLength(4);
    for (const review of session.stage2) {
      expect(review.error ?? null, `${review.reviewer}'s review failed`).toBeNull();
      expect(review.readPath, `${review.reviewer}'s review has no readPath`).toBeDefined();
      expect(review.readPath, `${review.reviewer}'s review was not read`).not.toBe('unread');
    }

    expect(session.leaderboard).toHaveLength(4);
    expect(session.leaderboard.map((row) => row.candidate).sort()).toEqual([...members].sort());
    expect(typeof session.synthesis?.text).toBe('string');
    expect(session.synthesis?.text?.trim().length).toBeGreaterThan(0);
  });

  it('asked the fixture for every call: 4 answers, 4 reviews (and any repairs), 1 synthesis, each named by its model id', () => {
    const asked = server.stats().map((s) => s.model);
    for (const id of [...members, chairman]) expect(asked, explain()).toContain(id.replace(/^llamacpp:/, ''));
    expect(asked.length).toBeGreaterThanOrEqual(9);
  });

  it("writes the session's bias records: one parseable line per reviewer and candidate shown", () => {
    const session = run.session;
    expect(session, explain()).toBeDefined();
    if (!session) return;
    const records = jsonLines(join(home, 'bias_metrics.jsonl')).filter(
      (record) => record.session_id === session.sessionId,
    );
    const shown = session.stage2.flatMap((review) =>
      review.order.map((candidate) => `${review.reviewer} → ${candidate}`),
    );
    expect(records.map((record) => `${String(record.reviewer_id)} → ${String(record.model_id)}`).sort()).toEqual(
      shown.sort(),
    );
  });

  it('adds the session to history.jsonl', () => {
    const session = run.session;
    expect(session, explain()).toBeDefined();
    if (!session) return;
    const entries = jsonLines(join(home, 'history.jsonl'));
    expect(
      entries.some((entry) => (entry.session as { sessionId?: string } | undefined)?.sessionId === session.sessionId),
    ).toBe(true);
  });
});
