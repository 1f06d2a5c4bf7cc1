import { describe, expect, it } from 'vitest';
import { aggregateBiasAudit } from './aggregate-bias-audit.js';
import { BiasAuditError } from './bias-audit-error.js';
import { calibrateScores } from './calibrate-scores.js';
import type { BiasObservation } from './bias-observation.js';
import { confidenceTier } from './confidence-tier.js';
import { holmAdjust } from './holm-adjust.js';
import { weightedHolmAdjust } from './internal/weighted-holm.js';

const NOW = '2026-11-22T00:00:00Z';
const DAY = 86_400_000;

/**
 * `count` identical sessions, one a day before NOW: one reviewer scores four candidates of 100, 200,
 * 300 and 400 characters, shown at positions 0–3, with scores 2, 1, 4, 3.
 */
function identicalSessions(count: number, extra: Partial<BiasObservation> = {}): BiasObservation[] {
  const out: BiasObservation[] = [];
  for (let s = 0; s < count; s++) {
    const timestamp = new Date(Date.parse(NOW) - (s + 1) * DAY).toISOString();
    [2, 1, 4, 3].forEach((score, c) => {
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

describe('confidenceTier and holmAdjust', () => {
  it("follows ADR-018's tiers at their boundaries", () => {
    expect([9, 10, 19, 20, 49, 50].map(confidenceTier)).toEqual(['insufficient_data', 'preliminary', 'preliminary', 'moderate', 'moderate', 'high']);
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

  it('passes on only a rejected hypothesis\'s own share of alpha, not its whole family\'s (worked by hand)', () => {
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

describe('aggregateBiasAudit on hand-checkable data', () => {
  it('pools the length correlation with Fisher z (worked by hand) and tests it with the pooled score test', () => {
    // Each session: lengths 1..4 (×100) centred −1.5, −.5, .5, 1.5; scores 2, 1, 4, 3 centred −.5, −1.5, 1.5, .5.
    // Σxy = .75 + .75 + .75 + .75 = 3, Σx² = Σy² = 5 → r = 0.6, n = 4, weight n − 3 = 1.
    // z = atanh .6 = ½ ln 4 = 0.693147; bias-corrected z − r/(2n − 5) = 0.693147 − 0.2 = 0.493147.
    // All 12 sessions agree, so the between-session spread is 0 and the textbook SE 1/√12 = 0.288675 is used:
    // 0.493147 ± 1.959964·0.288675 = [−0.072647, 1.058941] → tanh: estimate 0.456711, interval [−0.072518, 0.785258].
    // Score test: T = Σ(n − 1)r / √Σ(n − 1) = 12·3·0.6/√36 = 3.6 → p = 2Φ(−3.6) = 0.000318.
    const report = aggregateBiasAudit(identicalSessions(12), { now: NOW });
    const L = report.lengthCorrelation;
    expect(L.estimate).toBeCloseTo(0.456711, 5);
    expect(L.ciLower).toBeCloseTo(-0.072518, 5);
    expect(L.ciUpper).toBeCloseTo(0.785258, 5);
    expect(L.pValue).toBeCloseTo(0.000318, 6);
    expect(L).toMatchObject({ sessions: 12, sampleSize: 48, unit: 'candidate_pairs', confidence: 'preliminary', level: 0.95 });
    expect(L.note).toMatch(/High volatility/);
    expect(L.windowStart).toBe('2026-11-10T00:00:00.000Z');
    expect(L.windowEnd).toBe('2026-11-21T00:00:00.000Z');
  });

  it('uses the requested level, not a hard-coded 1.96', () => {
    // 90%: z = 1.644854; 0.493147 ± 1.644854·0.288675 = [0.018318, 0.967976] → tanh: 0.018316 and
    // (e^1.935952 − 1)/(e^1.935952 + 1) = 5.930640/7.930640 = 0.747813.
    const L = aggregateBiasAudit(identicalSessions(12), { now: NOW, level: 0.9 }).lengthCorrelation;
    expect(L.ciLower).toBeCloseTo(0.018316, 5);
    expect(L.ciUpper).toBeCloseTo(0.747813, 5);
    expect(L.level).toBe(0.9);
  });

  it('raises no flag below minSessions, and Holm-corrected flags above it', () => {
    const quiet = aggregateBiasAudit(identicalSessions(12), { now: NOW });
    expect(quiet.meetsMinimum).toBe(false);
    expect(quiet.flags).toEqual([]);
    expect(quiet.notes.join(' ')).toMatch(/fewer than minSessions = 20/);

    // Families: length p = 0.000318; position (permutation; all 12 blocks identical, so no shuffle beats the
    // observed arrangement) p = 1/1001. Holm with m = 2: length 2·0.000318 = 0.000636, position max(0.000636, 0.000999).
    const loud = aggregateBiasAudit(identicalSessions(12), { now: NOW, minSessions: 10 });
    expect(loud.tests.map((t) => [t.family, t.rejected])).toEqual([
      ['length', true],
      ['position', true],
    ]);
    expect(loud.tests[0]!.adjustedPValue).toBeCloseTo(0.000636, 6);
    expect(loud.tests[1]!.pValue).toBeCloseTo(1 / 1001, 9);
    expect(loud.flags.map((f) => f.code)).toEqual(['LENGTH_BIAS_DETECTED', 'POSITION_BIAS_DETECTED']);
  });

  it('shows no estimate under insufficient_data (fewer than 10 sessions)', () => {
    const report = aggregateBiasAudit(identicalSessions(9), { now: NOW });
    expect(report.confidence).toBe('insufficient_data');
    expect(report.lengthCorrelation).toMatchObject({ estimate: null, ciLower: null, ciUpper: null, pValue: null, bootstrap: null, sessions: 9 });
    expect(report.lengthCorrelation.note).toMatch(/Collecting data/);
    for (const effect of report.position.effects) expect(effect.estimate).toBeNull();
    expect(report.flags).toEqual([]);
  });

  it('reports position effects as within-reviewer centred means, and a spread-free series as not computable', () => {
    // Centred scores at positions 0..3 are −.5, −1.5, 1.5, .5 in every session: the estimate is exact, with no interval.
    const report = aggregateBiasAudit(identicalSessions(12), { now: NOW });
    expect(report.position.effects.map((e) => e.estimate)).toEqual([-0.5, -1.5, 1.5, 0.5]);
    expect(report.position.effects[0]!.ciLower).toBeNull();
    expect(report.position.effects[0]!.note).toMatch(/same value/);
    expect(report.position.primacy.estimate).toBe(-0.5);
    expect(report.position.recency.estimate).toBe(0.5);
  });

  it('honours the window: maxDays, maxSessions, now and the filters, counting what it left out', () => {
    const data = identicalSessions(40);
    const byDays = aggregateBiasAudit(data, { now: NOW, maxDays: 30 });
    // Sessions 1..30 days before NOW are inside [NOW − 30 d, NOW]; the other 10 sessions (40 observations) are not.
    expect(byDays.window.sessions).toBe(30);
    expect(byDays.window.excluded.outsideWindow).toBe(40);
    const bySessions = aggregateBiasAudit(data, { now: NOW, maxDays: Number.POSITIVE_INFINITY, maxSessions: 25 });
    expect(bySessions.window.sessions).toBe(25);
    expect(bySessions.window.excluded.beyondMaxSessions).toBe(60);
    expect(bySessions.window.start).toBe('2026-10-28T00:00:00.000Z');
    const filtered = aggregateBiasAudit(data, { now: NOW, configVersion: '2.0.0' });
    expect(filtered.window.sessions).toBe(0);
    expect(filtered.window.excluded.filteredOut).toBe(160);
    expect(aggregateBiasAudit(data, { now: NOW, model: 'c0' }).window.observations).toBe(30);
    expect(aggregateBiasAudit(data, { now: NOW, queryCategory: 'coding' }).window.sessions).toBe(30);
  });

  it('finds change points where the config version or the set of models changes', () => {
    const early = identicalSessions(3).map((o) => ({ ...o, sessionId: `a-${o.sessionId}`, timestamp: new Date(Date.parse(o.timestamp) - 10 * DAY).toISOString() }));
    const late = identicalSessions(3, { configVersion: '2.0.0' });
    const report = aggregateBiasAudit([...early, ...late], { now: NOW });
    expect(report.changePoints).toEqual([
      { sessionId: 's2', timestamp: '2026-11-19T00:00:00.000Z', kind: 'config_version', from: '1.0.0', to: '2.0.0' },
    ]);
    expect(report.notes.join(' ')).toMatch(/change point/);
  });

  it('flags a session whose mean score sits far from the others as an anomaly', () => {
    const data = identicalSessions(12).map((o, i) => ({ ...o, score: (o.score ?? 0) + (i % 3) * 0.1 + (o.sessionId === 's5' ? 5 : 0) }));
    const anomalies = aggregateBiasAudit(data, { now: NOW }).anomalies.filter((a) => a.indicator === 'mean_score');
    expect(anomalies.map((a) => a.sessionId)).toEqual(['s5']);
    expect(anomalies[0]!.robustZ).toBeGreaterThan(3.5);
  });

  it('counts rank-only reviewers through rank-based position effects', () => {
    // Ranks 1, 0, 3, 2 at positions 0..3 (k = 4): points 1 − rank/3 = 2/3, 1, 0, 1/3; centred on ½: 1/6, 1/2, −1/2, −1/6.
    const data = identicalSessions(12).map((o) => ({ ...o, score: null, rankPosition: [1, 0, 3, 2][o.position]! }));
    const report = aggregateBiasAudit(data, { now: NOW });
    report.position.rankEffects.forEach((e, p) => expect(e.estimate).toBeCloseTo([1 / 6, 1 / 2, -1 / 2, -1 / 6][p]!, 12));
    expect(report.position.tests.map((t) => t.basis)).toEqual(['ranks']);
    // Identical rankings in all 12 sessions: no shuffle beats the observed arrangement, p = 1/1001.
    const flagged = aggregateBiasAudit(data, { now: NOW, minSessions: 10 });
    expect(flagged.position.tests[0]!.pValue).toBeCloseTo(1 / 1001, 9);
    expect(flagged.flags.map((f) => f.code)).toContain('POSITION_BIAS_DETECTED');
    expect(report.notes.join(' ')).toMatch(/No observation in the window carries a score/);
  });

  it('profiles reviewers and states the small-k limit of the harshness z', () => {
    // Two reviewers score the same 4 candidates; h gives 1 point less than g everywhere.
    const data = identicalSessions(12).flatMap((o) => [o, { ...o, reviewer: 'h', score: o.score! - 1 }]);
    const report = aggregateBiasAudit(data, { now: NOW });
    const h = report.reviewers.find((r) => r.reviewer === 'h')!;
    // Means: x = 2.5, h = 1.5; z = (1.5 − 2)/SD(2.5, 1.5) = −0.5/0.7071 = −0.7071 = −(k − 1)/√k with k = 2.
    expect(h.mean).toBe(1.5);
    expect(h.harshnessZ).toBeCloseTo(-Math.SQRT1_2, 12);
    expect(h.maxAbsHarshnessZ).toBeCloseTo(1 / Math.SQRT2, 12);
    // Paired harshness: h − x = −1 in every session.
    expect(h.harshness.estimate).toBe(-1);
    expect(report.notes.join(' ')).toMatch(/cannot exceed/);
    // Calibrated view: x scores 2, 1, 4, 3 in each of 12 sessions: mean 2.5, Σ(dev²) = 12·5 = 60 over 48
    // scores, sample SD √(60/47) = 1.129865; a score of 4 → (4 − 2.5)/1.129865 = 1.327592.
    const calibrated = calibrateScores(data.slice(0, 8), report.reviewers);
    expect(calibrated[4]!.calibratedScore).toBeCloseTo(1.327592, 6);
    expect(calibrateScores([{ ...data[0]!, score: null }], report.reviewers)[0]!.calibratedScore).toBeNull();
  });

  it('fits a trend slope per day and honours the rolling window size', () => {
    // Session s (s + 1 days before NOW) has its scores' deviations scaled by √(1 + s), so its position
    // spread (population variance of the centred means −.5, −1.5, 1.5, .5 = 1.25) is 1.25·(1 + s). Counting
    // days from the oldest session (s = 11), s = 11 − d: spread = 1.25·(12 − d), a slope of exactly −1.25 per day.
    const data = identicalSessions(12).map((o) => {
      const s = Number(o.sessionId.slice(1));
      return { ...o, score: 2.5 + (o.score! - 2.5) * Math.sqrt(1 + s) };
    });
    const trends = aggregateBiasAudit(data, { now: NOW }).trends;
    const spread = trends.find((t) => t.indicator === 'position_spread')!;
    expect(spread.slopePerDay.estimate).toBeCloseTo(-1.25, 10);
    expect(spread.slopePerDay.note).toMatch(/exactly on a line/);
    // Windows of exactly 10 sessions stepping by 5: only one fits in 12 sessions.
    expect(spread.windows).toHaveLength(1);
    expect(spread.windows[0]!.sessions).toBe(10);
    // Scaling leaves every session's length correlation at 0.6, so its slope is 0.
    expect(trends.find((t) => t.indicator === 'length_score_correlation')!.slopePerDay.estimate).toBeCloseTo(0, 12);
  });

  it('measures self-preference against the leave-one-out consensus and reviewer→candidate affinity (worked by hand)', () => {
    // Reviewers c0, c1, c2 score candidates c0..c3 of base quality 5, 6, 7, 4; c0 adds 2 to itself, c1 adds 1 to c3.
    // c0: own 7 − mean(5, 5) = 2 (unadjusted); on others: c1 6 − mean(6, 6) = 0, c2 7 − 7 = 0, c3 4 − mean(5, 4) = −.5
    //     → harshness −1/6 → self-preference 2 + 1/6 = 2.166667.
    // c1: c0 5 − mean(7, 5) = −1, c2 7 − mean(7, 7) = 0, c3 5 − mean(4, 4) = 1 → harshness 0 → affinity c1→c3 = 1, c1→c0 = −1.
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
    const report = aggregateBiasAudit(data, { now: NOW });
    const self = report.selfPreference.find((r) => r.metric === 'self_preference[c0]')!;
    expect(self.estimate).toBeCloseTo(2 + 1 / 6, 12);
    expect(self.note).toMatch(/Unadjusted own score − others' consensus: 2\.000/);
    expect(report.affinity.find((r) => r.metric === 'affinity[c1→c3]')!.estimate).toBeCloseTo(1, 12);
    expect(report.affinity.find((r) => r.metric === 'affinity[c1→c0]')!.estimate).toBeCloseTo(-1, 12);
    // Equal lengths: the length correlation is not computable, and says so instead of reporting 0.
    expect(report.lengthCorrelation.estimate).toBeNull();
    expect(report.lengthCorrelation.note).toMatch(/Not computable/);
  });

  it('is deterministic for a seed and rejects bad input and options with what to fix', () => {
    const data = identicalSessions(12);
    expect(aggregateBiasAudit(data, { now: NOW, seed: 3 })).toEqual(aggregateBiasAudit(data, { now: NOW, seed: 3 }));
    const bad = [{ ...data[0]!, timestamp: 'yesterday' }];
    expect(() => aggregateBiasAudit(bad, { now: NOW })).toThrow(BiasAuditError);
    expect(() => aggregateBiasAudit(bad, { now: NOW })).toThrow(/observations\[0\].*timestamp "yesterday"/);
    expect(() => aggregateBiasAudit([{ ...data[0]!, score: Number.NaN }], { now: NOW })).toThrow(/score NaN/);
    // A display position sizes per-session arrays: 1e300 must be an input error, not a RangeError.
    expect(() => aggregateBiasAudit([{ ...data[0]!, position: 1e300 }], { now: NOW })).toThrow(BiasAuditError);
    expect(() => aggregateBiasAudit([{ ...data[0]!, position: 65_536 }], { now: NOW })).toThrow(/position 65536 must be a 0-based integer of at most 65535/);
    expect(() => aggregateBiasAudit(data, { now: NOW, level: 1.2 })).toThrow(/level/);
    expect(() => aggregateBiasAudit(data, { now: 'soon' })).toThrow(/now must be/);
    expect(() => aggregateBiasAudit(data, { now: NOW, bootstrapReplicates: 5 })).toThrow(/at least 10/);
  });
});
