import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

// Issue 30 item 5: the local history keeps the user's questions (titles, conversations, search), and nothing else
// does; history_questions: false keeps none. Everything through runCli, as a user types it.

const KEY = 'sk-or-v1-HISTORY-QUESTIONS-KEY';
const MEMBERS = 'test/alpha,test/beta,test/gamma';
const CANARY = 'CANARY-QUESTION-91c4';
const FIRST = `How do I test a legacy billing module? ${CANARY}\nIt has no tests and 4,000 lines.`;
const FOLLOW_UP = 'Which module first?';
const OTHER = 'What is a good name for a cat?';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS.split(','), apiKey: KEY });
});
afterAll(() => server.close());

function cli(home: string) {
  // Consent 2 with bias records on: history, bias records, contributions and a telemetry event are all written.
  const env = {
    OPENROUTER_BASE_URL: server.url,
    OPENROUTER_API_KEY: KEY,
    LLM_COUNCIL_HOME: home,
    LLM_COUNCIL_BIAS_CONSENT: '2',
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  return async (args: string[]) => {
    const c = captureIo();
    const code = await runCli(args, { version: '1.2.3', io: c.io, env, cwd: home });
    return { code, out: c.out(), err: c.err() };
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
  );
}

async function askThree(run: ReturnType<typeof cli>): Promise<string[]> {
  const ids: string[] = [];
  for (const args of [[FIRST], ['--continue', 'last', FOLLOW_UP], [OTHER]]) {
    const asked = await run(['ask', ...args, '--models', MEMBERS, '--json']);
    expect(asked.code, asked.err).toBe(0);
    ids.push((JSON.parse(asked.out) as { sessionId: string }).sessionId);
  }
  return ids;
}

describe('the history keeps the questions (issue 30 item 5)', () => {
  it('lists titles with follow-ups under their conversation, searches the questions and shows the question', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-history-questions-'));
    const run = cli(home);
    const [first, second, third] = await askThree(run);

    const list = await run(['history']);
    expect(list.code).toBe(0);
    // The title is the question's first line; the follow-up sits under the question that started its conversation,
    // and the conversation comes after the newer cat question.
    const rows = list.out.split('\n');
    const at = (text: string) => rows.findIndex((r) => r.includes(text));
    expect(at('What is a good name for a cat?')).toBeGreaterThan(-1);
    expect(at(`How do I test a legacy billing module? ${CANARY}`)).toBeGreaterThan(
      at('What is a good name for a cat?'),
    );
    expect(at(`↳ ${FOLLOW_UP}`)).toBe(at(`How do I test a legacy billing module?`) + 1);
    expect(list.out).not.toContain('It has no tests');
    expect(list.out).toContain('3 of 3 sessions.');

    const json = JSON.parse((await run(['history', '--json'])).out) as {
      sessionId: string;
      title: string;
      conversation: string;
    }[];
    expect(json.map((e) => [e.sessionId, e.title, e.conversation])).toEqual([
      [third, OTHER, third],
      [second, FOLLOW_UP, first],
      [first, `How do I test a legacy billing module? ${CANARY}`, first],
    ]);

    const found = await run(['history', 'search', 'LEGACY billing']);
    expect(found.out).toContain(first!.slice(0, 8));
    expect(found.out).not.toContain(third!.slice(0, 8));
    expect(found.out).toContain('1 of 1 session whose question contains "LEGACY billing" (of 3).');
    // Unquoted, the words after `search` are its text all the same.
    expect((await run(['history', 'search', 'LEGACY', 'billing'])).out).toBe(found.out);
    const none = await run(['history', 'search', 'dog']);
    expect(none.out).toBe('No question in the history contains "dog".\n');

    const two = await run(['history', 'show', first!.slice(0, 8), 'extra']);
    expect(two.code).toBe(2);
    expect(two.err).toContain(`history show takes one session id, not 2 words ("${first!.slice(0, 8)} extra")`);

    const shown = await run(['history', 'show', first!.slice(0, 8)]);
    expect(shown.out).toContain(`Question: ${FIRST}\n`);
    const follow = await run(['history', 'show', second!]);
    expect(follow.out).toContain(`Follow-up of ${first}`);
    expect(follow.out).toContain(`Question: ${FOLLOW_UP}\n`);
  }, 60_000);

  it('the question reaches the history alone: never bias records, contributions, the telemetry outbox or a log', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-history-private-'));
    await askThree(cli(home));
    const files = filesUnder(home);
    expect(files.some((f) => f.includes('bias_metrics'))).toBe(true);
    expect(files.some((f) => f.includes('contributions'))).toBe(true);
    expect(files.some((f) => f.endsWith('outbox.jsonl'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (file === join(home, 'history.jsonl')) expect(text).toContain(CANARY);
      else {
        expect(text, file).not.toContain(CANARY);
        expect(text, file).not.toContain(FOLLOW_UP);
        expect(text, file).not.toContain('good name for a cat');
      }
    }
  }, 60_000);

  it('history_questions: false in config.yaml keeps none; such sessions say so, and search finds nothing in them', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-history-off-'));
    writeFileSync(join(home, 'config.yaml'), 'history_questions: false\n');
    const run = cli(home);
    const [first] = await askThree(run);
    for (const file of filesUnder(home)) expect(readFileSync(file, 'utf8'), file).not.toContain(CANARY);
    const list = await run(['history']);
    expect(list.out).toContain('(question not stored)');
    expect(list.out).toContain('↳ (question not stored)');
    expect((await run(['history', 'show', first!])).out).toContain(
      'Question: not stored (history_questions: false or --no-keep-question, or saved before questions were kept)',
    );
    expect((await run(['history', 'search', 'legacy'])).out).toBe(
      'No question in the history contains "legacy" (3 of 3 sessions kept no question).\n',
    );
    // config show names the switch as it applies.
    expect((await run(['config', 'show'])).out).toMatch(/history questions\s+not kept \(history_questions: false\)/);
    const shown = JSON.parse((await run(['config', 'show', '--json'])).out) as {
      council: { historyQuestions: boolean };
    };
    expect(shown.council.historyQuestions).toBe(false);
  }, 60_000);
});
