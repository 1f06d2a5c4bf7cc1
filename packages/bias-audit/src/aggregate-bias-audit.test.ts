import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from './aggregate-bias-audit.js';
import { BiasAuditError } from './bias-audit-error.js';
import { calibrateScores } from './calibrate-scores.js';
import type { BiasObservation } from './bias-observation.js';
import { confidenceTier } from './confidence-tier.js';
import { holmAdjust } from './holm-adjust.js';
import { weightedHolmAdjust } from './internal/weighted-holm.js';
import { fitScoreModel } from './fit-score-model.js';
import { simulateCouncils } from './internal/simulate-councils.js';
import { observationsToColumns } from './observations-to-columns.js';

const NOW = '2026-11-22T00:00:00Z';
const DAY = 86_400_000;

/**
 * `count` identical sessions, one a day before NOW: one reviewer scores four candidates of 100, 200,
 * 300 and 400 characters, shown at positions 0–3, with scores 2, 1, 4, 3 (or `alternate` in odd sessions).
 */
function identicalSessions(
  count: number,
  extra: Partial<BiasObservation> = {},
  alternate?: readonly number[],
): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < count; s++) {
    const timestamp = new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString();
    (alternate !== undefined && s % 2 === 1 ? alternate : [2, 1, 4, 3]).forEach((score, c) => {
      out.push({
        sessionId: `s${s}`,
        timestamp,
        reviewer: 'x',
        candidate: `c${c}`,
        position: c,
        responseLengthChars: 100 * (c + 1),
        score,
        rankPosition: null,
        configVersion: '1.0.0',
        queryCategory: 'coding',
        ...extra,
      });
    });
  }
  return out;
}

/**
 * The same sessions with each answer's author (and its length) moved on one place per session: the scores still
 * follow the display position, but no author is shown at one position, so position is told apart from author and
 * length (`identicalSessions` alone shows author `c_p` at position p every time: position not estimable).
 */
function rotateAuthors(data: BiasObservation[], authors = 4): BiasObservation[] {
  return data.map((o) => {
    const c = (o.position + Number(o.sessionId.slice(1))) % authors;
    return { ...o, candidate: `c${c}`, responseLengthChars: 100 * (c + 1) };
  });
}

describe('confidenceTier and holmAdjust', () => {
  it("follows ADR-018's tiers at their boundaries", () => {
    expect([9, 10, 19, 20, 49, 50].map(confidenceTier)).toEqual([
      'insufficient_data',
      'preliminary',
      'preliminary',
      'moderate',
      'moderate',
      'high',
    ]);
  });

  it('adjusts by hand: p = .01, .04, .03, .005 → .03, .06, .06, .02', () => {
    // Sorted: .005·4 = .02; .01·3 = .03; .03·2 = .06; .04·1 = .04 → running max .06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((expected, i) => expect(adjusted[i]).toBeCloseTo(expected, 12));
    expect(() => holmAdjust([0.5, 1.2])).toThrow(/\[0, 1\]/);
  });
});

describe('weightedHolmAdjust (how the report combines its flag families)', () => {
  it('gives plain Holm with equal weights', () => {
    const adjusted = weightedHolmAdjust([0.01, 0.04, 0.03, 0.005], [0.25, 0.25, 0.25, 0.25]);
    [0.03, 0.06, 0.06, 0.02].forEach((expected, i) => expect(adjusted[i]).toBeCloseTo(expected, 12));
  });

  it("passes on only a rejected hypothesis's own share of alpha, not its whole family's (worked by hand)", () => {
    // Family F1 = {1e-6, 0.02}, family F2 = {0.04}; two families, so weights 1/4, 1/4 and 1/2.
    // p / w: 4e-6, 0.08, 0.08. Step 1: 4e-6 · 1 = 4e-6. Step 2 (F1's second): 0.08 · 3/4 = 0.06.
    // Step 3 (F2): max(0.06, 0.08 · 1/2 = 0.04) = 0.06. At α = 0.05 only the first is rejected.
    // Holm on the families' Bonferroni p-values (2e-6 and 0.04) would give F2 0.04 and reject it at 0.05
    // while F1's second hypothesis still had α/4 of its own: 1.25 α in all if both are true nulls.
    const adjusted = weightedHolmAdjust([1e-6, 0.02, 0.04], [0.25, 0.25, 0.5]);
    expect(adjusted[0]).toBeCloseTo(4e-6, 15);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeCloseTo(0.06, 12);
  });
});

/** Student t quantiles at 0.975 (R: qt(0.975, df)). */
const T975 = { 11: 2.200985160082949 } as const;

describe('aggregateBiasAudit: length (worked by hand)', () => {
  // Sessions alternate between scores 2, 1, 4, 3 (type A) and 1, 2, 3, 4 (type B) for lengths 0.1–0.4
  // thousand characters. One reviewer per answer, so no reviewer effect is estimable and an answer's level is
  // its score. Centred lengths −.15, −.05, .05, .15: Sxx = 0.05 per session. A: Sxy = .3; B: Sxy = .5.
  // Pooled over 12 sessions: slope = (6·.3 + 6·.5)/(12·.05) = 4.8/0.6 = 8 points per 1,000 characters.
  // CR2: u_A = .3 − 8·.05 = −.1, u_B = +.1, leverage h = .05/.6 = 1/12: Σu²/(1 − h) = 12·.01·12/11 = 0.130909;
  // Var = 0.130909/0.6² = 0.363636, SE = 0.603023; Satterthwaite df = 0.6²/(12·.05²) = 12, capped at S − 1 = 11.
  const report = aggregateBiasAudit(identicalSessions(12, {}, [1, 2, 3, 4]), { window: { now: NOW }, minSessions: 10 });

  it('reads the within-session slope in points per 1,000 characters with its CR2 interval', () => {
    const { slope } = report.length;
    expect(slope.estimate).toBeCloseTo(8, 10);
    expect(slope.ciLower).toBeCloseTo(8 - T975[11] * 0.603023, 5);
    expect(slope.ciUpper).toBeCloseTo(8 + T975[11] * 0.603023, 5);
    expect(slope).toMatchObject({
      metric: 'length_slope_per_1000_chars',
      sessions: 12,
      sampleSize: 48,
      unit: 'answers',
      confidence: 'preliminary',
      margin: 0.05,
    });
    expect(slope.windowStart).toBe('2026-11-10T00:00:00.000Z');
    expect(slope.windowEnd).toBe('2026-11-21T00:00:00.000Z');
  });

  it("gives the pooled within-session r with a session-clustered delta interval on Fisher's z", () => {
    // Syy = 5 per session: r = 4.8/√(0.6·60) = 0.8. Influence r·(sxy/Sxy − sxx/(2Sxx) − syy/(2Syy)):
    // A 0.8·(.0625 − .041667 − .041667) = −0.016667, B +0.016667; Σ² = 12·0.000277778, ·12/11 → SE_r = 0.0603023;
    // on z: SE 0.0603023/(1 − 0.64) = 0.167506 around atanh 0.8 = 1.0986123, t on the slope's 11 df.
    const { correlation } = report.length;
    expect(correlation.estimate).toBeCloseTo(0.8, 10);
    expect(correlation.ciLower).toBeCloseTo(Math.tanh(1.0986123 - T975[11] * 0.167506), 5);
    expect(correlation.ciUpper).toBeCloseTo(Math.tanh(1.0986123 + T975[11] * 0.167506), 5);
    expect(correlation.margin).toBeUndefined(); // the slope carries the flag
  });

  it('flags it: the interval lies beyond the 0.05 margin', () => {
    const flag = report.flags.find((f) => f.code === 'LENGTH_BIAS_DETECTED')!;
    expect(flag).toMatchObject({ subject: null, metric: 'length_slope_per_1000_chars', margin: 0.05 });
    expect(flag.ciLower).toBeGreaterThan(0.05);
    // A margin above the upper end keeps the flag down, however small p of "no effect" is.
    const wide = aggregateBiasAudit(identicalSessions(12, {}, [1, 2, 3, 4]), {
      window: { now: NOW },
      minSessions: 10,
      margins: { lengthSlope: 9.5 },
    });
    expect(wide.flags.some((f) => f.code === 'LENGTH_BIAS_DETECTED')).toBe(false);
    expect(wide.length.slope.pValue).toBeLessThan(1e-6);
  });

  it('reports the between-session association, never as a flag', () => {
    // Every session has the same mean length and mean score: no spread in lengths between sessions.
    expect(report.length.betweenSessions.estimate).toBeNull();
    expect(report.length.betweenSessions.note).toMatch(/Not computable/);
  });

  it('uses the requested level, not a hard-coded 1.96', () => {
    // 90%: qt(0.95, 11) = 1.795884819.
    const slope = aggregateBiasAudit(identicalSessions(12, {}, [1, 2, 3, 4]), { window: { now: NOW }, level: 0.9 })
      .length.slope;
    expect(slope.ciLower).toBeCloseTo(8 - 1.795884819 * 0.603023, 5);
    expect(slope.level).toBe(0.9);
  });
});

describe('aggregateBiasAudit: position (worked by hand)', () => {
  it('reports position effects as within-reviewer centred means with t intervals across sessions', () => {
    // Centred scores at positions 0–3: A −.5, −1.5, 1.5, .5; B −1.5, −.5, .5, 1.5. Position 0: mean −1, each
    // session ±.5 from it: SD √(12·.25/11) = 0.522233, SE 0.150756, interval −1 ± 2.200985·0.150756.
    const report = aggregateBiasAudit(rotateAuthors(identicalSessions(12, {}, [1, 2, 3, 4])), {
      window: { now: NOW },
      minSessions: 10,
    });
    expect(report.position.effects.map((e) => e.estimate)).toEqual([-1, -1, 1, 1]);
    expect(report.position.effects[0]!.ciLower).toBeCloseTo(-1 - T975[11] * 0.150756, 5);
    expect(report.position.effects[0]!.ciUpper).toBeCloseTo(-1 + T975[11] * 0.150756, 5);
    expect(report.position.effects[0]!.margin).toBe(0.1);
    expect(report.position.primacy.estimate).toBe(-1);
    expect(report.position.recency.estimate).toBe(1);
    // One position flag for the family, carried by its largest effect (ties: the first).
    const flags = report.flags.filter((f) => f.code === 'POSITION_BIAS_DETECTED');
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ subject: null, metric: 'position_effect[0]', estimate: -1, margin: 0.1 });
  });

  it('permutes below 100 sessions by default and takes the Wald F test with resamples 0', () => {
    // All 12 blocks identical: no relabelling beats the observed arrangement, p = 1/1001.
    const same = aggregateBiasAudit(rotateAuthors(identicalSessions(12)), { window: { now: NOW } });
    expect(same.resamples).toBe(1000);
    expect(same.position.tests).toHaveLength(1);
    expect(same.position.tests[0]).toMatchObject({
      basis: 'scores',
      method: 'permutation',
      pValue: 1 / 1001,
      permutations: 1000,
      sessions: 12,
    });
    // Wald, degenerate: θ = (−1, −1, 1, 1) while every session's vector is θ ± .5·(1, −1, 1, −1), so V has rank 1
    // and θ lies outside it — a direction no session varies in, which a sandwich cannot judge: no test.
    const wald = aggregateBiasAudit(rotateAuthors(identicalSessions(12, {}, [1, 2, 3, 4])), {
      window: { now: NOW },
      resamples: 0,
    });
    expect(wald.position.tests).toEqual([]);
  });

  it('reads the Wald F by hand where the sessions vary: F = t² of position 0 with two positions', () => {
    // One reviewer, two answers: score gaps 2 and 4 alternate, so the centred value at position 0 is 1 or 2
    // (mean 1.5, SD √(3/11), SE 0.150756). V = SE²·[[1, −1], [−1, 1]], θ = (1.5, −1.5): W = 3²/(4·SE²) = 99,
    // F = W·(12 − 1)/(1·11) = 99 on (1, 11) df, the square of t = 1.5/0.150756 = 9.9499.
    const data: BiasObservation[] = [];
    for (let s = 0; s < 12; s++) {
      const gap = s % 2 === 0 ? 2 : 4;
      [5 + gap, 5].forEach((score, position) =>
        data.push({
          sessionId: `w${s}`,
          timestamp: new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString(),
          reviewer: 'x',
          // Authors alternate between the two places (an author always at one place is not estimable).
          candidate: `c${(position + s) % 2}`,
          position,
          responseLengthChars: 100,
          score,
          rankPosition: null,
          configVersion: null,
          queryCategory: null,
        }),
      );
    }
    const report = aggregateBiasAudit(data, { window: { now: NOW }, resamples: 0 });
    expect(report.position.tests).toHaveLength(1);
    expect(report.position.tests[0]!.method).toBe('wald_f');
    expect(report.position.tests[0]!.statistic).toBeCloseTo(99, 8);
    expect(report.position.tests[0]!.pValue).toBeCloseTo(report.position.effects[0]!.pValue!, 12);
  });

  it('counts rank-only reviewers through rank-based position effects', () => {
    // Ranks 1, 0, 3, 2 at positions 0..3 (k = 4): points 1 − rank/3 = 2/3, 1, 0, 1/3; centred on ½: 1/6, 1/2, −1/2, −1/6.
    const data = identicalSessions(12).map((o) => ({ ...o, score: null, rankPosition: [1, 0, 3, 2][o.position]! }));
    const report = aggregateBiasAudit(data, { window: { now: NOW } });
    report.position.rankEffects.forEach((e, p) =>
      expect(e.estimate).toBeCloseTo([1 / 6, 1 / 2, -1 / 2, -1 / 6][p]!, 12),
    );
    expect(report.position.tests.map((t) => t.basis)).toEqual(['ranks']);
    expect(report.position.tests[0]!.pValue).toBeCloseTo(1 / 1001, 9);
    expect(report.notes.join(' ')).toMatch(/No observation in the window carries a score/);
  });
});

describe('aggregateBiasAudit: reviewers, self-preference and affinity (worked by hand)', () => {
  // Reviewers c0, c1, c2 score candidates c0..c3 (quality 5, 6, 7, 4) in 12 identical sessions; c0 adds 2 to
  // its own answer, c1 adds 1 to c3's. Each reviewer → author pair's effect (its score less the answer's level, up
  // to a constant per author): author c0 (by c1, c2) 5, 5; c1 (by c0, c2) 6, 6; c2 (by c0, c1) 7, 7; c3 (by c0, c1,
  // c2) 4, 5, 4. Author level + reviewer offset fits every pair exactly with equal offsets and levels 5, 6, 7, 4 —
  // all but c1→c3, 1 point off with no noise at all (every session alike), so the robust table sets it aside:
  // offsets 0, 0, 0; affinity c1→c3 = 5 − 4 − 0 = 1, every other pair 5 − 5 = 0 (…). Self-preference, its own
  // answer against that answer's level from the others and its offset: c0 7 − 5 − 0 = 2, c1 6 − 6 = 0, c2 7 − 7 = 0.
  // (Least squares on reviewer offsets alone read c1 as 0.4 generous and c1→c3 as 0.4: the affinity leaked.)
  // No spread, so every interval is its point.
  const base = [5, 6, 7, 4];
  const data: BiasObservation[] = [];
  for (let s = 0; s < 12; s++) {
    for (const reviewer of ['c0', 'c1', 'c2']) {
      base.forEach((q, c) => {
        const bonus = (reviewer === 'c0' && c === 0 ? 2 : 0) + (reviewer === 'c1' && c === 3 ? 1 : 0);
        data.push({
          sessionId: `s${s}`,
          timestamp: new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString(),
          reviewer,
          candidate: `c${c}`,
          position: c,
          responseLengthChars: 100,
          score: q + bonus,
          rankPosition: null,
          configVersion: null,
          queryCategory: null,
        });
      });
    }
  }
  const report = aggregateBiasAudit(data, { window: { now: NOW }, minSessions: 10 });

  it('measures each reviewer against the typical reviewer, and an affinity for one author does not move it', () => {
    const offsets = Object.fromEntries(report.reviewers.map((r) => [r.reviewer, r.offset]));
    expect(offsets['c0']!.estimate).toBeCloseTo(0, 10);
    expect(offsets['c1']!.estimate).toBeCloseTo(0, 10);
    expect(offsets['c2']!.estimate).toBeCloseTo(0, 10);
    // (Within rounding: the pair means' influences cancel across identical sessions to about 1e-9.)
    expect(offsets['c1']!.ciUpper).toBeCloseTo(0, 7);
    // All three agree (to rounding): full weight in the centre.
    for (const r of report.reviewers) expect(r.centreWeight).toBeCloseTo(1, 9);
    // c1's +1 for c3 is an affinity, not generosity: no reviewer flagged.
    expect(
      report.flags.filter((f) => f.code === 'GENEROUS_REVIEWER' || f.code === 'HARSH_REVIEWER').map((f) => f.subject),
    ).toEqual([]);
  });

  it('reads self-preference per reviewer beyond its offset, and flags only a positive one', () => {
    expect(report.selfPreference.map((f) => [f.metric, Number(f.estimate!.toFixed(10)) + 0])).toEqual([
      ['self_preference[c0]', 2],
      ['self_preference[c1]', 0],
      ['self_preference[c2]', 0],
    ]);
    expect(report.flags.filter((f) => f.code === 'SELF_PREFERENCE').map((f) => f.subject)).toEqual(['c0']);
  });

  it("reads affinity as the pair effect beyond its author's level and its reviewer's offset", () => {
    const affinity = Object.fromEntries(report.affinity.map((f) => [f.metric, f.estimate!]));
    expect(affinity['affinity[c1→c3]']).toBeCloseTo(1, 10);
    expect(affinity['affinity[c0→c3]']).toBeCloseTo(0, 10);
    expect(affinity['affinity[c1→c0]']).toBeCloseTo(0, 10);
    expect(affinity['affinity[c2→c0]']).toBeCloseTo(0, 10);
    expect(affinity['affinity[c0→c2]']).toBeCloseTo(0, 10);
    expect(affinity['affinity[c0→c1]']).toBeCloseTo(0, 10);
    expect(affinity['affinity[c2→c3]']).toBeCloseTo(0, 10);
    // Only c1→c3 clears the 0.25 margin.
    expect(report.flags.filter((f) => f.code === 'REVIEWER_AFFINITY').map((f) => f.subject)).toEqual(['c1→c3']);
  });

  it('gives each reviewer its mean and SD with intervals clustered by session', () => {
    // c0 scores 7, 6, 7, 4 in each session: mean 6, sample SD over 48 scores √(12·6/47) = 1.237705; sessions
    // alike, so both intervals are their points.
    const c0 = report.reviewers.find((r) => r.reviewer === 'c0')!;
    expect(c0.mean).toMatchObject({ metric: 'reviewer_mean[c0]', estimate: 6, sampleSize: 48, sessions: 12 });
    expect(c0.mean.ciLower).toBeCloseTo(6, 10);
    expect(c0.standardDeviation.estimate).toBeCloseTo(Math.sqrt(72 / 47), 10);
    expect(c0.standardDeviation.ciUpper).toBeCloseTo(Math.sqrt(72 / 47), 10);
  });

  it('states the window figures under the tier: nothing shown below 10 sessions', () => {
    const few = aggregateBiasAudit(
      data.filter((o) => Number(o.sessionId.slice(1)) < 9),
      { window: { now: NOW } },
    );
    expect(few.confidence).toBe('insufficient_data');
    for (const r of few.reviewers)
      expect([r.offset.estimate, r.mean.estimate, r.z.estimate]).toEqual([null, null, null]);
    expect(few.flags).toEqual([]);
  });

  // The same 12 sessions with c1 half a point generous on every answer (its pair effects all 0.5 higher: offset
  // 0.5, c1→c3 still 5.5 − 4 − 0.5 = 1, its self-preference 6.5 − 6 − 0.5 = 0), and 12 more in which c0 and c2 alone
  // score four answers no reviewer wrote (d0..d3, quality 5, 6, 7, 4, no bonus): those only say o0 = o2, which the
  // table above already holds with no residual, so c1 is 0.5 generous with a point interval — from its own 12
  // sessions, in a window of 24.
  const generous = data.map((o) => (o.reviewer === 'c1' ? { ...o, score: o.score! + 0.5 } : o));
  const extra: BiasObservation[] = [];
  for (let s = 12; s < 24; s++)
    for (const reviewer of ['c0', 'c2'])
      base.forEach((q, c) =>
        extra.push({
          sessionId: `s${s}`,
          timestamp: new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString(),
          reviewer,
          candidate: `d${c}`,
          position: c,
          responseLengthChars: 100,
          score: q,
          rankPosition: null,
          configVersion: null,
          queryCategory: null,
        }),
      );

  it('raises a flag only from a figure whose own sessions meet minSessions, and marks the one it held back', () => {
    const wide = aggregateBiasAudit([...generous, ...extra], { window: { now: NOW } });
    expect([wide.window.sessions, wide.minSessions, wide.meetsMinimum]).toEqual([24, 20, true]);
    const c1 = wide.reviewers.find((r) => r.reviewer === 'c1')!.offset;
    expect(c1).toMatchObject({ sessions: 12, confidence: 'preliminary' });
    expect(c1.estimate).toBeCloseTo(0.5, 10);
    expect(c1.ciLower).toBeCloseTo(0.5, 10);
    expect(c1.flagWithheld).toEqual({ code: 'GENEROUS_REVIEWER', minSessions: 20 });
    // c0's self-preference (2) and c1→c3 (1) come from the same 12 sessions: held back too.
    expect(wide.selfPreference.find((f) => f.metric === 'self_preference[c0]')!.flagWithheld).toEqual({
      code: 'SELF_PREFERENCE',
      minSessions: 20,
    });
    expect(wide.affinity.find((f) => f.metric === 'affinity[c1→c3]')!.flagWithheld).toEqual({
      code: 'REVIEWER_AFFINITY',
      minSessions: 20,
    });
    // (Position and anchoring flag here from all 24 sessions: the answers' quality falls with position.)
    const own = ['GENEROUS_REVIEWER', 'HARSH_REVIEWER', 'SELF_PREFERENCE', 'REVIEWER_AFFINITY'];
    expect(wide.flags.filter((f) => own.includes(f.code))).toEqual([]);
    // c0 and c2 (24 sessions, offset 0) would raise nothing: nothing to hold back.
    expect(wide.reviewers.find((r) => r.reviewer === 'c0')!.offset.flagWithheld).toBeUndefined();
    // With minSessions 12, c1's 12 sessions meet it: the same figure flags, and is not marked.
    const met = aggregateBiasAudit([...generous, ...extra], { window: { now: NOW }, minSessions: 12 });
    expect(met.flags.filter((f) => f.code === 'GENEROUS_REVIEWER').map((f) => f.subject)).toEqual(['c1']);
    expect(met.reviewers.find((r) => r.reviewer === 'c1')!.offset.flagWithheld).toBeUndefined();
  });
});

describe('aggregateBiasAudit: a reviewer mean interval with spread (worked by hand)', () => {
  it('clusters the mean by session', () => {
    // Reviewer x scores 2, 1, 4, 3 (sum 10) in even sessions and 3, 2, 5, 4 (sum 14) in odd ones: mean 3; the
    // influence a_s − 3·4 = ∓2 per session: Σ = 48, ·12/11, /48² → SE 0.150756; interval 3 ± 2.200985·0.150756.
    const report = aggregateBiasAudit(identicalSessions(12, {}, [3, 2, 5, 4]), { window: { now: NOW } });
    const x = report.reviewers[0]!;
    expect(x.mean.estimate).toBeCloseTo(3, 12);
    expect(x.mean.ciLower).toBeCloseTo(3 - T975[11] * 0.150756, 5);
    expect(x.mean.ciUpper).toBeCloseTo(3 + T975[11] * 0.150756, 5);
    // With one reviewer there is no offset to estimate: shown as not computable, with the reason.
    expect(x.offset.estimate).toBeNull();
    expect(x.offset.note).toMatch(/Not computable/);
  });

  it('feeds the calibrated view (analytics only) from the profile', () => {
    // x in identical sessions: mean 2.5, sample SD √(60/47) = 1.129865; a score of 4 → 1.5/1.129865 = 1.327592.
    const data = identicalSessions(12);
    const report = aggregateBiasAudit(data, { window: { now: NOW } });
    expect(calibrateScores(data.slice(0, 4), report.reviewers)[2]!.calibratedScore).toBeCloseTo(1.327592, 6);
    expect(calibrateScores([{ ...data[0]!, score: null }], report.reviewers)[0]!.calibratedScore).toBeNull();
  });
});

describe('aggregateBiasAudit: window, trends, anomalies, change points and input', () => {
  it('raises no flag below minSessions, and says why', () => {
    const quiet = aggregateBiasAudit(identicalSessions(12, {}, [1, 2, 3, 4]), { window: { now: NOW } });
    expect(quiet.meetsMinimum).toBe(false);
    expect(quiet.flags).toEqual([]);
    expect(quiet.notes.join(' ')).toMatch(/fewer than minSessions = 20/);
  });

  it('honours the window: maxDays, maxSessions, now and the filters, counting what it left out', () => {
    const data = identicalSessions(40);
    const byDays = aggregateBiasAudit(data, { window: { now: NOW, days: 30 } });
    // Sessions 1..30 days before NOW are inside [NOW − 30 d, NOW]; the other 10 sessions (40 observations) are not.
    expect(byDays.window.sessions).toBe(30);
    expect(byDays.window.excluded.outsideWindow).toBe(40);
    const bySessions = aggregateBiasAudit(data, { window: { now: NOW, days: Number.POSITIVE_INFINITY, sessions: 25 } });
    expect(bySessions.window.sessions).toBe(25);
    expect(bySessions.window.excluded.beyondMaxSessions).toBe(60);
    expect(bySessions.window.start).toBe('2026-10-28T00:00:00.000Z');
    const filtered = aggregateBiasAudit(data, { window: { now: NOW, configVersion: '2.0.0' } });
    expect(filtered.window.sessions).toBe(0);
    expect(filtered.window.excluded.filteredOut).toBe(160);
    expect(aggregateBiasAudit(data, { window: { now: NOW, model: 'c0' } }).window.observations).toBe(30);
    expect(aggregateBiasAudit(data, { window: { now: NOW, queryCategory: 'coding' } }).window.sessions).toBe(30);
  });

  it('takes columns whole: the same report as the observations they hold', () => {
    const data = identicalSessions(30, {}, [1, 2, 3, 4]);
    const fromObservations = aggregateBiasAudit(data, { window: { now: NOW, days: Number.POSITIVE_INFINITY } });
    const fromColumns = aggregateBiasAudit(observationsToColumns(data), {
      window: { now: NOW, days: Number.POSITIVE_INFINITY },
    });
    expect(fromColumns).toEqual(fromObservations);
  });

  it('finds change points where the config version or the set of models changes', () => {
    const early = identicalSessions(3).map((o) => ({
      ...o,
      sessionId: `a-${o.sessionId}`,
      timestamp: new Date(Date.parse(o.timestamp) - 10 * DAY).toISOString(),
    }));
    const late = identicalSessions(3, { configVersion: '2.0.0' });
    const report = aggregateBiasAudit([...early, ...late], { window: { now: NOW } });
    expect(report.changePoints).toEqual([
      { sessionId: 's2', timestamp: '2026-11-19T00:00:00.000Z', kind: 'config_version', from: '1.0.0', to: '2.0.0' },
    ]);
    expect(report.notes.join(' ')).toMatch(/change point/);
  });

  it('flags a session whose mean score sits far from the others as an anomaly', () => {
    const data = identicalSessions(12).map((o, i) => ({
      ...o,
      score: (o.score ?? 0) + (i % 3) * 0.1 + (o.sessionId === 's5' ? 5 : 0),
    }));
    const anomalies = aggregateBiasAudit(data, { window: { now: NOW } }).anomalies.filter(
      (a) => a.indicator === 'mean_score',
    );
    expect(anomalies.map((a) => a.sessionId)).toEqual(['s5']);
    expect(anomalies[0]!.robustZ).toBeGreaterThan(3.5);
  });

  it('carries no p-value, test, weight or anomaly below 10 sessions (ADR-018: no metrics shown)', () => {
    // The anomaly test's spike, in 9 sessions: s5's mean sits 5 points above the others, and 9 sessions give a
    // position test; at the insufficient tier neither is reported, nor the family tests or the centre weights.
    const data = identicalSessions(9).map((o, i) => ({
      ...o,
      score: (o.score ?? 0) + (i % 3) * 0.1 + (o.sessionId === 's5' ? 5 : 0),
    }));
    const few = aggregateBiasAudit(data, { window: { now: NOW }, minSessions: 1 });
    expect(few.confidence).toBe('insufficient_data');
    expect([few.anomalies, few.tests, few.position.tests, few.flags]).toEqual([[], [], [], []]);
    expect(few.reviewers.map((r) => r.centreWeight)).toEqual([null]);
    // One more session (10, preliminary): they are back.
    const ten = aggregateBiasAudit(
      rotateAuthors(identicalSessions(10)).map((o, i) => ({
        ...o,
        score: (o.score ?? 0) + (i % 3) * 0.1 + (o.sessionId === 's5' ? 5 : 0),
      })),
      { window: { now: NOW }, minSessions: 1 },
    );
    expect(ten.anomalies.map((a) => a.sessionId)).toContain('s5');
    expect(ten.position.tests.length).toBeGreaterThan(0);
    // A lone reviewer has no offset to weigh: its weight is 0, but a number again.
    expect(ten.reviewers.map((r) => r.centreWeight)).toEqual([0]);
  });

  it('fits a trend slope per day and honours the rolling window size', () => {
    // Session s (s + 1 days before NOW) has its scores' deviations scaled by √(1 + s), so its position
    // spread (population variance of the centred means −.5, −1.5, 1.5, .5 = 1.25) is 1.25·(1 + s). Counting
    // days from the oldest session (s = 11), s = 11 − d: spread = 1.25·(12 − d), a slope of exactly −1.25 per day.
    const data = identicalSessions(12).map((o) => {
      const s = Number(o.sessionId.slice(1));
      return { ...o, score: 2.5 + (o.score! - 2.5) * Math.sqrt(1 + s) };
    });
    const trends = aggregateBiasAudit(data, { window: { now: NOW } }).trends;
    const spread = trends.find((t) => t.indicator === 'position_spread')!;
    expect(spread.slopePerDay.estimate).toBeCloseTo(-1.25, 10);
    expect(spread.slopePerDay.note).toMatch(/exactly on a line/);
    expect(spread.windows).toHaveLength(1);
    expect(spread.windows[0]!.sessions).toBe(10);
    // Scaling leaves every session's length correlation at 0.6, so its slope is 0.
    expect(trends.find((t) => t.indicator === 'length_score_correlation')!.slopePerDay.estimate).toBeCloseTo(0, 12);
  });

  it('is deterministic for a seed and rejects bad input and options with what to fix', () => {
    const data = identicalSessions(12);
    expect(aggregateBiasAudit(data, { window: { now: NOW }, seed: 3 })).toEqual(
      aggregateBiasAudit(data, { window: { now: NOW }, seed: 3 }),
    );
    const bad = [{ ...data[0]!, timestamp: 'yesterday' }];
    expect(() => aggregateBiasAudit(bad, { window: { now: NOW } })).toThrow(BiasAuditError);
    expect(() => aggregateBiasAudit(bad, { window: { now: NOW } })).toThrow(/observations\[0\].*timestamp "yesterday"/);
    expect(() => aggregateBiasAudit([{ ...data[0]!, score: Number.NaN }], { window: { now: NOW } })).toThrow(
      /score NaN/,
    );
    expect(() => aggregateBiasAudit([{ ...data[0]!, position: 1e300 }], { window: { now: NOW } })).toThrow(
      BiasAuditError,
    );
    expect(() => aggregateBiasAudit([{ ...data[0]!, position: 65_536 }], { window: { now: NOW } })).toThrow(
      /position 65536 must be a 0-based integer of at most 65535/,
    );
    expect(() => aggregateBiasAudit(data, { window: { now: NOW }, level: 1.2 })).toThrow(/level/);
    expect(() => aggregateBiasAudit(data, { window: { now: 'soon' } })).toThrow(/now must be/);
    expect(() => aggregateBiasAudit(data, { window: { now: NOW }, resamples: 5 })).toThrow(
      /resamples must be 0 .* or at least 20, got 5/,
    );
    expect(() => aggregateBiasAudit(data, { window: { now: NOW }, margins: { harshness: 1 } as never })).toThrow(
      /margins\.harshness is not a family; use one of lengthSlope/,
    );
    expect(() => aggregateBiasAudit(data, { window: { now: NOW }, margins: { position: -1 } })).toThrow(
      /margins\.position must be a finite number of at least 0/,
    );
    expect(() => aggregateBiasAudit({} as never)).toThrow(
      /array of BiasObservation records, the columns of readBiasRecords, or the summaries of summarizeBiasSessions/,
    );
  });
});

describe('aggregateBiasAudit: what a review found (large stores, stray records)', () => {
  const simulateSessions = (spec: { sessions: number; seed: number; offsets: number[] }): BiasObservation[] =>
    simulateCouncils({
      sessions: spec.sessions,
      seed: spec.seed,
      models: spec.offsets.length,
      reviewers: spec.offsets.length,
      selfReview: false,
      reviewerNoise: 0.8,
      reviewerOffsets: spec.offsets,
    });
  const window = {
    window: { now: '2100-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY },
  };

  it('keeps fair reviewers typical at 20,000 sessions, where their standard errors are tiny', () => {
    // Offsets 0, 0.06, 0.12 and −1.2: measured in their own SEs alone the three fair reviewers are all "far"
    // from each other, the centre fell back to the mean of four, and B and C read +0.32, +0.38: GENEROUS.
    const report = aggregateBiasAudit(
      simulateSessions({ sessions: 20_000, seed: 5, offsets: [0, 0.06, 0.12, -1.2] }),
      window,
    );
    expect(report.flags.map((f) => `${f.code} ${f.subject ?? ''}`)).toEqual(['HARSH_REVIEWER model-3']);
    const offsets = Object.fromEntries(report.reviewers.map((r) => [r.reviewer, r.offset.estimate!]));
    // The centre is the fair reviewers' (≈ 0.06): they sit within ±0.1 of it, the harsh one ≈ −1.26.
    for (const fair of ['model-0', 'model-1', 'model-2']) expect(Math.abs(offsets[fair]!)).toBeLessThan(0.1);
    expect(offsets['model-3']).toBeLessThan(-1.1);
    // They are the centre (full weight, not a fallback to the median), the harsh one is not.
    const weights = Object.fromEntries(report.reviewers.map((r) => [r.reviewer, r.centreWeight]));
    for (const fair of ['model-0', 'model-1', 'model-2']) expect(weights[fair]).toBeGreaterThan(0.5);
    expect(weights['model-3']).toBe(0);
    // 20,000 simulated sessions: about 1.5 s alone, 3.6 s on a busy machine, past vitest's 5 s when busier.
  }, 60_000);

  it('gives a reviewer seen in few sessions the degrees of freedom of those sessions', () => {
    const data = simulateSessions({ sessions: 60, seed: 6, offsets: [0, 0, 0, 0] }).filter(
      (o) => o.reviewer !== 'model-3' || Number(o.sessionId.split('-')[1]) < 8,
    );
    const fit = fitScoreModel(observationsToColumns(data));
    const rare = fit.reviewerOffsets.find((o) => o.subject === 'model-3')!;
    expect(rare.sessions).toBe(8);
    expect(rare.df).toBe(7);
    expect(fit.reviewerOffsets.find((o) => o.subject === 'model-0')!.df).toBe(59);
  });

  it('measures the others when one reviewer scored only answers no one else scored', () => {
    const data = simulateSessions({ sessions: 30, seed: 7, offsets: [0, 0, 0] });
    for (let s = 0; s < 30; s++)
      data.push({ ...data[s * 6]!, reviewer: 'loner', candidate: 'unseen', position: 0, score: 7 });
    const report = aggregateBiasAudit(data, window);
    expect(report.reviewers.filter((r) => r.offset.estimate !== null).map((r) => r.reviewer)).toEqual([
      'model-0',
      'model-1',
      'model-2',
    ]);
    expect(report.reviewers.find((r) => r.reviewer === 'loner')!.offset.note).toMatch(/Not computable/);
  });

  it('leaves a position shown in one session out of the Wald test instead of calling the test certain', () => {
    const data = simulateSessions({ sessions: 200, seed: 8, offsets: [0, 0, 0, 0, 0] });
    data.push({ ...data[0]!, candidate: 'extra', position: 5, score: 6 });
    const test = aggregateBiasAudit(data, window).position.tests[0]!;
    expect(test.method).toBe('wald_f');
    expect(Number.isFinite(test.statistic)).toBe(true);
    expect(test.pValue).toBeGreaterThan(0.001);
  });

  it('sizes the model by the positions shown, and refuses columns with an impossible position', () => {
    const data = simulateSessions({ sessions: 30, seed: 9, offsets: [0, 0, 0] }).map((o, i) =>
      i === 0 ? { ...o, position: 30_000 } : o,
    );
    expect(aggregateBiasAudit(data, window).window.sessions).toBe(30);
    const columns = observationsToColumns(data);
    columns.position[0] = 70_000;
    expect(() => aggregateBiasAudit(columns, window)).toThrow(BiasAuditError);
    expect(() => aggregateBiasAudit(columns, window)).toThrow(/display position 70000, beyond 65535/);
  });
});

describe('aggregateBiasAudit: the between-session length slope', () => {
  const betweenOf = (sessions: number) => {
    // A between-session confound: sessions' mean length 1,500 ± 600 characters, +1 point per 1,000 characters of it.
    const observations = simulateCouncils({
      sessions,
      seed: 31,
      lengthChars: { mean: 1500, sd: 400, betweenSessionSd: 600 },
      betweenSessionSlopePer1000Chars: 1,
    });
    return aggregateBiasAudit(observations, { window: { now: NOW, days: Infinity, sessions: 100_000 } }).length
      .betweenSessions;
  };

  it('takes its interval and p from the restricted wild bootstrap from 12 to 200 sessions, from the HC2 t outside', () => {
    expect(betweenOf(11).intervalMethod).toBe('ols_hc2_bell_mccaffrey_t');
    expect(betweenOf(12).intervalMethod).toBe('ols_hc2_restricted_wild_bootstrap');
    expect(betweenOf(200).intervalMethod).toBe('ols_hc2_restricted_wild_bootstrap');
    expect(betweenOf(201).intervalMethod).toBe('ols_hc2_bell_mccaffrey_t');
  });

  it('holds the planted +1 point per 1,000 characters, and its p agrees with its interval', () => {
    for (const sessions of [12, 40, 201]) {
      const figure = betweenOf(sessions);
      expect(figure.ciLower!).toBeLessThan(1);
      expect(figure.ciUpper!).toBeGreaterThan(1);
      expect(figure.ciLower! > 0).toBe(figure.pValue! <= 0.05);
    }
  });
});
