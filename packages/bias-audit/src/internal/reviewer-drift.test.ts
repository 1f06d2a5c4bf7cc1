import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from '../aggregate-bias-audit.js';
import type { BiasObservation } from '../bias-observation.js';
import { fitScoreModel } from '../fit-score-model.js';
import { observationsToColumns } from '../observations-to-columns.js';
import { kolmogorovTail, reviewerDrifts, reviewerSeries } from './reviewer-drift.js';

const START = Date.parse('2026-10-01T00:00:00Z');
const HOUR = 3_600_000;
const WINDOW = { now: '2100-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
const MEMBERS = ['a', 'b', 'c', 'd'];

/**
 * 40 sessions, one an hour: four members each score the other three answers (author c's answer is worth 5 + c/2,
 * 1,000·(c + 1) characters, shown in an order that moves on one place a session). Everyone scores an answer at its
 * worth, except `a`: 0.1 above it in even sessions and 0.1 below in odd ones, and `step` more from session 20 on.
 */
function store(step: number, configFrom20?: string): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < 40; s++) {
    const timestamp = new Date(START + s * HOUR).toISOString();
    MEMBERS.forEach((reviewer, r) => {
      const shown = MEMBERS.map((_, c) => c).filter((c) => c !== r);
      shown.forEach((_, p) => {
        const c = shown[(p + s) % shown.length]!;
        const worth = 5 + c / 2;
        const own = reviewer === 'a' ? (s % 2 === 0 ? 0.1 : -0.1) + (s >= 20 ? step : 0) : 0;
        out.push({
          sessionId: `s${String(s).padStart(2, '0')}`,
          timestamp,
          reviewer,
          candidate: MEMBERS[c]!,
          position: p,
          responseLengthChars: 1000 * (c + 1),
          score: worth + own,
          rankPosition: null,
          configVersion: configFrom20 !== undefined && s >= 20 ? configFrom20 : '1.0.0',
          queryCategory: null,
        });
      });
    });
  }
  return out;
}

describe('reviewerSeries', () => {
  it('leaves out an answer only one reviewer scored, and self-reviews, and sessions with nothing left', () => {
    // One session: a scores x 7 and y 9 (y scored by a alone), b scores x 5, c scores its own answer z (a self-review).
    // a's gap on x: 7 − 5 = 2 (y has no other score to compare with); b's: 5 − 7 = −2; c has no series value.
    const row = ([reviewer, candidate, position, score]: [string, string, number, number]): BiasObservation => ({
      sessionId: 's0',
      timestamp: new Date(START).toISOString(),
      reviewer,
      candidate,
      position,
      responseLengthChars: 1000,
      score,
      rankPosition: null,
      configVersion: '1.0.0',
      queryCategory: null,
    });
    const columns = observationsToColumns([
      row(['a', 'x', 0, 7]),
      row(['a', 'y', 1, 9]),
      row(['b', 'x', 0, 5]),
      row(['c', 'z', 0, 6]),
      row(['c', 'x', 1, Number.NaN]),
    ]);
    const series = reviewerSeries(columns);
    const of = (name: string) => series[columns.models.indexOf(name)]!;
    expect(Array.from(of('a').deviations)).toEqual([2]);
    expect(Array.from(of('b').deviations)).toEqual([-2]);
    expect(of('c').sessions).toHaveLength(0);
  });

  it("is each reviewer's mean gap to the others' scores of the same answers, a value a session", () => {
    const columns = observationsToColumns(store(-1));
    const series = reviewerSeries(columns);
    const a = series[columns.models.indexOf('a')]!;
    // a scores every answer it reviews ±0.1 (even/odd session) off the others, and −1 more from session 20.
    expect(Array.from(a.sessions)).toEqual(Array.from({ length: 40 }, (_, s) => s));
    a.deviations.forEach((d, s) => expect(d).toBeCloseTo((s % 2 === 0 ? 0.1 : -0.1) + (s >= 20 ? -1 : 0), 12));
    // b: two of its three answers (c's, d's) were also scored by a, whose gap g moves their others' mean by g/2;
    // the third (a's own answer) has no a in it: b's mean gap is −g/3 (a's step shows in the others by 1/(m − 1)).
    const b = series[columns.models.indexOf('b')]!;
    b.deviations.forEach((d, s) => expect(d).toBeCloseTo(-((s % 2 === 0 ? 0.1 : -0.1) + (s >= 20 ? -1 : 0)) / 3, 12));
  });
});

describe('reviewerDrifts', () => {
  it('finds the one reviewer that changed, where it changed, and not the others its step moved', () => {
    const columns = observationsToColumns(store(-1));
    const found = reviewerDrifts(columns, { alpha: 0.05 / 6, seed: 1, margin: 0.25 });
    expect(found).toHaveLength(1);
    expect(columns.models[found[0]!.model]).toBe('a');
    expect(found[0]).toMatchObject({ fromSession: 20, cause: 'scan', method: 'cusum_permutation' });
    expect(found[0]!.sessionsBefore).toBe(20);
    expect(found[0]!.sessionsAfter).toBe(20);
    // A clean step of 20 against ±0.1: no permutation of the 40 sessions reaches it (p = 1/10,000).
    expect(found[0]!.pValue).toBeCloseTo(1 / 10_000, 12);
  });

  it('tests at the config-version change where the reviewer has one', () => {
    const columns = observationsToColumns(store(-1, '1.1.0'));
    const found = reviewerDrifts(columns, { alpha: 0.05 / 6, seed: 1, margin: 0.25 });
    expect(found.map((f) => [columns.models[f.model], f.fromSession, f.cause])).toEqual([['a', 20, 'config_version']]);
  });

  it('finds nothing without a change, nor a change smaller than the margin', () => {
    const rule = { alpha: 0.05 / 6, seed: 1, margin: 0.25 };
    expect(reviewerDrifts(observationsToColumns(store(0)), rule)).toEqual([]);
    // A step of 0.2 is smaller than the margin: its interval cannot lie beyond ±0.25.
    expect(reviewerDrifts(observationsToColumns(store(-0.2)), rule)).toEqual([]);
  });
});

describe('kolmogorovTail', () => {
  it("is Kolmogorov's distribution's upper tail", () => {
    // Tabulated: P(K > 1.36) ≈ 0.0494, P(K > 1.63) ≈ 0.0098 (the 5% and 1% points 1.358 and 1.628).
    expect(kolmogorovTail(1.358)).toBeCloseTo(0.05, 3);
    expect(kolmogorovTail(1.628)).toBeCloseTo(0.01, 3);
    expect(kolmogorovTail(0)).toBe(1);
  });
});

describe('aggregateBiasAudit and a reviewer that drifts', () => {
  it('shows the latest period as the headline offset, both periods, and says so', () => {
    const report = aggregateBiasAudit(store(-1), { window: WINDOW });
    const a = report.reviewers.find((r) => r.reviewer === 'a')!;
    // Against the three others (who agree exactly), a is 0 before session 20 and −1 from it: the ±0.1 cancel over
    // each period's 10 even and 10 odd sessions (to 1e-4: the fit's position terms take a little of them).
    expect(a.offset.estimate).toBeCloseTo(-1, 3);
    expect(a.offset.sessions).toBe(20);
    expect(a.offset.windowStart).toBe('2026-10-01T20:00:00.000Z');
    expect(a.offset.note).toContain('offset since 2026-10-01T20:00:00.000Z: -1.00; before: 0.00');
    expect(a.drift).toMatchObject({
      cause: 'scan',
      since: { sessionId: 's20', timestamp: '2026-10-01T20:00:00.000Z' },
    });
    expect(a.drift!.periods.map((p) => [p.start, p.end, p.sessions])).toEqual([
      ['2026-10-01T00:00:00.000Z', '2026-10-01T19:00:00.000Z', 20],
      ['2026-10-01T20:00:00.000Z', '2026-10-02T15:00:00.000Z', 20],
    ]);
    expect(a.drift!.periods[0]!.offset.estimate).toBeCloseTo(0, 3);
    expect(a.drift!.periods[1]!.offset.estimate).toBeCloseTo(-1, 3);
    for (const r of report.reviewers.filter((x) => x.reviewer !== 'a')) {
      expect(r.drift).toBeUndefined();
      expect(r.offset.estimate).toBeCloseTo(0, 3);
    }
    expect(report.notes.some((n) => n.startsWith('a: The offset changed within the window'))).toBe(true);
    // The latest period meets minSessions (20) on its own, so it flags a harsh, at −1.
    expect(report.flags.map((f) => [f.code, f.subject])).toContainEqual(['HARSH_REVIEWER', 'a']);
  });

  it('raises REVIEWER_DRIFT from the change: the later mean gap less the earlier, with its Welch interval', () => {
    const report = aggregateBiasAudit(store(-1), { window: WINDOW });
    const change = report.reviewers.find((r) => r.reviewer === 'a')!.drift!.change;
    // a's gaps: ±0.1 (even/odd) before session 20, −1 ± 0.1 from it; each period's mean is exact (10 even, 10 odd),
    // so the step is −1. Each period's sample variance is 20·0.01/19, its mean's 0.01/19; the step's SE is
    // √(0.02/19) = 0.032444, Welch df (equal variances and sizes) 2·19 = 38, t(0.975, 38) = 2.024394:
    // −1 ± 0.065680.
    expect(change).toMatchObject({
      metric: 'reviewer_drift[a]',
      sessions: 40,
      unit: 'sessions',
      intervalMethod: 'welch_t_between_periods',
      margin: 0.25,
      windowStart: '2026-10-01T00:00:00.000Z',
      windowEnd: '2026-10-02T15:00:00.000Z',
      confidence: 'moderate',
    });
    expect(change.estimate).toBeCloseTo(-1, 10);
    expect(change.ciLower).toBeCloseTo(-1.06568, 4);
    expect(change.ciUpper).toBeCloseTo(-0.93432, 4);
    expect(change.pValue).toBeCloseTo(1 / 10_000, 12);
    const flag = report.flags.find((f) => f.code === 'REVIEWER_DRIFT')!;
    expect(flag).toMatchObject({ subject: 'a', metric: 'reviewer_drift[a]', margin: 0.25 });
    expect(flag.estimate).toBeCloseTo(-1, 10);
    expect(flag.adjustedPValue).toBeLessThanOrEqual(report.alpha);
    expect(report.flags.filter((f) => f.code === 'REVIEWER_DRIFT')).toHaveLength(1);
    expect(change.flagWithheld).toBeUndefined();
  });

  it('withholds REVIEWER_DRIFT when the change has fewer sessions than minSessions', () => {
    const report = aggregateBiasAudit(store(-1), { window: WINDOW, minSessions: 41 });
    const change = report.reviewers.find((r) => r.reviewer === 'a')!.drift!.change;
    expect(change.flagWithheld).toEqual({ code: 'REVIEWER_DRIFT', minSessions: 41 });
    expect(report.flags).toEqual([]);
  });

  it("names each period's config version where the split is a config-version change", () => {
    const report = aggregateBiasAudit(store(-1, '1.1.0'), { window: WINDOW });
    const drift = report.reviewers.find((r) => r.reviewer === 'a')!.drift!;
    expect(drift.cause).toBe('config_version');
    expect(drift.periods.map((p) => [p.configVersion, p.sessions])).toEqual([
      ['1.0.0', 20],
      ['1.1.0', 20],
    ]);
    expect(report.flags.map((f) => [f.code, f.subject])).toContainEqual(['REVIEWER_DRIFT', 'a']);
    // Without a config change the periods name none.
    const scan = aggregateBiasAudit(store(-1), { window: WINDOW }).reviewers.find((r) => r.reviewer === 'a')!.drift!;
    expect(scan.periods.map((p) => p.configVersion)).toEqual([undefined, undefined]);
  });

  it('leaves a store without a change as it was: no drift, offsets from the one fit', () => {
    const data = store(0);
    const report = aggregateBiasAudit(data, { window: WINDOW });
    const fit = fitScoreModel(observationsToColumns(data));
    for (const r of report.reviewers) {
      expect(r.drift).toBeUndefined();
      expect(r.offset.estimate).toBe(fit.reviewerOffsets.find((o) => o.subject === r.reviewer)!.estimate);
    }
    expect(report.notes.some((n) => n.includes('offset changed'))).toBe(false);
    expect(report.flags.map((f) => f.code)).not.toContain('REVIEWER_DRIFT');
  });
});

describe('aggregateBiasAudit and a reviewer that changes twice', () => {
  /**
   * 60 sessions as `store` (four members, each scoring the other three answers at their worth), config version
   * 1.0.0 in sessions 0–19, 1.1.0 in 20–39 and 1.2.0 in 40–59; `a` is 0.1 above the answer's worth in even sessions
   * and 0.1 below in odd ones, and 2 points lower under 1.1.0 only (a change and a change back).
   */
  function threeVersions(): BiasObservation[] {
    const out: BiasObservation[] = [];
    for (let s = 0; s < 60; s++) {
      const timestamp = new Date(START + s * HOUR).toISOString();
      MEMBERS.forEach((reviewer, r) => {
        const shown = MEMBERS.map((_, c) => c).filter((c) => c !== r);
        shown.forEach((_, p) => {
          const c = shown[(p + s) % shown.length]!;
          const own = reviewer === 'a' ? (s % 2 === 0 ? 0.1 : -0.1) + (s >= 20 && s < 40 ? -2 : 0) : 0;
          out.push({
            sessionId: `s${String(s).padStart(2, '0')}`,
            timestamp,
            reviewer,
            candidate: MEMBERS[c]!,
            position: p,
            responseLengthChars: 1000 * (c + 1),
            score: 5 + c / 2 + own,
            rankPosition: null,
            configVersion: s < 20 ? '1.0.0' : s < 40 ? '1.1.0' : '1.2.0',
            queryCategory: null,
          });
        });
      });
    }
    return out;
  }

  it('tests at each config-version change: three periods, the headline the latest, the change its step', () => {
    const report = aggregateBiasAudit(threeVersions(), { window: WINDOW });
    const a = report.reviewers.find((r) => r.reviewer === 'a')!;
    // Against three members who agree exactly: 0 under 1.0.0, −2 under 1.1.0, 0 again under 1.2.0.
    expect(a.drift!.periods.map((p) => [p.configVersion, p.sessions])).toEqual([
      ['1.0.0', 20],
      ['1.1.0', 20],
      ['1.2.0', 20],
    ]);
    expect(a.drift!.periods.map((p) => Math.round(p.offset.estimate! * 1000) / 1000 + 0)).toEqual([0, -2, 0]);
    expect(a.offset.estimate).toBeCloseTo(0, 3);
    expect(a.drift!.since).toEqual({ sessionId: 's40', timestamp: '2026-10-02T16:00:00.000Z' });
    // The latest change, from −2 ± 0.1 to 0 ± 0.1 over 20 + 20 sessions: +2 ± t(0.975, 38)·√(0.02/19) = 2 ± 0.065680.
    expect(a.drift!.change.estimate).toBeCloseTo(2, 10);
    expect(a.drift!.change.ciLower).toBeCloseTo(1.93432, 4);
    expect(a.drift!.change.sessions).toBe(40);
    expect(report.flags.map((f) => [f.code, f.subject])).toContainEqual(['REVIEWER_DRIFT', 'a']);
    // The latest period is fair: no harsh flag for a, and no one else drifted.
    expect(report.flags.map((f) => f.code)).not.toContain('HARSH_REVIEWER');
    for (const r of report.reviewers.filter((x) => x.reviewer !== 'a')) expect(r.drift).toBeUndefined();
    expect(a.offset.note).toContain('(2 changes, p ');
  });

  it('keeps one change where the reviewer changed once among several config versions', () => {
    // The same store with a 2 points lower from 1.1.0 on (no change back): the 1.2.0 break is tested and not kept.
    const once = threeVersions().map((o) =>
      o.reviewer === 'a' && Number(o.sessionId.slice(1)) >= 40 ? { ...o, score: o.score! - 2 } : o,
    );
    const a = aggregateBiasAudit(once, { window: WINDOW }).reviewers.find((r) => r.reviewer === 'a')!;
    expect(a.drift!.periods.map((p) => [p.configVersion, p.sessions])).toEqual([
      ['1.0.0', 20],
      [undefined, 40],
    ]);
    expect(a.offset.estimate).toBeCloseTo(-2, 3);
  });
});

describe('aggregateBiasAudit and a member that leaves', () => {
  it('does not read a harsh member leaving as the others drifting', () => {
    // The 40-session store without a change, and a fifth member h, 2 points harsh, scoring every answer in the first
    // 12 sessions only: while h is there, the others' raw gaps to "the others" are 2/3 higher (h is one of the three
    // others on most answers); measured against each reviewer's offset over the window, nothing changes.
    const harsh = store(0)
      .filter((o) => Number(o.sessionId.slice(1)) < 12 && o.reviewer === 'a')
      .map((o) => ({
        ...o,
        reviewer: 'h',
        score: o.score! - 2 - (Number(o.sessionId.slice(1)) % 2 === 0 ? 0.1 : -0.1),
      }));
    const report = aggregateBiasAudit([...store(0), ...harsh], { window: WINDOW });
    expect(report.reviewers.filter((r) => r.drift !== undefined)).toEqual([]);
    expect(report.reviewers.find((r) => r.reviewer === 'h')!.offset.estimate).toBeCloseTo(-2, 3);
  });
});

describe('aggregateBiasAudit and a council whose members rotate', () => {
  /**
   * 24 sessions of five members of which four attend, the one away moving on one a session (session s: all but
   * member s mod 5); each attending member scores the other three answers at their worth.
   */
  function rotating(): BiasObservation[] {
    const members = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const out: BiasObservation[] = [];
    for (let s = 0; s < 24; s++) {
      const here = members.filter((_, m) => m !== s % 5);
      here.forEach((reviewer, r) => {
        const shown = here.filter((_, c) => c !== r);
        shown.forEach((_, p) => {
          const c = Number(shown[(p + s) % shown.length]!.slice(1));
          out.push({
            sessionId: `s${String(s).padStart(2, '0')}`,
            timestamp: new Date(START + s * HOUR).toISOString(),
            reviewer,
            candidate: `m${c}`,
            position: p,
            responseLengthChars: 1000 * (c + 1),
            score: 5 + c / 2 + (reviewer === 'm0' ? (s % 2 === 0 ? 0.1 : -0.1) : 0),
            rankPosition: null,
            configVersion: s >= 12 ? '1.1.0' : '1.0.0',
            queryCategory: null,
          });
        });
      });
    }
    return out;
  }

  it('counts the membership changes instead of listing one at every session, and keeps the config change', () => {
    const report = aggregateBiasAudit(rotating(), { window: WINDOW });
    // Membership differs from the session before at every one of the 23 later sessions (the one away moves on).
    expect(report.membershipChanges).toEqual({
      count: 23,
      sessions: 24,
      members: ['m0', 'm1', 'm2', 'm3', 'm4'],
      minMembers: 4,
      maxMembers: 4,
    });
    expect(report.changePoints).toEqual([
      { sessionId: 's12', timestamp: '2026-10-01T12:00:00.000Z', kind: 'config_version', from: '1.0.0', to: '1.1.0' },
    ]);
    expect(report.notes.some((n) => n.startsWith('Membership changed at 23 of 24 sessions (4–4 of 5 members'))).toBe(
      true,
    );
  });

  it('still lists a membership change that happens once', () => {
    const once = store(0).filter(
      (o) => !(Number(o.sessionId.slice(1)) >= 30 && (o.reviewer === 'd' || o.candidate === 'd')),
    );
    const report = aggregateBiasAudit(once, { window: WINDOW });
    expect(report.membershipChanges).toBeUndefined();
    expect(report.changePoints).toEqual([
      { sessionId: 's30', timestamp: '2026-10-02T06:00:00.000Z', kind: 'models', from: 'a,b,c,d', to: 'a,b,c' },
    ]);
  });
});
