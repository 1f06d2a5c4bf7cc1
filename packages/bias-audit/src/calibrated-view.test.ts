import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BiasObservation } from './bias-observation.js';
import { CALIBRATED_VIEW_NOTE, calibratedView } from './calibrated-view.js';
import { simulateIssue31Councils } from './study/simulate-issue-31-councils.js';

/** [session, reviewer, candidate, position, score] → an observation. */
function obs(rows: [string, string, string, number, number][]): BiasObservation[] {
  return rows.map(([sessionId, reviewer, candidate, position, score], i) => ({
    sessionId,
    timestamp: `2026-11-0${sessionId === 's1' ? 1 : 2}T10:00:${String(i).padStart(2, '0')}Z`,
    reviewer,
    candidate,
    position,
    responseLengthChars: 1000,
    score,
    rankPosition: null,
    configVersion: null,
    queryCategory: null,
  }));
}

// Two sessions, answers A and B. Reviewers X and Y score both; H scores only A, 2 points below X and Y on the same
// answer. The second display position costs 1 point. X sees A then B, Y sees B then A, H sees A alone. By hand:
// offsets from the median reviewer H −2, X 0, Y 0; positions 0 and 1 differ by 1, centred on their mean over the
// scores shown there (3 of 5 at position 0, 2 at position 1: mean −0.4 when position 0 is 0) → +0.4 and −0.6.
// Session 1: A: H 6 (p0), X 8 (p0), Y 7 (p1); B: X 6.5 (p1), Y 7.5 (p0). Session 2: every score +1.
// Raw levels: A (21/3 + 24/3)/2 = 7.5; B (7 + 8)/2 = 7.5: a tie.
// Calibrated: A's scores less offset and position: s1 (6 + 2 − 0.4, 8 − 0.4, 7 + 0.6) = 7.6 each, s2 8.6 → 8.1;
// B: s1 (6.5 + 0.6, 7.5 − 0.4) = 7.1, s2 8.1 → 7.6. A is half a point better, as X and Y see it.
const rows: [string, string, string, number, number][] = [];
for (const [session, shift] of [
  ['s1', 0],
  ['s2', 1],
] as const) {
  rows.push(
    [session, 'H', 'A', 0, 6 + shift],
    [session, 'X', 'A', 0, 8 + shift],
    [session, 'X', 'B', 1, 6.5 + shift],
    [session, 'Y', 'B', 0, 7.5 + shift],
    [session, 'Y', 'A', 1, 7 + shift],
  );
}

describe('calibratedView', () => {
  it('takes out the reviewer offsets and position effects (hand-worked)', () => {
    const view = calibratedView(obs(rows), { resamples: 0, sessionScores: true });
    expect(view.note).toBe(CALIBRATED_VIEW_NOTE);
    expect(view.identified).toBe(true);
    expect(view.sessions).toBe(2);
    expect(view.observations).toBe(10);
    const offsets = Object.fromEntries(view.reviewerOffsets.map((o) => [o.reviewer, o.estimate]));
    expect(offsets['H']).toBeCloseTo(-2, 10);
    expect(offsets['X']).toBeCloseTo(0, 10);
    expect(offsets['Y']).toBeCloseTo(0, 10);
    expect(view.positionEffects.map((p) => [p.position, p.scores])).toEqual([
      [0, 6],
      [1, 4],
    ]);
    expect(view.positionEffects[0]!.estimate).toBeCloseTo(0.4, 10);
    expect(view.positionEffects[1]!.estimate).toBeCloseTo(-0.6, 10);
    const [first, second] = view.leaderboard;
    expect(first!.model).toBe('A');
    expect(first!.raw.estimate).toBeCloseTo(7.5, 10);
    expect(first!.calibrated.estimate).toBeCloseTo(8.1, 10);
    expect(second!.model).toBe('B');
    expect(second!.raw.estimate).toBeCloseTo(7.5, 10);
    expect(second!.calibrated.estimate).toBeCloseTo(7.6, 10);
    expect([first!.rawRank, second!.rawRank]).toEqual([1, 1]);
    expect([first!.calibratedRank, second!.calibratedRank]).toEqual([1, 2]);
    expect(first!.answers).toBe(2);
    expect(view.differences).toHaveLength(1);
    expect(view.differences[0]!.calibrated.estimate).toBeCloseTo(0.5, 10);
    expect(view.differences[0]!.raw.estimate).toBeCloseTo(0, 10);
    expect(view.differences[0]!.calibrated.lower).toBeNull();
    const s1A = view.sessionScores!.find((s) => s.sessionId === 's1' && s.model === 'A')!;
    expect(s1A.raw).toBeCloseTo(7, 10);
    expect(s1A.calibrated).toBeCloseTo(7.6, 10);
  });

  it('leaves self-reviews and unscored records out', () => {
    const extra = obs([
      ['s1', 'A', 'A', 2, 10],
      ['s2', 'B', 'B', 2, 10],
    ]);
    const base = calibratedView(obs(rows), { resamples: 0 });
    const withSelf = calibratedView([...obs(rows), ...extra, { ...obs(rows)[0]!, score: null }], { resamples: 0 });
    expect(withSelf.observations).toBe(10);
    expect(withSelf.leaderboard.map((e) => e.calibrated.estimate)).toEqual(
      base.leaderboard.map((e) => e.calibrated.estimate),
    );
  });

  it('says when reviewers never met on one answer (offsets not identified), and keeps the raw levels', () => {
    // H scores only A, X only B: nothing compares them.
    const view = calibratedView(
      obs([
        ['s1', 'H', 'A', 0, 5],
        ['s1', 'X', 'B', 0, 8],
        ['s2', 'H', 'A', 0, 6],
        ['s2', 'X', 'B', 0, 7],
      ]),
      { resamples: 50 },
    );
    // One score per answer: H and X are never compared, so neither offset can be measured.
    expect(view.identified).toBe(false);
    expect(view.reviewerOffsets).toEqual([]);
    expect(view.leaderboard.map((e) => [e.model, e.raw.estimate, e.calibrated.estimate])).toEqual([
      ['B', 7.5, 7.5],
      ['A', 5.5, 5.5],
    ]);
    const disconnected = calibratedView(
      obs([
        ['s1', 'H', 'A', 0, 5],
        ['s1', 'G', 'A', 1, 6],
        ['s1', 'X', 'B', 0, 8],
        ['s1', 'Y', 'B', 1, 7],
      ]),
      { resamples: 0 },
    );
    expect(disconnected.identified).toBe(false);
    expect(disconnected.leaderboard.map((e) => e.calibrated.estimate)).toEqual(
      disconnected.leaderboard.map((e) => e.raw.estimate),
    );
  });

  it('gives intervals around the estimates from a bootstrap over sessions, the same for the same seed', () => {
    const many: [string, string, string, number, number][] = [];
    for (let s = 0; s < 12; s++)
      for (const [r, c, p, v] of [
        ['H', 'A', 0, 6],
        ['X', 'A', 0, 8],
        ['X', 'B', 1, 6.5],
        ['Y', 'B', 0, 7.5],
        ['Y', 'A', 1, 7],
      ] as const)
        many.push([`s${s}`, r, c, p, v + (s % 3) * 0.5 + (r === 'X' && s % 2 === 0 ? 0.3 : 0)]);
    const a = calibratedView(obs(many), { resamples: 200, seed: 3 });
    const b = calibratedView(obs(many), { resamples: 200, seed: 3 });
    expect(a).toEqual(b);
    for (const e of a.leaderboard) {
      expect(e.calibrated.lower!).toBeLessThanOrEqual(e.calibrated.estimate);
      expect(e.calibrated.upper!).toBeGreaterThanOrEqual(e.calibrated.estimate);
    }
  });

  it('refuses a bad option', () => {
    expect(() => calibratedView(obs(rows), { resamples: -1 })).toThrow(/resamples/);
    expect(() => calibratedView(obs(rows), { level: 2 })).toThrow(/level/);
  });

  it('leaves the calibrated leaderboard unchanged when one reviewer (not the median one) is made harsher or kinder by any amount', () => {
    // The point of the view: a constant added to every score of a reviewer is its offset, and is taken out exactly.
    const base = simulateIssue31Councils({ sessions: 12, seed: 5, quality: [0.6, 0.3, 0, -0.3, -0.6] });
    const before = calibratedView(base, { resamples: 0 });
    const median = [...before.reviewerOffsets].sort((a, b) => a.estimate - b.estimate)[2]!.reviewer;
    fc.assert(
      fc.property(
        fc.constantFrom(...before.reviewerOffsets.map((o) => o.reviewer).filter((r) => r !== median)),
        fc.double({ min: -3, max: 3, noNaN: true }),
        (reviewer, shift) => {
          const shifted = base.map((o) => (o.reviewer === reviewer ? { ...o, score: o.score! + shift } : o));
          const after = calibratedView(shifted, { resamples: 0 });
          // Unless the shift moves the reviewer past the median one (then the centre changes by a common constant).
          if (after.reviewerOffsets.find((o) => o.reviewer === median)!.estimate !== 0) return;
          for (const entry of before.leaderboard) {
            const moved = after.leaderboard.find((e) => e.model === entry.model)!;
            expect(moved.calibrated.estimate).toBeCloseTo(entry.calibrated.estimate, 9);
          }
        },
      ),
      { numRuns: 40, seed: 31 },
    );
  });

  it('resamples contiguous groups of sessions beyond 4,000 sessions, with the same estimates', () => {
    const observations = simulateIssue31Councils({ sessions: 4100, seed: 2, quality: [0.4, 0, -0.4] });
    const view = calibratedView(observations, { resamples: 20 });
    expect(view.sessions).toBe(4100);
    expect(view.resamples).toBe(20);
    expect(view.leaderboard.map((e) => e.model)).toEqual(['model-0', 'model-1', 'model-2']);
    for (const e of view.leaderboard) {
      expect(e.calibrated.lower).not.toBeNull();
      expect(e.calibrated.estimate).toBeCloseTo(
        calibratedView(observations, { resamples: 0 }).leaderboard.find((x) => x.model === e.model)!.calibrated
          .estimate,
        12,
      );
    }
  });
});
