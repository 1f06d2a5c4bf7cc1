import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { councilRequestStage } from '../testing/council-request-stage.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';

const KEY = 'sk-or-v1-CONTINUE-KEY';
const MEMBERS = 'test/alpha,test/beta,test/gamma';
const ANSWER = 'Start with characterisation tests around the riskiest module.';
const FIRST = 'How do I test a legacy module?';
const FOLLOW_UP = 'And for a Python module, which library? CANARY-FOLLOW-UP-7f3a';
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({
    contributors: ['test/alpha', 'test/beta', 'test/gamma'],
    apiKey: KEY,
    chairman: { text: ANSWER },
  });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

interface Doc {
  sessionId: string;
  conversation?: { id: string; previousSessionId: string };
}

function session(home: string) {
  // Consent 2: history, bias records and a telemetry event, so every place a query could leak is written.
  const env = {
    OPENROUTER_BASE_URL: server.url,
    OPENROUTER_API_KEY: KEY,
    LLM_COUNCIL_HOME: home,
    LLM_COUNCIL_BIAS_CONSENT: '2',
    LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
  };
  return async (args: string[]) => {
    const c = captureIo();
    const code = await runCli(['ask', ...args, '--models', MEMBERS, '--json'], {
      version: '1.2.3',
      io: c.io,
      env,
      cwd: home,
    });
    return { code, doc: code === 0 ? (JSON.parse(c.out()) as Doc) : null, err: c.err() };
  };
}

/** The user prompts of the requests in one stage, in arrival order. */
function prompts(stage: 'answer' | 'review' | 'chairman'): string[] {
  return server.requests
    .map((r) =>
      ((r.body as { messages?: { role: string; content: string }[] }).messages ?? []).map((m) => m.content).join('\n'),
    )
    .filter((p) => councilRequestStage(p) === stage);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)],
  );
}

describe('ask --continue (issue 15 item 10)', () => {
  it('a follow-up shows every member the previous synthesis as context and links the sessions by a conversation id', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-continue-'));
    const ask = session(home);
    const first = await ask([FIRST]);
    expect(first.code).toBe(0);
    expect(first.doc?.conversation).toBeUndefined();
    const firstPrompts = prompts('answer');
    expect(firstPrompts.every((p) => !p.includes('PREVIOUS ANSWER'))).toBe(true);

    server.reset();
    // The question comes as --continue's value: no session named, so it continues the last one.
    const second = await ask(['--continue', FOLLOW_UP]);
    expect(second.code).toBe(0);
    expect(second.err).toContain(
      `Continuing conversation ${first.doc!.sessionId}: the council sees the answer of session ${first.doc!.sessionId} as context.`,
    );
    expect(second.doc?.conversation).toEqual({ id: first.doc!.sessionId, previousSessionId: first.doc!.sessionId });
    const answers = prompts('answer');
    expect(answers).toHaveLength(3);
    for (const prompt of answers) {
      expect(prompt).toMatch(
        new RegExp(`<<<[a-z0-9]{16} PREVIOUS ANSWER>>>\\n${ANSWER.replace('.', '\\.')}\\n<<<[a-z0-9]{16} END>>>`),
      );
      expect(prompt).toContain(`The follow-up question:\n${FOLLOW_UP}`);
    }
    // The reviewers and the chairman judge answers to the follow-up in the same context.
    expect(prompts('review').every((p) => p.includes('PREVIOUS ANSWER') && p.includes(FOLLOW_UP))).toBe(true);
    expect(prompts('chairman').every((p) => p.includes('PREVIOUS ANSWER'))).toBe(true);

    // A third turn, after the question, keeps the conversation id and names the session it follows.
    const third = await ask(['Any pitfalls?', '--continue', 'last']);
    expect(third.doc?.conversation).toEqual({ id: first.doc!.sessionId, previousSessionId: second.doc!.sessionId });
    // A session is named by a prefix of its id too.
    const branch = await ask(['--continue', first.doc!.sessionId.slice(0, 8), 'What about C?']);
    expect(branch.doc?.conversation).toEqual({ id: first.doc!.sessionId, previousSessionId: first.doc!.sessionId });

    // Privacy: no query text in bias records or telemetry, follow-ups included; the local history alone keeps the
    // questions (issue 30 item 5: history_questions, default true).
    const files = filesUnder(home);
    expect(files.some((f) => f.endsWith('outbox.jsonl'))).toBe(true);
    expect(files.some((f) => f.includes('bias_metrics'))).toBe(true);
    expect(readFileSync(join(home, 'history.jsonl'), 'utf8')).toContain('CANARY-FOLLOW-UP');
    for (const file of files.filter((f) => f !== join(home, 'history.jsonl'))) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain('CANARY-FOLLOW-UP');
      expect(text).not.toContain(FIRST);
      expect(text).not.toContain('Any pitfalls?');
    }
    // The history line records the link.
    const history = readFileSync(join(home, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { session: Doc });
    expect(history.map((h) => h.session.conversation?.previousSessionId ?? null)).toEqual([
      null,
      first.doc!.sessionId,
      second.doc!.sessionId,
      first.doc!.sessionId,
    ]);
  }, 30_000);

  it('a follow-up keeps the council it continues (members, chairman, strategy) without LLM_COUNCIL_MODELS; flags override each (issue 30 item 4)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-continue-keep-'));
    // No LLM_COUNCIL_MODELS, no config.yaml: only the first session names its council.
    const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home };
    const ask = async (args: string[]) => {
      const c = captureIo();
      const code = await runCli(['ask', ...args, '--json'], { version: '1.2.3', io: c.io, env, cwd: home });
      const doc =
        code === 0
          ? (JSON.parse(c.out()) as Doc & { config: { members: string[]; chairman: string; strategy: string } })
          : null;
      return { code, doc, err: c.err() };
    };
    const first = await ask([
      FIRST,
      '--models',
      'test/gamma,test/alpha,test/beta',
      '--chairman',
      'test/beta',
      '--strategy',
      'risk-averse',
    ]);
    expect(first.code).toBe(0);

    server.reset();
    const second = await ask(['--continue', FOLLOW_UP]);
    expect(second.code, second.err).toBe(0);
    expect(second.doc?.config).toMatchObject({
      members: ['test/gamma', 'test/alpha', 'test/beta'],
      chairman: 'test/beta',
      strategy: 'risk-averse',
    });
    // The members answered, and the kept chairman wrote the synthesis.
    const asked = (stage: 'answer' | 'chairman') =>
      server.requests
        .filter((r) => {
          const messages = (r.body as { messages?: { content: string }[] }).messages ?? [];
          return councilRequestStage(messages.map((m) => m.content).join('\n')) === stage;
        })
        .map((r) => (r.body as { model: string }).model)
        .sort();
    expect(asked('answer')).toEqual(['test/alpha', 'test/beta', 'test/gamma']);
    expect(asked('chairman')).toEqual(['test/beta']);
    expect(second.err).toContain(
      "It keeps that session's members (test/gamma, test/alpha, test/beta), chairman (test/beta), strategy (risk-averse).",
    );

    // --strategy overrides the strategy alone; --models seats a new council, chaired by the default (its first member).
    const third = await ask(['--continue', 'last', 'Any pitfalls?', '--strategy', 'balanced']);
    expect(third.doc?.config).toMatchObject({
      members: ['test/gamma', 'test/alpha', 'test/beta'],
      chairman: 'test/beta',
      strategy: 'balanced',
    });
    const fourth = await ask(['--continue', 'last', 'And in C?', '--models', 'test/alpha,test/beta,test/gamma']);
    expect(fourth.doc?.config).toMatchObject({
      members: ['test/alpha', 'test/beta', 'test/gamma'],
      chairman: 'test/alpha',
      strategy: 'balanced',
    });
    expect(fourth.err).toContain("It keeps that session's strategy (balanced).");
  }, 30_000);

  it('nothing to continue, an unknown session and a bare --continue with no history are one usage line each, before any call', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-continue-'));
    const ask = session(home);
    const empty = await ask(['--continue', 'A follow-up?']);
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(
      /^council: Nothing to continue: the history \(.*history\.jsonl\) has no session yet\. Ask a question first/,
    );
    expect(empty.err.trim().split('\n')).toHaveLength(1);
    await ask([FIRST]);
    server.reset();
    const unknown = await ask(['--continue', 'deadbeef', 'A follow-up?']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'council: No session "deadbeef" in the history. Run "council history list" to see the ids.\n',
    );
    expect(server.requests).toHaveLength(0);
  }, 30_000);
});
