import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// Issue 30 item 5's switch, per run: `ask --no-keep-question` and `batch --no-keep-question` save the session in the
// local history without its question (config.yaml's history_questions: false does so for every run). Read from the
// history file itself, through runCli as a user types it.

const KEY = 'sk-or-v1-KEEP-QUESTION-KEY';
const MEMBERS = 'test/alpha,test/beta,test/gamma';
const SECRET = 'CANARY-PER-RUN-7d3e';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS.split(','), apiKey: KEY });
});
afterAll(() => server.close());

function cli(home: string) {
  const env = {
    OPENROUTER_BASE_URL: server.url,
    OPENROUTER_API_KEY: KEY,
    LLM_COUNCIL_HOME: home,
    LLM_COUNCIL_BIAS_CONSENT: '2',
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  return async (args: string[], cwd = home) => {
    const c = captureIo();
    const code = await runCli(args, { version: '1.2.3', io: c.io, env, cwd });
    return { code, out: c.out(), err: c.err() };
  };
}

interface HistoryLine {
  question?: string;
  session: { sessionId: string };
}

function historyLines(home: string): HistoryLine[] {
  return readFileSync(join(home, 'history.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as HistoryLine);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
  );
}

describe('the per-run switch for not keeping the question (issue 30 item 5)', () => {
  it('ask --no-keep-question saves the session without its question; the next ask keeps its own', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keep-question-ask-'));
    const run = cli(home);
    const hidden = await run([
      'ask',
      `Should we rotate the ${SECRET} keys?`,
      '--models',
      MEMBERS,
      '--no-keep-question',
    ]);
    expect(hidden.code, hidden.err).toBe(0);
    // The rest is saved as usual: the history entry, bias records and a telemetry event.
    expect(hidden.err).toMatch(/Saved history, \d+ bias records/);
    const kept = await run(['ask', 'Which queue should we use?', '--models', MEMBERS]);
    expect(kept.code, kept.err).toBe(0);

    const [first, second] = historyLines(home);
    expect(first!.question).toBeUndefined();
    expect(second!.question).toBe('Which queue should we use?');
    // Not in the history file, nor in any other file of the home.
    for (const file of filesUnder(home)) expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
    expect((await run(['history', 'show', first!.session.sessionId])).out).toContain(
      'Question: not stored (history_questions: false or --no-keep-question',
    );
  }, 60_000);

  it('batch --no-keep-question saves every session without its question', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-keep-question-batch-'));
    // The prompts and results files are the user's own, outside the council's home.
    const work = mkdtempSync(join(tmpdir(), 'council-keep-question-work-'));
    writeFileSync(join(work, 'prompts.txt'), `First ${SECRET} prompt?\nSecond ${SECRET} prompt?\n`);
    const run = cli(home);
    const batch = await run(['batch', 'prompts.txt', '--models', MEMBERS, '--no-keep-question'], work);
    expect(batch.code, batch.err).toBe(0);
    const lines = historyLines(home);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.question).toBeUndefined();
    for (const file of filesUnder(home)) expect(readFileSync(file, 'utf8'), file).not.toContain(SECRET);
  }, 60_000);

  it('ask --help names the switch and the setting that does it for every run', async () => {
    const help = await cli(mkdtempSync(join(tmpdir(), 'council-keep-question-help-')))(['ask', '--help']);
    expect(help.out).toMatch(/--no-keep-question +Keep no question in the local history for this run/);
    expect(help.out).not.toMatch(/--no-keep-question.*\(default: true\)/);
  });
});
