import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import type { BiasObservation } from '../bias-observation.js';
import { fitScoreModel } from '../fit-score-model.js';
import { observationsToColumns } from '../observations-to-columns.js';
import { driftBlindSpots, reviewerDriftPower } from './reviewer-drift-report.js';

const START = Date.parse('2026-10-01T00:00:00Z');
const HOUR = 3_600_000;
const WINDOW = { now: '2100-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
const MEMBERS = ['a', 'b', 'c', 'd'];

/**
 * `sessions` sessions, one an hour: four members each score the other three answers (author c's answer is worth
 * 5 + c/2, shown in an order that moves on one place a session). Everyone scores an answer at its worth, except `a`:
 * `wobble` above it in even sessions and `wobble` below in odd ones. No one changes.
 */
function store(sessions: number, wobble: number): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < sessions; s++) {
    const timestamp = new Date(START + s * HOUR).toISOString();
    MEMBERS.forEach((reviewer, r) => {
      const shown = MEMBERS.map((_, c) => c).filter((c) => c !== r);
      shown.forEach((_, p) => {
        const c = shown[(p + s) % shown.length]!;
        out.push({
          sessionId: `s${String(s).padStart(2, '0')}`,
          timestamp,
          reviewer,
          candidate: MEMBERS[c]!,
          position: p,
          responseLengthChars: 1000 * (c + 1),
          score: 5 + c / 2 + (reviewer === 'a' ? (s % 2 === 0 ? wobble : -wobble) : 0),
          rankPosition: null,
          configVersion: '1.0.0',
          queryCategory: null,
        });
      });
    });
  }
  return out;
}

describe('driftBlindSpots', () => {
  it('is the change found with 80% power at the even split, from the spread within the halves', () => {
    const columns = observationsToColumns(store(20, 0.1));
    const spots = driftBlindSpots(columns, { alpha: 0.05, margin: 0.25 });
    const a = spots.get(columns.models.indexOf('a'))!;
    // a's series is +0.1, −0.1, … (20 sessions); split at 10: each half 5 of each, mean 0, sample variance
    // 10·0.01/9 = 0.011111, the mean's 0.0011111; SE = √(2·0.0011111) = 0.047140; Welch df = (2v)²/(2v²/9) = 18.
    expect(a.sessions).toBe(20);
    expect(a.sessionsPerSide).toBe(10);
    expect(a.standardError).toBeCloseTo(0.04714, 5);
    // Holm's first step for 4 reviewers tested: (z(1 − 0.05/8) + z(0.8))·SE = (2.49771 + 0.84162)·0.04714 = 0.15742;
    // beyond the margin: 0.25 + (t(0.975, 18) + z(0.8))·SE = 0.25 + (2.10092 + 0.84162)·0.04714 = 0.38871. The larger.
    expect(a.undetectableBelow).toBeCloseTo(0.38871, 4);
    // b sees a's wobble at 1/(m − 1) = 1/3 of it in two of its three answers' others' means: −g/3, so SE/3.
    const b = spots.get(columns.models.indexOf('b'))!;
    expect(b.standardError).toBeCloseTo(0.04714 / 3, 5);
    expect(b.undetectableBelow).toBeCloseTo(0.25 + 2.94254 * (0.04714 / 3), 4);
  });

  it('leaves out a series too short for the test (under 20 sessions) and one with no spread within its halves', () => {
    const short = observationsToColumns(store(19, 0.1));
    expect(driftBlindSpots(short, { alpha: 0.05, margin: 0.25 }).size).toBe(0);
    const flat = observationsToColumns(store(20, 0));
    expect(driftBlindSpots(flat, { alpha: 0.05, margin: 0.25 }).size).toBe(0);
  });
});

describe('reviewerDriftPower', () => {
  const power = (sessions: number, wobble: number, drifted: string[] = []) => {
    const columns = observationsToColumns(store(sessions, wobble));
    const fit = fitScoreModel(columns, { level: 0.95 });
    return reviewerDriftPower({ columns, fit, alpha: 0.05, margin: 0.25, drifted: new Set(drifted) });
  };

  it('says what a short window could not see, where that exceeds twice the margin', () => {
    // wobble 0.3: SE = 3 × 0.04714 = 0.14142; D = 0.25 + 2.94254 × 0.14142 = 0.66614 > 0.5. b, c, d: D = 0.25 +
    // 2.94254 × 0.04714 = 0.38871, within twice the margin: no entry.
    const out = power(20, 0.3);
    expect([...out.keys()]).toEqual(['a']);
    const a = out.get('a')!;
    expect(a.undetectableBelow).toBeCloseTo(0.66614, 4);
    expect(a.power).toBe(0.8);
    expect(a.note).toBe(
      'No change found; with 20 sessions a change smaller than \u00b10.67 points would likely go unseen.',
    );
  });

  it('says nothing of a reviewer whose change was found, or from 40 sessions on (each half 20 or more)', () => {
    expect(power(20, 0.3, ['a']).size).toBe(0);
    // 40 sessions, wobble 0.5: SE = √(2·(20·0.25/19)/20) = 0.16222, D = 0.25 + (t(0.975, 38) + z(0.8))·0.16222 ≈ 0.74,
    // beyond twice the margin, yet each half has 20 sessions (moderate): no entry.
    expect(power(40, 0.5).size).toBe(0);
    expect(power(39, 0.5).has('a')).toBe(true);
  });
});

describe('aggregateBiasAudit: the drift power statement', () => {
  it("is on the reviewer's profile of a 20-session window only", () => {
    const short = aggregateBiasAudit(store(20, 0.3), { window: WINDOW, minSessions: 10, seed: 1 });
    const a = short.reviewers.find((r) => r.reviewer === 'a')!;
    expect(a.drift).toBeUndefined();
    expect(a.driftPower?.sessions).toBe(20);
    expect(a.driftPower!.undetectableBelow).toBeGreaterThan(0.5);
    expect(short.reviewers.filter((r) => r.driftPower !== undefined).map((r) => r.reviewer)).toEqual(['a']);
    const long = aggregateBiasAudit(store(40, 0.3), { window: WINDOW, minSessions: 10, seed: 1 });
    expect(long.reviewers.every((r) => r.driftPower === undefined)).toBe(true);
  });
});
