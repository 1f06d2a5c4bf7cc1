import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, HistorySession } from '../history-entry.js';
import { testContext } from '../testing/capture-io.js';
import { writeHistory } from '../testing/history-fixture.js';
import { runLeaderboardCommand } from './leaderboard-command.js';

/** A session of three members who score every other answer `score` and rank them in the order shown. */
function sameScoreSession(i: number, score: number): HistoryEntry {
  const members = ['m/a', 'm/b', 'm/c'];
  return {
    schema_version: '1.0.0',
    council_version: '0.0.0-test',
    simulated: false,
    query_metadata: null,
    session: {
      sessionId: `s${i}`,
      timestamp: new Date(Date.parse('2026-11-20T10:00:00Z') + i * 3_600_000).toISOString(),
      stage1: members.map((member, k) => ({ member, model: member, text: 'x'.repeat(600 + 100 * ((i + k) % 3)) })),
      stage2: members.map((reviewer, r) => {
        const others = members.filter((m) => m !== reviewer);
        const order = (i + r) % 2 === 0 ? others : [...others].reverse();
        return {
          reviewer,
          model: reviewer,
          order,
          evaluation: { ranking: order, scores: Object.fromEntries(order.map((m) => [m, score])), abstained: false },
        };
      }),
      leaderboard: [],
    } as unknown as HistorySession,
  };
}

describe('council leaderboard --calibrated: every score the same', () => {
  // Thirteen sessions in which every member scores every other answer 7.3 and ranks them in the order shown, which
  // alternates: raw and calibrated means are all 7.30, every offset and position effect 0, and nothing varies.
  it('prints zeros without a sign and says the intervals have no width because nothing varied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'council-calibrated-flat-'));
    writeHistory(
      join(dir, 'history.jsonl'),
      Array.from({ length: 13 }, (_, i) => sameScoreSession(i, 7.3)),
    );
    const t = testContext({ home: dir });
    expect(await runLeaderboardCommand({ calibrated: true, bootstrap: 100 }, t.ctx)).toBe(0);
    const out = t.out();
    expect(out).not.toMatch(/[-−]0\.0/);
    expect(out).toContain(
      'Every score in the window is 7.30: with no spread there is nothing to calibrate, and the intervals have no width because the scores never varied, not because the order is certain.',
    );
    expect(out).toContain('reviewer offsets from the median reviewer m/a 0.00 [0.00, 0.00]');
    expect(out).not.toMatch(/wins more often: 0\.00/);
  });
});
