import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, HistorySession } from '../history-entry.js';
import { testContext } from '../testing/capture-io.js';
import { writeHistory } from '../testing/history-fixture.js';
import { runLeaderboardCommand } from './leaderboard-command.js';
import type { LeaderboardDocument } from './leaderboard-command.js';

/** A session where each reviewer saw the others' answers in `orders[reviewer]` and gave `scores[reviewer]`. */
function scoredSession(
  id: string,
  orders: Record<string, string[]>,
  scores: Record<string, Record<string, number>>,
): HistoryEntry {
  const members = Object.keys(orders);
  return {
    schema_version: '1.0.0',
    council_version: '0.0.0-test',
    simulated: false,
    query_metadata: null,
    session: {
      sessionId: id,
      timestamp: `2026-11-2${id.slice(-1)}T10:00:00Z`,
      stage1: members.map((member) => ({ member, model: member, text: `answer of ${member}` })),
      stage2: members.map((reviewer) => ({
        reviewer,
        model: reviewer,
        order: orders[reviewer],
        evaluation: {
          ranking: [...orders[reviewer]!].sort((a, b) => scores[reviewer]![b]! - scores[reviewer]![a]!),
          scores: scores[reviewer],
          abstained: false,
        },
      })),
      leaderboard: [],
    } as unknown as HistorySession,
  };
}

// Three members; m/c scores 2 points below the others on the same answer. Answers' levels as m/a and m/b see them:
// m/a 8, m/b 7, m/c 6. Scores: m/a gives m/b 7, m/c 6; m/b gives m/a 8, m/c 6; m/c gives m/a 6, m/b 5. Orders
// (m/a: b, c; m/b: c, a; m/c: a, b) put every reviewer pair's comparison at both positions, so one session fits
// offsets 0, 0, −2 and no position effect exactly. By hand: raw levels m/a (8 + 6)/2 = 7, m/b (7 + 5)/2 = 6,
// m/c (6 + 6)/2 = 6 (m/b and m/c tie); calibrated m/a 8, m/b 7, m/c 6.
const ORDERS = { 'm/a': ['m/b', 'm/c'], 'm/b': ['m/c', 'm/a'], 'm/c': ['m/a', 'm/b'] };
const SCORES = {
  'm/a': { 'm/b': 7, 'm/c': 6 },
  'm/b': { 'm/a': 8, 'm/c': 6 },
  'm/c': { 'm/a': 6, 'm/b': 5 },
};

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'council-calibrated-'));
  writeHistory(
    join(dir, 'history.jsonl'),
    ['s1', 's2', 's3'].map((id) => scoredSession(id, ORDERS, SCORES)),
  );
  return dir;
}

describe('council leaderboard --calibrated', () => {
  it('prints the calibrated leaderboard beside the raw one, what was taken out, and that live votes are unchanged', async () => {
    const t = testContext({ home: home() });
    expect(await runLeaderboardCommand({ calibrated: true, bootstrap: 200 }, t.ctx)).toBe(0);
    const out = t.out();
    expect(out).toContain('Calibrated leaderboard');
    expect(out).toMatch(/1 +│? *m\/a +│? *8\.00 .*7\.00/);
    expect(out).toMatch(/2 +│? *m\/b +│? *7\.00 .*6\.00/);
    expect(out).toMatch(/3 +│? *m\/c +│? *6\.00 .*6\.00/);
    // m/c's offset, signed as the bias report signs its figures (calibrated-findings.ts).
    expect(out).toContain('m/c -2.00');
    // Three sessions give each pair of reviewers 3 answers in common, below the 10 n_eff needs: said, not guessed.
    expect(out).toContain('How many judges you really have');
    expect(out).toContain('Not known yet: it needs two reviewers who both scored at least 10 of the same answers.');
    expect(out).toContain('Style-controlled Bradley–Terry');
    expect(out).toContain('Analytics only: live votes are unchanged.');
  });

  it('puts the calibrated view in the JSON document, raw beside calibrated', async () => {
    const t = testContext({ home: home() });
    await runLeaderboardCommand({ calibrated: true, json: true, bootstrap: 200 }, t.ctx);
    const doc = JSON.parse(t.out()) as LeaderboardDocument;
    const view = doc.calibrated!;
    expect(view.note).toBe('analytics only: live votes are unchanged');
    expect(view.sessions).toBe(3);
    expect(view.observations).toBe(18);
    expect(view.leaderboard.map((e) => [e.model, e.rawRank, e.calibratedRank])).toEqual([
      ['m/a', 1, 1],
      ['m/b', 2, 2],
      ['m/c', 2, 3],
    ]);
    expect(view.leaderboard[1]!.calibrated.estimate).toBeCloseTo(7, 10);
    expect(view.leaderboard[1]!.raw.estimate).toBeCloseTo(6, 10);
    expect(view.reviewerOffsets.find((o) => o.reviewer === 'm/c')!.estimate).toBeCloseTo(-2, 10);
    expect(view.effectiveJudges.pairs).toEqual([]);
    // Every reviewer ranks m/a over m/b over m/c where it sees them (m/c ranks m/a over m/b): the same order by
    // Bradley–Terry, and the answers' style does not vary, so style control has no covariate and changes nothing.
    const styled = doc.styleControlled as Extract<LeaderboardDocument['styleControlled'], { plain: unknown }>;
    expect(styled.coefficients).toEqual([]);
    expect(styled.styleControlled.map((e) => e.candidate)).toEqual(['m/a', 'm/b', 'm/c']);
    expect(styled.styleControlled.map((e) => e.rating)).toEqual(styled.plain.map((e) => e.rating));
  });

  it('says in words why the style-controlled ratings cannot be fitted, the fit’s own message kept in JSON', async () => {
    // Each member's answer is as long in every session (100, 200, 300 characters): length moves with the member, so
    // no ranking can tell one from the other.
    const dir = mkdtempSync(join(tmpdir(), 'council-calibrated-'));
    const length = { 'm/a': 100, 'm/b': 200, 'm/c': 300 };
    writeHistory(
      join(dir, 'history.jsonl'),
      ['s1', 's2', 's3'].map((id) => {
        const entry = scoredSession(id, ORDERS, SCORES);
        for (const answer of entry.session.stage1)
          answer.text = 'x'.repeat(length[answer.member as keyof typeof length]);
        return entry;
      }),
    );
    const text = testContext({ home: dir });
    expect(await runLeaderboardCommand({ calibrated: true, bootstrap: 50 }, text.ctx)).toBe(0);
    expect(text.out()).toContain(
      "Style-controlled ratings: not computable (the rankings cannot tell the members' quality from their answers' length and style",
    );
    expect(text.out()).not.toContain('options.prior');
    const json = testContext({ home: dir });
    await runLeaderboardCommand({ calibrated: true, json: true, bootstrap: 50 }, json.ctx);
    const styled = (JSON.parse(json.out()) as LeaderboardDocument).styleControlled as {
      computable: false;
      detail: string;
    };
    expect(styled.computable).toBe(false);
    expect(styled.detail).toMatch(/^styleControlledBradleyTerry: /);
  });

  it('leaves the document as it was without the flag', async () => {
    const t = testContext({ home: home() });
    await runLeaderboardCommand({ json: true, bootstrap: 50 }, t.ctx);
    expect(JSON.parse(t.out())).not.toHaveProperty('calibrated');
  });
});
