import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyEntry, writeHistory } from '../testing/history-fixture.js';
import { captureIo, testContext } from '../testing/capture-io.js';
import { runCli } from '../run-cli.js';
import { runHistoryCommand } from './history-command.js';
import { runLeaderboardCommand } from './leaderboard-command.js';
import type { LeaderboardDocument } from './leaderboard-command.js';

function homeWith(entries: Parameters<typeof writeHistory>[1]): string {
  const home = mkdtempSync(join(tmpdir(), 'council-history-'));
  writeHistory(join(home, 'history.jsonl'), entries);
  return home;
}

const S1 = historyEntry({
  id: 'aaaa1111-0000',
  timestamp: '2026-11-20T10:00:00Z',
  ranking: ['m/a', 'm/b', 'm/c'],
  bordaScores: { 'm/a': 1, 'm/b': 0.5, 'm/c': 0 },
  category: 'coding',
});
const S2 = historyEntry({
  id: 'aaaa2222-0000',
  timestamp: '2026-11-21T10:00:00Z',
  ranking: ['m/b', 'm/a', 'm/c'],
  bordaScores: { 'm/a': 0.5, 'm/b': 1, 'm/c': 0 },
  category: 'writing',
});
const OLD = historyEntry({
  id: 'bbbb3333-0000',
  timestamp: '2026-10-01T10:00:00Z',
  ranking: ['m/c', 'm/b', 'm/a'],
  bordaScores: { 'm/a': 0, 'm/b': 0.5, 'm/c': 1 },
  category: 'coding',
});

describe('council history', () => {
  it('lists the newest first, and skips (and reports) a torn line', async () => {
    const home = homeWith([S1, S2]);
    appendFileSync(join(home, 'history.jsonl'), '{"schema_version": "1.0.0", "session": {"sessionId": "tor');
    const t = testContext({ home });
    expect(await runHistoryCommand({ action: 'list' }, t.ctx)).toBe(0);
    const out = t.out();
    expect(out.indexOf('aaaa2222')).toBeLessThan(out.indexOf('aaaa1111'));
    expect(out).toContain('2 of 2 sessions.');
    expect(t.err()).toMatch(/skipped 1 unreadable line .*history\.jsonl \(first at line 3\)/);
  });

  it('shows one session by a unique id prefix, says a line without a question kept none, and rejects an ambiguous prefix', async () => {
    const t = testContext({ home: homeWith([S1, S2]) });
    await runHistoryCommand({ action: 'show', id: 'aaaa2' }, t.ctx);
    expect(t.out()).toContain('Session aaaa2222-0000');
    expect(t.out()).toContain(
      'Question: not stored (history_questions: false or --no-keep-question, or saved before questions were kept); category writing',
    );
    await expect(
      runHistoryCommand({ action: 'show', id: 'aaaa' }, testContext({ home: homeWith([S1, S2]) }).ctx),
    ).rejects.toThrow('"aaaa" matches 2 sessions; give more characters of the id.');
    await expect(
      runHistoryCommand({ action: 'show', id: 'zzz' }, testContext({ home: homeWith([S1]) }).ctx),
    ).rejects.toThrow('No session "zzz" in the history.');
  });
});

describe('council history show: what the council said', () => {
  it("prints each member's stored answer by default, in the members' order, before the synthesis", async () => {
    const t = testContext({ home: homeWith([S1]) });
    expect(await runHistoryCommand({ action: 'show', id: 'aaaa1111' }, t.ctx)).toBe(0);
    const out = t.out();
    // The fixture's answers are "answer of <member>"; its synthesis is "synthesis".
    expect(out).toContain(
      [
        'Answer from m/a',
        '',
        'answer of m/a',
        '',
        'Answer from m/b',
        '',
        'answer of m/b',
        '',
        'Answer from m/c',
        '',
        'answer of m/c',
        '',
        'Answer (chairman m/a, balanced strategy, consensus mode)',
        '',
        'synthesis',
        '',
      ].join('\n'),
    );
    expect(out).not.toContain('Review by');
    const none = testContext({ home: homeWith([S1]) });
    await runHistoryCommand({ action: 'show', id: 'aaaa1111', show: { answers: false, reviews: false } }, none.ctx);
    expect(none.out()).not.toContain('Answer from');
  });

  it('with --show reviews, reads a session saved before reviews recorded how they were read (no readPath)', async () => {
    // Every reviewer ranks m/a > m/b > m/c, saw them in that order (Response A, B, C), and gave no score; m/b and
    // m/c critiqued m/b, m/a critiqued nothing. One review of a second session has an empty ranking: not read.
    const critiqued = historyEntry({
      id: 'cccc1111-0000',
      timestamp: '2026-11-20T10:00:00Z',
      ranking: ['m/a', 'm/b', 'm/c'],
      bordaScores: { 'm/a': 1, 'm/b': 0.5, 'm/c': 0 },
      critiques: { 'm/b': { strengths: 'short', weaknesses: 'no tests' } },
    });
    const t = testContext({ home: homeWith([critiqued]) });
    await runHistoryCommand({ action: 'show', id: 'cccc', show: { answers: false, reviews: true } }, t.ctx);
    const out = t.out();
    expect(out).toContain(
      [
        'Review by m/a',
        '  ranking: m/a > m/b > m/c',
        '',
        'Review by m/b',
        '  ranking: m/a > m/b > m/c',
        '  m/b (Response B, its own): no score',
        '    strengths: short',
        '    weaknesses: no tests',
        '',
      ].join('\n'),
    );
    expect(out).not.toContain('Answer from');
    const unread = historyEntry({
      id: 'dddd1111-0000',
      timestamp: '2026-11-20T10:00:00Z',
      ranking: ['m/a', 'm/b', 'm/c'],
      bordaScores: {},
    });
    unread.session.stage2[0]!.evaluation!.ranking = [];
    const u = testContext({ home: homeWith([unread]) });
    await runHistoryCommand({ action: 'show', id: 'dddd', show: { answers: true, reviews: true } }, u.ctx);
    expect(u.out()).toContain('Review by m/a\n  no ranking could be read from its reply, so it gave no ballot.\n');
    expect(u.out().indexOf('Answer from m/c')).toBeLessThan(u.out().indexOf('Reviews'));
  });
});

describe('council leaderboard', () => {
  it('shows a session from a line written before sessions carried warnings (it has none)', async () => {
    const { warnings: _, ...oldSession } = S1.session;
    const home = homeWith([{ ...S1, session: oldSession as typeof S1.session }]);
    const t = testContext({ home });
    expect(await runHistoryCommand({ action: 'show', id: 'aaaa1111' }, t.ctx)).toBe(0);
    expect(t.out()).toContain('Session aaaa1111-0000');
    expect(t.out()).not.toContain('note:');
    // The line on disk is as old as it was; only the reading fills the list in.
    expect(
      (JSON.parse(readFileSync(join(home, 'history.jsonl'), 'utf8')) as { session: object }).session,
    ).not.toHaveProperty('warnings');
  });

  it('averages per-session Borda scores, each session once, and fits Bradley–Terry to the ballots', async () => {
    const t = testContext({ home: homeWith([S1, S2]), now: new Date('2026-11-22T00:00:00Z') });
    await runLeaderboardCommand({ json: true, bootstrap: 200 }, t.ctx);
    const doc = JSON.parse(t.out()) as LeaderboardDocument;
    // m/a: (1 + 0.5) / 2 = 0.75; m/b: (0.5 + 1) / 2 = 0.75; m/c: 0. a and b tie for rank 1; c is 3rd.
    const byCandidate = Object.fromEntries(doc.borda.map((e) => [e.candidate, e]));
    expect(byCandidate['m/a']).toMatchObject({ aggregateBorda: 0.75, rank: 1, appearances: 2 });
    expect(byCandidate['m/b']).toMatchObject({ aggregateBorda: 0.75, rank: 1 });
    expect(byCandidate['m/c']).toMatchObject({ aggregateBorda: 0, rank: 3 });
    // Every ballot ranks m/c last, so it has the lowest rating.
    expect(doc.bradleyTerry.at(-1)?.candidate).toBe('m/c');
    expect(doc.sessions).toBe(2);
  });

  it('filters by time window and category', async () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const recent = testContext({ home: homeWith([S1, S2, OLD]), now });
    await runLeaderboardCommand({ json: true, days: 7, bootstrap: 0 }, recent.ctx);
    expect((JSON.parse(recent.out()) as LeaderboardDocument).sessions).toBe(2);
    const coding = testContext({ home: homeWith([S1, S2, OLD]), now });
    await runLeaderboardCommand({ json: true, category: 'coding', bootstrap: 0 }, coding.ctx);
    const doc = JSON.parse(coding.out()) as LeaderboardDocument;
    expect(doc.sessions).toBe(2);
    // coding sessions are S1 (a 1, b 0.5, c 0) and OLD (a 0, b 0.5, c 1): a 0.5, b 0.5, c 0.5, all rank 1.
    expect(doc.borda.map((e) => [e.candidate, e.aggregateBorda, e.rank]).sort()).toEqual([
      ['m/a', 0.5, 1],
      ['m/b', 0.5, 1],
      ['m/c', 0.5, 1],
    ]);
  });

  it('says so when there is no session yet', async () => {
    const t = testContext({ home: mkdtempSync(join(tmpdir(), 'council-empty-')) });
    await runLeaderboardCommand({}, t.ctx);
    expect(t.out()).toBe('No sessions in the history yet. Run "council ask" or "council batch".\n');
  });
});

describe('council history through the CLI (issue 30 items 10 and 11)', () => {
  async function council(argv: string[], home: string) {
    const c = captureIo();
    const code = await runCli(argv, { version: '1.0.0', io: c.io, env: { LLM_COUNCIL_HOME: home }, cwd: home });
    return { code, out: c.out(), err: c.err() };
  }

  it('`council history` without an action lists, as `council history list` does', async () => {
    const home = homeWith([S1, S2]);
    const bare = await council(['history'], home);
    expect(bare).toEqual({ ...(await council(['history', 'list'], home)), code: 0 });
    expect(bare.out).toContain('2 of 2 sessions.');
    expect(bare.err).toBe('');
    const json = await council(['history', '--json', '--limit', '1'], home);
    expect((JSON.parse(json.out) as { sessionId: string }[]).map((s) => s.sessionId)).toEqual(['aaaa2222-0000']);
  });

  it('`council config` alone shows the settings and `council telemetry` alone the status, as their first action does', async () => {
    const home = homeWith([S1]);
    const config = await council(['config'], home);
    expect(config.code).toBe(0);
    expect(config.out).toBe((await council(['config', 'show'], home)).out);
    expect(config.out).toContain('bias persistence');
    const telemetry = await council(['telemetry', '--json'], home);
    expect(telemetry.code).toBe(0);
    expect(JSON.parse(telemetry.out)).toEqual(JSON.parse((await council(['telemetry', 'status', '--json'], home)).out));
  });

  it('`council history show last` shows the newest saved session; on an empty history it says how to get one', async () => {
    // OLD is the last line written, though its timestamp is the oldest: "last" is the newest saved.
    const home = homeWith([S1, S2, OLD]);
    const last = await council(['history', 'show', 'last'], home);
    expect(last.code).toBe(0);
    expect(last.out).toContain('Session bbbb3333-0000');
    const empty = await council(['history', 'show', 'last'], mkdtempSync(join(tmpdir(), 'council-history-empty-')));
    expect(empty).toEqual({
      code: 2,
      out: '',
      err: 'council: No session yet: the history is empty. Ask a question first ("council ask"), or run "council demo".\n',
    });
  });
});
