import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import { describePersist } from './ask-command.js';

const KEY = 'sk-or-v1-ASK-KEY-CANARY';
const QUERY = 'CANARY-QUERY-7d1f: how do I add tests to a legacy billing module?';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
let server: TestServer;

beforeAll(async () => {
  server = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY });
});
afterAll(() => server.close());

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

async function ask(args: string[], extraEnv: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'council-ask-'));
  const c = captureIo();
  const env = { OPENROUTER_BASE_URL: server.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_HOME: home, ...extraEnv };
  const code = await runCli(['ask', QUERY, ...args], { version: '1.2.3', io: c.io, env, cwd: home });
  return { code, out: c.out(), err: c.err(), home };
}

describe('council ask against an OpenRouter-compatible server on 127.0.0.1', () => {
  it('goes on without a member that fails and one that times out, and prints the answer, attribution, leaderboard and indicators', async () => {
    const r = await ask([
      '--models',
      [...MEMBERS, 'test/broken', 'test/hang'].join(','),
      '--chairman',
      'test/alpha',
      '--timeout',
      '1s',
      '--seed',
      '3',
    ]);
    expect(r.err).not.toMatch(/council: /);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Start with characterisation tests around the riskiest module.');
    // Three contributors with equal weights of one third each.
    expect(r.out).toContain('Synthesised from: test/alpha (33%), test/beta (33%), test/gamma (33%)');
    expect(r.out).toMatch(/Excluded: test\/broken at stage 1 \(error\)/);
    expect(r.out).toMatch(/Excluded: test\/hang at stage 1 \(timeout\)/);
    expect(r.out).toMatch(/Bias indicators \(one session: indicators, not proof\): position variance/);
    for (const m of MEMBERS) expect(r.out).toMatch(new RegExp(`│ +\\d │ ${m.replace('/', '\\/')} `));
    expect(r.out).not.toContain('\u001b['); // not a terminal: no colour, no live display
    expect(r.err).not.toContain('\u001b[');
    expect(r.out + r.err).not.toContain(KEY);
    expect(r.out + r.err).not.toContain('CANARY-QUERY');
  }, 20_000);

  it('--json prints one document with the documented top level, and nothing else on stdout', async () => {
    const r = await ask(['--models', [...MEMBERS, 'test/broken'].join(','), '--json', '--seed', '5']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as Record<string, unknown> & {
      stage2: { reviewer: string; order: string[]; evaluation: { ranking: string[] } }[];
      leaderboard: { candidate: string; voteCount: number; winCount: number }[];
      excluded: { member: string; stage: number; reason: string }[];
    };
    expect(Object.keys(doc)).toEqual([
      'sessionId',
      'timestamp',
      'config',
      'stage1',
      'stage2',
      'leaderboard',
      'agreement',
      'synthesis',
      'biasAudit',
      'biasIndicators',
      'excluded',
      'usage',
      'warnings',
      'complete',
      'shortfalls',
    ]);
    expect(doc.excluded).toEqual([expect.objectContaining({ member: 'test/broken', stage: 1, reason: 'error' })]);
    // A member dropped while three answered, reviewed and were synthesised: nothing asked for is missing.
    expect([doc['complete'], doc['shortfalls']]).toEqual([true, []]);
    expect(r.err).not.toContain('Partial session');
    // The server ranks labels in the order shown, so each reviewer's ranking is the order it saw.
    expect(doc.stage2).toHaveLength(3);
    for (const review of doc.stage2) expect(review.evaluation.ranking).toEqual(review.order);
    // Three ballots, self-votes excluded: each candidate gets 2 votes, and there are 3 first places in all.
    expect(doc.leaderboard.map((e) => e.voteCount)).toEqual([2, 2, 2]);
    expect(doc.leaderboard.reduce((n, e) => n + e.winCount, 0)).toBe(3);
    expect(r.out).not.toContain('CANARY-QUERY');
  }, 20_000);

  it('saves by consent: history, 9 bias records, 3 contribution records and an outbox event at consent 2, the query text in the local history alone, never the key', async () => {
    const r = await ask(['--models', MEMBERS.join(',')], {
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
      LLM_COUNCIL_BIAS_CONSENT: '2',
    });
    expect(r.code).toBe(0);
    // One contribution record per member that answered a session with a synthesis (§7): the three members.
    expect(r.err).toContain(
      'Saved history, 9 bias records, 3 contribution records, a telemetry event (sent by `council telemetry upload`) at consent level 2 (anonymous).',
    );
    const lines = (f: string) => readFileSync(join(r.home, f), 'utf8').trim().split('\n');
    expect(lines('contributions.jsonl')).toHaveLength(3);
    // 3 reviewers × 3 candidates (each reviewer also sees its own answer, so self-preference can be measured).
    expect(lines('bias_metrics.jsonl')).toHaveLength(9);
    expect(lines('history.jsonl')).toHaveLength(1);
    expect(lines('telemetry/outbox.jsonl')).toHaveLength(1);
    const event = JSON.parse(lines('telemetry/outbox.jsonl')[0]!) as Record<string, unknown>;
    expect(Object.keys(event).sort()).toEqual([
      'consent_level',
      'event_id',
      'rankings',
      'schema_version',
      'session_id',
      'timestamp',
    ]);
    // The question is kept in the local history (issue 30 item 5: history_questions, default true) and nowhere else.
    for (const file of filesUnder(r.home)) {
      const bytes = readFileSync(file, 'utf8');
      if (file === join(r.home, 'history.jsonl')) expect(bytes, file).toContain('CANARY-QUERY');
      else expect(bytes, file).not.toContain('CANARY-QUERY');
      expect(bytes, file).not.toContain(KEY);
    }
  }, 20_000);

  it('writes nothing with --no-persist, and nothing at consent 0', async () => {
    const a = await ask(['--models', MEMBERS.join(','), '--no-persist'], { LLM_COUNCIL_BIAS_PERSISTENCE: 'true' });
    expect(a.code).toBe(0);
    expect(filesUnder(a.home)).toEqual([]);
    const b = await ask(['--models', MEMBERS.join(',')], {
      LLM_COUNCIL_BIAS_PERSISTENCE: 'true',
      LLM_COUNCIL_BIAS_CONSENT: '0',
    });
    expect(b.code).toBe(0);
    expect(b.err).toContain('Nothing saved (consent level 0).');
    expect(filesUnder(b.home)).toEqual([]);
  }, 20_000);

  it('fails with exit 1 and one line when the quorum is not met', async () => {
    const r = await ask(['--models', 'test/broken,test/hang', '--timeout', '500ms']);
    expect(r.code).toBe(1);
    // Progress lines come first (stderr is not a terminal); the error is one line, the last.
    const errorLines = r.err
      .trimEnd()
      .split('\n')
      .filter((line) => line.startsWith('council: '));
    expect(errorLines).toHaveLength(1);
    expect(r.err.trimEnd().split('\n').at(-1)).toMatch(/^council: .*quorum/i);
    expect(r.out).toBe('');
  }, 20_000);

  it('refuses consent level 4 without a hash secret before calling any model', async () => {
    const before = server.requests.length;
    const r = await ask(['--models', MEMBERS.join(',')], { LLM_COUNCIL_BIAS_CONSENT: '4' });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^council: Invalid bias store configuration: LLM_COUNCIL_BIAS_CONSENT is 4 \(RESEARCH\).*LLM_COUNCIL_HASH_SECRET/,
    );
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(server.requests.length).toBe(before);
    expect(r.out).toBe('');
  });

  it('without the provider key, fails in one line naming the variable before any request is made', async () => {
    const before = server.requests.length;
    const home = mkdtempSync(join(tmpdir(), 'council-ask-'));
    const c = captureIo();
    // No OPENROUTER_API_KEY: bare ids go to OpenRouter, which needs one; simulated members need none.
    const env = { OPENROUTER_BASE_URL: server.url, LLM_COUNCIL_HOME: home };
    const code = await runCli(
      ['ask', QUERY, '--models', 'test/alpha,test/beta,simulated:ada', '--chairman', 'anthropic:claude-x'],
      { version: '1.2.3', io: c.io, env, cwd: home },
    );
    expect(code).toBe(1);
    expect(c.err()).toBe(
      'council: No API key set: OPENROUTER_API_KEY (for test/alpha, test/beta); ANTHROPIC_API_KEY (for anthropic:claude-x). ' +
        'Save it with `council keys set <provider>` (it reads the key from stdin and keeps it in the home, mode 0600) ' +
        'or export it in your environment; or try `council demo` or simulated:<name> models, which need none.\n',
    );
    expect(c.out()).toBe('');
    expect(server.requests.length).toBe(before);
    expect(filesUnder(home)).toEqual([]);
  });

  it('rejects usage errors with exit 2: too few models, an unknown mode', async () => {
    const one = await ask(['--models', 'test/alpha']);
    expect(one.code).toBe(2);
    expect(one.err).toBe(
      'council: A council needs at least two models: pass --models a,b,c, list them under members: in config.yaml, or set LLM_COUNCIL_MODELS.\n',
    );
    const mode = await ask(['--models', MEMBERS.join(','), '--mode', 'democracy']);
    expect(mode.code).toBe(2);
    expect(mode.err).toBe('council: --mode must be one of consensus, voting, got "democracy".\n');
    const noGoal = await ask(['--models', MEMBERS.join(','), '--strategy', 'goal-seeking']);
    expect(noGoal.code).toBe(2);
    expect(noGoal.err).toBe(
      'council: The "goal-seeking" strategy needs a goal: add --goal "what the answer should achieve".\n',
    );
  });
});

describe('describePersist: the stderr line of what a session saved', () => {
  const saved = { consent: 1, biasRecords: 0, contributions: 0, history: true, telemetryEvent: false, notes: [] };
  it('names each kind of record written, with its count, and leaves out those with none', () => {
    expect(describePersist({ ...saved, biasRecords: 6, contributions: 2 })).toBe(
      'Saved history, 6 bias records, 2 contribution records at consent level 1 (local only).',
    );
    expect(describePersist({ ...saved, biasRecords: 1, contributions: 1 })).toBe(
      'Saved history, 1 bias record, 1 contribution record at consent level 1 (local only).',
    );
    expect(describePersist(saved)).toBe('Saved history at consent level 1 (local only).');
    expect(describePersist({ ...saved, consent: 0, history: false })).toBe('Nothing saved (consent level 0).');
  });
});
