import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '@council/providers/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsk } from '../commands/ask-command.js';
import type { CommandContext } from '../command-context.js';
import { runCli } from '../run-cli.js';
import { captureIo, testContext } from '../testing/capture-io.js';
import { startCouncilTestServer } from '../testing/council-test-server.js';
import {
  contributionsResponseSchema,
  leaderboardResponseSchema,
  sessionListSchema,
  sessionResponseSchema,
  streamEventDataSchemas,
} from './api-schemas.js';
import { serveCouncil } from './serve-council.js';
import { createServeClient } from './serve-test-client.js';
import type { ReadEvent } from './serve-test-client.js';

const KEY = 'sk-or-v1-SERVE-API-KEY';
const TOKEN = 'serve-api-test-token-0123456789abcdef';
const MEMBERS = ['test/alpha', 'test/beta', 'test/gamma'];
const CHAIRMAN_TEXT = 'Start with characterisation tests around the riskiest module.';
const QUERY = 'How do I test a legacy module?';
let provider: TestServer;

beforeAll(async () => {
  provider = await startCouncilTestServer({ contributors: MEMBERS, apiKey: KEY, chairman: { chunkSize: 6 } });
});
afterAll(() => provider.close());

function env(): Record<string, string> {
  return { OPENROUTER_BASE_URL: provider.url, OPENROUTER_API_KEY: KEY, LLM_COUNCIL_BIAS_PERSISTENCE: 'true' };
}

function serverContext(home: string): CommandContext {
  return { ...testContext({ env: env(), home }).ctx, now: () => new Date() };
}

async function start(home = mkdtempSync(join(tmpdir(), 'council-serve-'))) {
  const lines: string[] = [];
  const server = await serveCouncil({
    ctx: serverContext(home),
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    demo: false,
    assets: null,
    log: (l) => lines.push(l),
  });
  return { server, home, lines, client: createServeClient({ url: server.url, token: TOKEN }) };
}

function historyLines(home: string): Record<string, unknown>[] {
  try {
    return readFileSync(join(home, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

function biasLines(home: string): Record<string, unknown>[] {
  try {
    return readFileSync(join(home, 'bias_metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** Everything but what two runs of one seeded session may differ in: ids, times and latencies. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value === null || typeof value !== 'object') return value;
  const skip = new Set(['sessionId', 'session_id', 'timestamp', 'latencyMs', 'latency_ms']);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !skip.has(k))
      .map(([k, v]) => [k, normalise(v)]),
  );
}

const types = (events: readonly ReadEvent[]) => events.map((e) => e.type);

describe('council serve: the session API over real HTTP (issue 16)', () => {
  let served: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    served = await start();
  });
  afterAll(() => served.server.close());

  it('streams one run in order to two clients: answers, reviews, the synthesis piece by piece, the session, done', async () => {
    const { client } = served;
    const id = await client.start({ query: QUERY, members: MEMBERS, seed: 3 });
    const [a, b] = await Promise.all([client.events(id), client.events(id)]);
    expect(b).toEqual(a);
    // Ids 1, 2, 3… without a gap.
    expect(a.map((e) => e.id)).toEqual(a.map((_, i) => i + 1));
    for (const event of a)
      expect(
        streamEventDataSchemas[event.type as keyof typeof streamEventDataSchemas].safeParse(event.data).success,
        event.type,
      ).toBe(true);
    const t = types(a);
    const at = (type: string, stage?: number) =>
      a.findIndex((e) => e.type === type && (stage === undefined || e.data.stage === stage));
    expect(t[0]).toBe('stage-started');
    expect(t.at(-1)).toBe('done');
    expect(a.at(-1)!.data).toEqual({ status: 'finished' });
    expect(t.at(-2)).toBe('session');
    // Every answer inside stage 1, every review inside stage 2, every synthesis piece inside stage 3.
    const inside = (type: string, stage: number) =>
      a.every((e, i) => e.type !== type || (i > at('stage-started', stage) && i < at('stage-finished', stage)));
    expect(t.filter((x) => x === 'answer')).toHaveLength(3);
    expect(t.filter((x) => x === 'review')).toHaveLength(3);
    expect(inside('answer', 1) && inside('review', 2) && inside('synthesis-text', 3)).toBe(true);
    expect(at('stage-finished', 1) < at('stage-started', 2) && at('stage-finished', 2) < at('stage-started', 3)).toBe(
      true,
    );
    // The chairman's reply, 6 characters a piece: its text, then the contributors block.
    const pieces = a.filter((e) => e.type === 'synthesis-text').map((e) => e.data.text as string);
    expect(pieces.join('').startsWith(`${CHAIRMAN_TEXT}\n\n\`\`\`json`)).toBe(true);
    expect(pieces.length).toBe(Math.ceil(pieces.join('').length / 6));
    // The test server's reviewers rank the labels in the order shown, so each review ranks "Response A" first.
    for (const review of a.filter((e) => e.type === 'review'))
      expect((review.data.ranking as string[])[0]).toBe('Response A');
    const session = a.at(-2)!.data as {
      session: { sessionId: string; synthesis: { text: string }; complete: boolean; shortfalls: string[] };
      saved: { history: boolean };
    };
    expect(session.session.synthesis.text).toBe(CHAIRMAN_TEXT);
    expect([session.session.complete, session.session.shortfalls]).toEqual([true, []]);
    expect(session.saved.history).toBe(true);
  }, 30_000);

  it('a partial session finishes (not fails) and says what it lacks, in its session event and in GET /api/sessions/:id (issue 26)', async () => {
    const { client } = served;
    const noChairman = await client.events(
      await client.start({ query: QUERY, members: MEMBERS, chairman: 'test/broken' }),
    );
    expect(noChairman.at(-1)!.data).toEqual({ status: 'finished' });
    const first = (
      noChairman.at(-2)!.data as {
        session: { sessionId: string; complete: boolean; shortfalls: string[]; leaderboard: unknown[] };
      }
    ).session;
    expect([first.complete, first.shortfalls]).toEqual([false, ['no-synthesis']]);
    expect(first.leaderboard).toHaveLength(3);
    expect(
      sessionResponseSchema.parse((await client.get(`/api/sessions/${first.sessionId}`)).json()).session,
    ).toMatchObject({ complete: false, shortfalls: ['no-synthesis'] });
    expect(
      served.lines.some((l) => l.includes(`: finished, session ${first.sessionId} (partial: no synthesis) in `)),
    ).toBe(true);

    const vague = await client.events(
      await client.start({
        query: QUERY,
        members: ['test/vague-a', 'test/vague-b', 'test/vague-c'],
        chairman: 'test/alpha',
      }),
    );
    for (const event of vague)
      expect(
        streamEventDataSchemas[event.type as keyof typeof streamEventDataSchemas].safeParse(event.data).success,
        event.type,
      ).toBe(true);
    const data = vague.at(-2)!.data as {
      session: { complete: boolean; shortfalls: string[]; synthesis: unknown };
      saved: { biasRecords: number; notes: string[] };
    };
    expect(data.session.synthesis).not.toBeNull();
    expect(data.session.complete).toBe(false);
    expect(data.session.shortfalls).toContain('no-review-read');
    expect(data.saved.biasRecords).toBe(0);
    expect(data.saved.notes).toContain('no bias records: no review of this session could be read.');
  }, 30_000);

  it('resumes after Last-Event-ID with only the later events, during and after the run', async () => {
    const { client } = served;
    const id = await client.start({ query: QUERY, members: MEMBERS });
    const firstFour = await client.events(id, { stopAfter: 4 });
    expect(firstFour.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    const rest = await client.events(id, { lastEventId: 4 });
    expect(rest[0]!.id).toBe(5);
    const whole = await client.events(id);
    expect([...firstFour, ...rest]).toEqual(whole);
    const tail = await client.events(id, { lastEventId: whole.length - 2 });
    expect(tail).toEqual(whole.slice(-2));
    const bad = await client.request(`/api/sessions/${id}/events`, { headers: { 'last-event-id': 'seven' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Last-Event-ID');
  }, 30_000);

  it('runs 5 sessions at once: each finishes under the id POST returned, all five in the history', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-5-'));
    const { server, client } = await start(home);
    try {
      const ids = await Promise.all(
        [1, 2, 3, 4, 5].map((seed) => client.start({ query: `${QUERY} (${seed})`, members: MEMBERS, seed })),
      );
      expect(new Set(ids).size).toBe(5);
      const streams = await Promise.all(ids.map((id) => client.events(id)));
      for (const events of streams) expect(events.at(-1)!.data).toEqual({ status: 'finished' });
      const sessionIds = streams.map(
        (events) => (events.at(-2)!.data as { session: { sessionId: string } }).session.sessionId,
      );
      expect(new Set(sessionIds).size).toBe(5);
      // One id per session (issue 30 item 13): each stored session has the id its POST returned.
      expect(sessionIds).toEqual(ids);
      expect(
        historyLines(home)
          .map((e) => (e.session as { sessionId: string }).sessionId)
          .sort(),
      ).toEqual([...sessionIds].sort());
      const list = sessionListSchema.parse((await client.get('/api/sessions')).json());
      expect(list.sessions.map((s) => s.id).sort()).toEqual([...sessionIds].sort());
      const page = sessionListSchema.parse((await client.get('/api/sessions?limit=2')).json());
      expect(page.sessions).toEqual(list.sessions.slice(0, 2));
      const next = sessionListSchema.parse((await client.get(`/api/sessions?limit=2&before=${page.next!}`)).json());
      expect(next.sessions).toEqual(list.sessions.slice(2, 4));
    } finally {
      await server.close();
    }
  }, 60_000);

  it('cancels a running session: cancelled then done, nothing saved; a second cancel is 409, an unknown run 404', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-cancel-'));
    const { server, client, lines } = await start(home);
    try {
      // test/hang never answers, so stage 1 waits until the cancel.
      const id = await client.start({ query: QUERY, members: [...MEMBERS, 'test/hang'] });
      let cancelled: Promise<{ status: number; text: string }> | undefined;
      const events = await client.events(id, {
        onEvent: (e) => {
          if (e.type === 'answer' && cancelled === undefined) cancelled = client.post(`/api/sessions/${id}/cancel`, {});
        },
      });
      expect((await cancelled!).status).toBe(202);
      expect(types(events).slice(-2)).toEqual(['cancelled', 'done']);
      expect(events.at(-1)!.data).toEqual({ status: 'cancelled' });
      expect(types(events)).not.toContain('session');
      expect(historyLines(home)).toEqual([]);
      expect(biasLines(home)).toEqual([]);
      expect((await client.post(`/api/sessions/${id}/cancel`, {})).status).toBe(409);
      expect((await client.post('/api/sessions/no-such-run/cancel', {})).status).toBe(404);
      expect(lines.some((l) => l.includes(id) && l.includes('cancelled'))).toBe(true);
    } finally {
      await server.close();
    }
  }, 30_000);

  it('saves exactly what council ask saves for the same seeded session: history entry and bias records', async () => {
    const home = mkdtempSync(join(tmpdir(), 'council-serve-same-'));
    const askHome = mkdtempSync(join(tmpdir(), 'council-ask-same-'));
    const { server, client } = await start(home);
    try {
      const id = await client.start({
        query: QUERY,
        members: MEMBERS,
        seed: 42,
        strategy: 'risk-averse',
        mode: 'voting',
      });
      await client.events(id);
    } finally {
      await server.close();
    }
    await runAsk(
      { question: QUERY, models: MEMBERS, seed: 42, strategy: 'risk-averse', mode: 'voting', json: true },
      serverContext(askHome),
    );
    const served = historyLines(home);
    const asked = historyLines(askHome);
    expect(served).toHaveLength(1);
    expect(asked).toHaveLength(1);
    expect(normalise(served)).toEqual(normalise(asked));
    expect(biasLines(home).length).toBeGreaterThan(0);
    expect(normalise(biasLines(home))).toEqual(normalise(biasLines(askHome)));
  }, 30_000);

  it('continues a conversation with continueFrom: the follow-ups share one conversation id', async () => {
    const { client } = served;
    const finish = async (body: Record<string, unknown>) => {
      const events = await client.events(await client.start(body));
      return (
        events.at(-2)!.data as {
          session: { sessionId: string; conversation?: { id: string; previousSessionId: string } };
        }
      ).session;
    };
    const first = await finish({ query: QUERY, members: MEMBERS });
    const second = await finish({ query: 'And which module first?', members: MEMBERS, continueFrom: first.sessionId });
    const third = await finish({ query: 'How long will it take?', members: MEMBERS, continueFrom: second.sessionId });
    expect(second.conversation?.previousSessionId).toBe(first.sessionId);
    expect(third.conversation?.previousSessionId).toBe(second.sessionId);
    expect(third.conversation?.id).toBe(second.conversation?.id);
    const got = sessionResponseSchema.parse((await client.get(`/api/sessions/${third.sessionId}`)).json());
    expect(got.session).toEqual(third);
    const listed = sessionListSchema.parse((await client.get('/api/sessions')).json()).sessions;
    expect(listed.find((s) => s.id === third.sessionId)?.conversation).toBe(second.conversation?.id);
    const unknown = await client.post('/api/sessions', {
      query: QUERY,
      members: MEMBERS,
      continueFrom: 'no-such-session',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('no-such-session');
  }, 60_000);

  it('refuses what council ask refuses, with its message: an unknown strategy, one member', async () => {
    const { client } = served;
    const strategy = await client.post('/api/sessions', {
      query: QUERY,
      members: MEMBERS,
      strategy: 'no-such-strategy',
    });
    expect(strategy.status).toBe(400);
    expect(strategy.json()).toMatchObject({ error: { code: 'USAGE' } });
    expect(strategy.text).toContain('no-such-strategy');
    const one = await client.post('/api/sessions', { query: QUERY, members: ['test/alpha'] });
    expect(one.status).toBe(400);
    expect(one.text).toContain('at least two models');
  });

  it('serves the leaderboard and the bias report as the commands print them', async () => {
    const { server, client, home } = await start();
    try {
      for (const seed of [1, 2, 3, 4])
        await client.events(await client.start({ query: QUERY, members: MEMBERS, seed }));
      const cli = async (args: string[]) => {
        const c = captureIo();
        await runCli(args, { version: '0.0.0-test', io: c.io, env: { ...env(), LLM_COUNCIL_HOME: home }, cwd: home });
        return JSON.parse(c.out()) as Record<string, unknown>;
      };
      const board = leaderboardResponseSchema.parse((await client.get('/api/leaderboard')).json());
      const boardCli = await cli(['leaderboard', '--json']);
      expect(board.sessions).toBe(4);
      expect({ ...board, window: null }).toEqual({ ...boardCli, window: null });
      const report = (await client.get('/api/bias-report?last=3')).json() as {
        report: unknown;
        input: unknown;
        options: { maxSessions: number };
      };
      const reportCli = (await cli(['bias-report', '--format', 'json', '--sessions', '3'])) as typeof report;
      expect(report.options.maxSessions).toBe(3);
      expect(normalise(report.input)).toEqual(normalise(reportCli.input));
      const dropTimes = (r: unknown) =>
        JSON.parse(JSON.stringify(r).replace(/"20\d\d-\d\d-\d\dT[\d:.]+Z"/g, '"T"')) as unknown;
      expect(dropTimes(report.report)).toEqual(dropTimes(reportCli.report));
      const contributions = contributionsResponseSchema.parse((await client.get('/api/contributions?last=4')).json());
      expect(contributions).toEqual(await cli(['contributions', '--json', '--last', '4']));
      // The test server's chairman credits each of the three members with 1/3 in every session.
      expect(contributions.sessions).toBe(4);
      for (const m of contributions.members) expect(m.meanWeight.estimate).toBeCloseTo(1 / 3, 10);
      expect((await client.get('/api/contributions?since=yesterday')).status).toBe(400);
      const badWindow = await client.get('/api/bias-report?last=0');
      expect(badWindow.status).toBe(400);
      expect(badWindow.text).toContain('last');
    } finally {
      await server.close();
    }
  }, 30_000);
});
