// bias-report over sessions whose reviews could not be read (issue 26): left out, counted and named, never "No bias flag raised".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BiasObservation } from '@council/bias-audit';
import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { captureIo } from '../testing/capture-io.js';
import { plantedObservations, writeObservationStore } from '../testing/write-bias-records.js';
import type { BiasReportDocument } from './bias-report-command.js';

const NOW = '2026-11-05T00:00:00Z';

/**
 * What a session whose every review gave no ranking wrote before Council stopped writing such records: one record per
 * (reviewer, answer shown), score_value null and rank_position null. 4 reviewers × 4 answers = 16 records.
 */
function unreadSession(id: string, at: string, reviewers = ['r/one', 'r/two', 'r/three', 'r/four']): BiasObservation[] {
  return reviewers.flatMap((reviewer) =>
    ['c/a', 'c/b', 'c/c', 'c/d'].map((candidate, position) => ({
      sessionId: id,
      timestamp: at,
      reviewer,
      candidate,
      position,
      responseLengthChars: 900,
      score: null,
      rankPosition: null,
      configVersion: '1.0.0',
      queryCategory: 'coding',
    })),
  );
}

async function report(args: string[], cwd: string) {
  const c = captureIo();
  const code = await runCli(['bias-report', '--now', NOW, ...args], { version: '1.0.0', io: c.io, env: {}, cwd });
  return { code, out: c.out(), err: c.err() };
}

const tenUnread = Array.from({ length: 10 }, (_, i) => unreadSession(`u-${i}`, `2026-11-01T0${i}:00:00Z`)).flat();
const ids = Array.from({ length: 10 }, (_, i) => `u-${i}`).join(', ');

describe('bias-report leaves out the sessions whose reviews could not be read', () => {
  it('ten such sessions: the text says they were left out and why, reports 0 sessions, and raises no "No bias flag"', async () => {
    const { dir, path } = await writeObservationStore(tenUnread);
    const r = await report(['--input', path], dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`10 sessions left out: no review could be read (ids ${ids}).`);
    expect(r.out).toMatch(/^0 sessions · 0 observations · no sessions in the window/m);
    expect(r.out).toContain('Collecting data…');
    expect(r.out).not.toContain('No bias flag raised');
    // The records were in the window: no "the window kept none" from the reader.
    expect(r.err).toBe('');
  });

  it('JSON: input.unreadSessions counts and names them; kept counts only what the statistics used', async () => {
    const { dir, path } = await writeObservationStore(tenUnread);
    const r = await report(['--input', path, '--format', 'json'], dir);
    const doc = JSON.parse(r.out) as BiasReportDocument;
    expect(doc.input).toMatchObject({
      records: 160,
      kept: 0,
      outsideWindow: 0,
      unreadSessions: { sessions: 10, records: 160, sessionIds: ids.split(', ') },
    });
    expect(doc.report.window.sessions).toBe(0);
    expect(doc.report.flags).toEqual([]);
  });

  it('HTML: the page says so under its header, and never "No bias flag raised"', async () => {
    const { dir, path } = await writeObservationStore(tenUnread);
    const out = join(dir, 'report.html');
    expect((await report(['--input', path, '--format', 'html', '--output', out], dir)).code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(`<p class="notice">10 sessions left out: no review could be read (ids ${ids}).</p>`);
    expect(html).not.toContain('No bias flag raised');
  });

  it('beside readable sessions: the report is the one over the readable sessions alone, with the two named', async () => {
    // 20 sessions with the planted position effect, and two unread ones in between, one with a reviewer seen nowhere else.
    const planted = plantedObservations({ sessions: 20 });
    const mixed = await writeObservationStore([
      ...planted,
      ...unreadSession('u-early', '2026-11-01T03:30:00Z', ['r/ghost', 'r/one']),
      ...unreadSession('u-late', '2026-11-01T09:30:00Z'),
    ]);
    const alone = await writeObservationStore(planted);
    const a = JSON.parse(
      (await report(['--input', mixed.path, '--format', 'json'], mixed.dir)).out,
    ) as BiasReportDocument;
    const b = JSON.parse(
      (await report(['--input', alone.path, '--format', 'json'], alone.dir)).out,
    ) as BiasReportDocument;
    expect(a.input.unreadSessions).toEqual({ sessions: 2, records: 8 + 16, sessionIds: ['u-early', 'u-late'] });
    expect(a.report).toEqual(b.report);
    expect(a.report.window.sessions).toBe(20);
    expect(a.report.reviewers.map((r) => r.reviewer)).not.toContain('r/ghost');
    const text = await report(['--input', mixed.path], mixed.dir);
    expect(text.out).toContain('2 sessions left out: no review could be read (ids u-early, u-late).');
    expect(text.out).toMatch(/^20 sessions · /m);
  });

  it('CSV has only metric rows: the left-out sessions are said on stderr', async () => {
    const { dir, path } = await writeObservationStore(tenUnread);
    const r = await report(['--input', path, '--format', 'csv'], dir);
    expect(r.err).toBe(`council: 10 sessions left out: no review could be read (ids ${ids}).\n`);
  });
});
