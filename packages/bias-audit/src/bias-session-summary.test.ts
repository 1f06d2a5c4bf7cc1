import { describe, expect, it } from 'vitest';
import { BiasAuditError } from './bias-audit-error.js';
import type { BiasObservation } from './bias-observation.js';
import type { ScoreModelEstimate, ScoreModelFit } from './fit-score-model.js';
import { fitScoreModel } from './fit-score-model.js';
import { simulateCouncils } from './internal/simulate-councils.js';
import { observationsToColumns } from './observations-to-columns.js';
import { aggregateBiasAudit } from './aggregate-bias-audit.js';
import type { BiasSessionSummaries, BiasSessionSummary } from './bias-session-summary.js';
import {
  assertBiasSessionSummaries,
  BIAS_SESSION_SUMMARY_VERSION,
  mergeBiasSessionSummaries,
} from './bias-session-summary.js';
import type { ScoreSessionSummary } from './score-session-summary.js';
import { summarizeBiasSessions } from './summarize-bias-sessions.js';

function observation(spec: {
  reviewer: string;
  candidate: string;
  position: number;
  score: number;
  length: number;
}): BiasObservation {
  return {
    sessionId: 's1',
    timestamp: '2026-01-01T00:00:00Z',
    reviewer: spec.reviewer,
    candidate: spec.candidate,
    position: spec.position,
    responseLengthChars: spec.length,
    score: spec.score,
    rankPosition: null,
    configVersion: null,
    queryCategory: null,
  };
}

/** A session's figures keyed by column name, so a test does not depend on the order columns were met in. */
function byName(s: ScoreSessionSummary): {
  records: Record<string, number>;
  xty: Record<string, number>;
  xtx: (a: string, b: string) => number;
  index: (name: string) => number;
} {
  const index = (name: string): number => s.columns.indexOf(name);
  const m = s.columns.length;
  return {
    records: Object.fromEntries(s.columns.map((c, j) => [c, s.records[j]!])),
    xty: Object.fromEntries(s.columns.map((c, j) => [c, s.xty[j]!])),
    xtx: (a, b) => s.xtx[index(a) * m + index(b)]!,
    index,
  };
}

describe('summarizeBiasSessions', () => {
  // One session. C's answer (1,200 characters) is scored by A at position 0 (6 points) and B at position 1 (8);
  // B's answer (600 characters) only by A, at position 1 (5). By hand, for C's answer: x_A = r:A + p:0,
  // x_B = r:B + p:1, x̄ = ½ of each, ȳ = 7; x̃_A = ½(r:A + p:0 − r:B − p:1) = −x̃_B; ỹ_A = −1, ỹ_B = +1.
  // X̃'X̃ = 2·x̃_A x̃_A' (entries ±½), X̃'ỹ = −2·x̃_A (±1), ỹ'ỹ = 2. B's answer, scored once, adds only its
  // length and level (count 1, mean 5, row r:A + p:1).
  const columns = observationsToColumns([
    observation({ reviewer: 'A', candidate: 'C', position: 0, score: 6, length: 1200 }),
    observation({ reviewer: 'B', candidate: 'C', position: 1, score: 8, length: 1200 }),
    observation({ reviewer: 'A', candidate: 'B', position: 1, score: 5, length: 600 }),
  ]);
  const summaries = summarizeBiasSessions(columns);
  const [whole] = summaries.sessions;
  const session = whole?.score;

  it('holds the within-answer cross-products, worked by hand', () => {
    expect(summaries.version).toBe(BIAS_SESSION_SUMMARY_VERSION);
    expect(summaries.sessions).toHaveLength(1);
    const s = byName(session!);
    expect(whole).toMatchObject({
      session: 's1',
      time: '2026-01-01T00:00:00.000Z',
      records: 3,
      members: ['A', 'B', 'C'],
      configVersions: ['(none)'],
    });
    expect([...session!.columns].sort()).toEqual(['position:0', 'position:1', 'reviewer:A', 'reviewer:B']);
    expect(s.records).toEqual({ 'reviewer:A': 1, 'reviewer:B': 1, 'position:0': 1, 'position:1': 1 });
    expect(s.xty).toEqual({ 'reviewer:A': -1, 'reviewer:B': 1, 'position:0': -1, 'position:1': 1 });
    const sign: Record<string, number> = { 'reviewer:A': 1, 'position:0': 1, 'reviewer:B': -1, 'position:1': -1 };
    for (const a of session!.columns)
      for (const b of session!.columns) expect(s.xtx(a, b)).toBeCloseTo(0.5 * sign[a]! * sign[b]!, 12);
    expect(session!.yty).toBeCloseTo(2, 12);
  });

  it('lists every scored answer with its length, level and mean row, and each reviewer → author pair', () => {
    const s = byName(session!);
    const answers = Object.fromEntries(session!.answers.map((a) => [a.author, a]));
    expect(answers['C']).toMatchObject({ lengthChars: 1200, count: 2, meanScore: 7 });
    expect(answers['B']).toMatchObject({ lengthChars: 600, count: 1, meanScore: 5 });
    for (const name of session!.columns) expect(answers['C']!.meanRow[s.index(name)]).toBeCloseTo(0.5, 12);
    expect(answers['B']!.meanRow[s.index('reviewer:A')]).toBe(1);
    expect(answers['B']!.meanRow[s.index('position:1')]).toBe(1);
    expect(answers['B']!.meanRow[s.index('reviewer:B')]).toBe(0);
    // Only C's answer has two scores: A → C shown at 0 with ỹ = 6 − 7 = −1, B → C shown at 1 with +1.
    expect([...session!.pairs].sort((a, b) => (a.reviewer < b.reviewer ? -1 : 1))).toEqual([
      { reviewer: 'A', author: 'C', position: 0, deviation: -1 },
      { reviewer: 'B', author: 'C', position: 1, deviation: 1 },
    ]);
  });
});

/** Every figure of two fits, side by side: the same to a relative 1e-9. */
function expectSameFit(actual: ScoreModelFit, expected: ScoreModelFit): void {
  const close = (a: number | null, b: number | null, what: string): void => {
    if (a === null || b === null || !Number.isFinite(a) || !Number.isFinite(b)) {
      expect(a, what).toBe(b);
      return;
    }
    expect(Math.abs(a - b), what).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));
  };
  const same = (a: ScoreModelEstimate | null, b: ScoreModelEstimate | null, what: string): void => {
    expect(a === null, what).toBe(b === null);
    if (a === null || b === null) return;
    for (const key of [
      'estimate',
      'standardError',
      'df',
      'lower',
      'upper',
      'pValue',
      'sampleSize',
      'sessions',
    ] as const)
      close(a[key], b[key], `${what}.${key}`);
  };
  expect(actual.sessions).toBe(expected.sessions);
  expect(actual.observations).toBe(expected.observations);
  close(actual.residualSd, expected.residualSd, 'residualSd');
  for (const family of ['reviewerOffsets', 'selfPreference', 'affinity'] as const) {
    const bySubject = new Map(actual[family].map((e) => [e.subject, e]));
    expect([...bySubject.keys()].sort(), family).toEqual(expected[family].map((e) => e.subject).sort());
    for (const e of expected[family]) {
      same(bySubject.get(e.subject)!, e, `${family}[${e.subject}]`);
      close(bySubject.get(e.subject)!.weight, e.weight, `${family}[${e.subject}].weight`);
    }
  }
  same(actual.lengthSlope, expected.lengthSlope, 'lengthSlope');
  same(actual.lengthCorrelation, expected.lengthCorrelation, 'lengthCorrelation');
  same(actual.betweenSessionLengthSlope, expected.betweenSessionLengthSlope, 'betweenSessionLengthSlope');
}

describe('fitScoreModel over summaries', () => {
  // 60 sessions with every effect the model has: length, primacy, a harsh reviewer, self-preference, an affinity.
  const observations = simulateCouncils({
    sessions: 60,
    models: 5,
    reviewers: 5,
    seed: 41,
    lengthSlopePer1000Chars: 0.4,
    primacyPerPosition: 0.25,
    reviewerOffsets: [-1.2],
    selfPreference: 0.5,
    affinity: [{ reviewer: 1, candidate: 2, points: 1 }],
  });
  const whole = fitScoreModel(observationsToColumns(observations));
  const firstHalf = new Set(Array.from({ length: 30 }, (_, s) => `s41-${s}`));
  const partOne = summarizeBiasSessions(observationsToColumns(observations.filter((o) => firstHalf.has(o.sessionId))));
  const partTwo = summarizeBiasSessions(observationsToColumns(observations.filter((o) => !firstHalf.has(o.sessionId))));

  it('gives the fit of the records themselves', () => {
    expectSameFit(fitScoreModel(summarizeBiasSessions(observationsToColumns(observations))), whole);
  });

  it('adds up: two halves of a store, summarised apart and merged (in either order), fit as the whole store does', () => {
    expect(partOne.sessions.length).toBe(30);
    expect(partTwo.sessions.length).toBe(30);
    expectSameFit(fitScoreModel(mergeBiasSessionSummaries(partOne, partTwo)), whole);
    expectSameFit(fitScoreModel(mergeBiasSessionSummaries(partTwo, partOne)), whole);
  });

  it('reads a store of more sessions than one chunk holds (1,001) as its summaries do', () => {
    const columns = observationsToColumns(
      simulateCouncils({
        sessions: 1001,
        models: 5,
        reviewers: 5,
        seed: 5,
        reviewerOffsets: [-1.2],
        primacyPerPosition: 0.25,
      }),
    );
    expectSameFit(fitScoreModel(summarizeBiasSessions(columns)), fitScoreModel(columns));
  });

  it('survives JSON: the summaries are plain data', () => {
    const copy = JSON.parse(JSON.stringify(mergeBiasSessionSummaries(partOne, partTwo))) as BiasSessionSummaries;
    expectSameFit(fitScoreModel(copy), whole);
  });
});

/**
 * The same report, byte for byte: a session's summary depends on its own records alone (answers and design columns in
 * member-name order, not the order a reader met the members in), so summaries — merged in any order, or computed by
 * an analytics engine that mirrors the map — reduce to exactly the records' report.
 */
function expectSameReport(actual: unknown, expected: unknown): void {
  expect(JSON.stringify(actual, null, 1)).toBe(JSON.stringify(expected, null, 1));
}

describe('aggregateBiasAudit over summaries', () => {
  // 60 sessions with the effects planted above; from session 45 on the council runs config v2 (a change point),
  // and in sessions 50–59 model-4 ranks without scoring (rank-only blocks, rank position effects).
  const observations = simulateCouncils({
    sessions: 60,
    models: 5,
    reviewers: 5,
    seed: 43,
    lengthSlopePer1000Chars: 0.4,
    primacyPerPosition: 0.25,
    reviewerOffsets: [-1.2],
  }).map((o): BiasObservation => {
    const s = Number(o.sessionId.split('-')[1]);
    return { ...o, configVersion: s >= 45 ? 'v2' : 'v1', score: s >= 50 && o.reviewer === 'model-4' ? null : o.score };
  });
  const options = {
    window: { now: '2030-01-01T00:00:00Z', sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY },
  };
  const whole = aggregateBiasAudit(observationsToColumns(observations), options);
  const half = (first: boolean): BiasSessionSummaries =>
    summarizeBiasSessions(
      observationsToColumns(observations.filter((o) => Number(o.sessionId.split('-')[1]) < 30 === first)),
    );

  it('gives the report of the records, merged from two halves in either order (permutation test, ranks, change point included)', () => {
    expect(whole.changePoints.map((c) => c.kind)).toEqual(['config_version']);
    expect(whole.position.rankEffects.length).toBeGreaterThan(0);
    expect(whole.position.tests.map((t) => `${t.basis} ${t.method}`)).toEqual([
      'scores permutation',
      'ranks permutation',
    ]);
    // Summaries are taken whole (no window options); the report says so with infinite limits, as `options` asked of the records.
    expectSameReport(
      aggregateBiasAudit(mergeBiasSessionSummaries(half(true), half(false)), { window: { now: options.window.now } }),
      whole,
    );
    expectSameReport(
      aggregateBiasAudit(mergeBiasSessionSummaries(half(false), half(true)), { window: { now: options.window.now } }),
      whole,
    );
  });

  it("gives the records' report from three stores that interleave in time and share timestamps", () => {
    // Sessions 3j, 3j+1, 3j+2 share one timestamp (ties ordered by id) and go to three different stores.
    const tied = observations.map((o): BiasObservation => {
      const s = Number(o.sessionId.split('-')[1]);
      return { ...o, timestamp: new Date(Date.UTC(2026, 0, 1 + Math.floor(s / 3))).toISOString() };
    });
    const store = (k: number): BiasSessionSummaries =>
      summarizeBiasSessions(observationsToColumns(tied.filter((o) => Number(o.sessionId.split('-')[1]) % 3 === k)));
    const all = aggregateBiasAudit(observationsToColumns(tied), options);
    expectSameReport(
      aggregateBiasAudit(mergeBiasSessionSummaries(store(2), store(0), store(1)), {
        window: { now: options.window.now },
      }),
      all,
    );
  });

  it("labels the window the summaries were chosen by (the window's sessions and days), byte for byte as the windowed records' report", () => {
    // What `bias-report` does: the reader windows the records (here the last 40 sessions) and the report takes its
    // columns whole, labelled with the window. The summaries of those 40 sessions, labelled alike: the same JSON.
    const last40 = observationsToColumns(observations.filter((o) => Number(o.sessionId.split('-')[1]) >= 20));
    const records = aggregateBiasAudit(last40, { window: { now: options.window.now, sessions: 40, days: 100_000 } });
    expect(records.window).toMatchObject({ maxSessions: 40, maxDays: 100_000, sessions: 40 });
    const summaries = summarizeBiasSessions(last40);
    const labelled = aggregateBiasAudit(summaries, {
      window: { now: options.window.now, sessions: 40, days: 100_000 },
    });
    // Less what only records can give: the drift test's blind spot (`driftPower`, here model-4's, 30 sessions of
    // its own), since summaries carry no per-record scores to test drift on (`drift` never appears from them either).
    const withoutDriftPower = {
      ...records,
      reviewers: records.reviewers.map(({ driftPower: _, ...r }) => r),
    };
    expect(records.reviewers.filter((r) => r.driftPower !== undefined).map((r) => r.reviewer)).toEqual(['model-4']);
    expect(JSON.stringify(labelled)).toBe(JSON.stringify(withoutDriftPower));
    expect(aggregateBiasAudit(summaries, { window: { now: options.window.now } }).window).toMatchObject({
      maxSessions: Number.POSITIVE_INFINITY,
      maxDays: Number.POSITIVE_INFINITY,
    });
  });

  it('refuses the window spelt as before, and a malformed window for summaries', () => {
    expect(() =>
      aggregateBiasAudit(observations, { summariesWindow: { maxSessions: 40, maxDays: 30 } } as never),
    ).toThrow(/summariesWindow is now window/);
    const summaries = half(true);
    expect(() => aggregateBiasAudit(summaries, { window: { sessions: 0, days: 30 } })).toThrow(
      /sessions must be a positive integer/,
    );
    expect(() => aggregateBiasAudit(summaries, { window: { sessions: 2.5, days: 30 } })).toThrow(
      /sessions must be a positive integer/,
    );
    expect(() => aggregateBiasAudit(summaries, { window: { sessions: 10, days: Number.NaN } })).toThrow(
      /days must be a positive number/,
    );
  });

  it('and after a JSON round trip, with the asymptotic test', () => {
    const copy = JSON.parse(
      JSON.stringify(summarizeBiasSessions(observationsToColumns(observations))),
    ) as BiasSessionSummaries;
    expectSameReport(
      aggregateBiasAudit(copy, { window: { now: options.window.now }, resamples: 0 }),
      aggregateBiasAudit(observationsToColumns(observations), { ...options, resamples: 0 }),
    );
  });
});

describe('the map against a reference built from explicit rows', () => {
  // An independent computation of each session's sums: every scored record's design row written out as a named
  // vector, demeaned within its answer, and multiplied out — the definitions in the README, nothing shared with the map.
  const observations = simulateCouncils({
    sessions: 12,
    models: 4,
    reviewers: 4,
    seed: 7,
    selfPreference: 0.4,
    reviewerOffsets: [0.6],
    primacyPerPosition: 0.2,
  }).map(
    (o, i): BiasObservation => (i % 9 === 4 ? { ...o, score: null } : o), // some records unscored: answers scored once or not at all
  );
  const summaries = summarizeBiasSessions(observationsToColumns(observations));

  it("gives every X̃'X̃, X̃'ỹ, ỹ'ỹ and pair record of every session", () => {
    expect(summaries.sessions).toHaveLength(12);
    for (const summary of summaries.sessions) {
      const records = observations.filter((o) => o.sessionId === summary.session && o.score !== null);
      const byAnswer = new Map<string, BiasObservation[]>();
      for (const o of records) byAnswer.set(o.candidate, [...(byAnswer.get(o.candidate) ?? []), o]);
      const xtx = new Map<string, number>();
      const xty = new Map<string, number>();
      const pairs: string[] = [];
      let yty = 0;
      const add = (map: Map<string, number>, key: string, v: number): void =>
        void map.set(key, (map.get(key) ?? 0) + v);
      for (const answer of byAnswer.values()) {
        if (answer.length < 2) continue;
        const rows = answer.map((o) => {
          const row = new Map<string, number>([
            [`reviewer:${o.reviewer}`, 1],
            [`position:${o.position}`, 1],
          ]);
          if (o.reviewer === o.candidate) row.set(`self:${o.reviewer}`, 1);
          return row;
        });
        const names = [...new Set(rows.flatMap((r) => [...r.keys()]))];
        const mean = new Map(names.map((n) => [n, rows.reduce((t, r) => t + (r.get(n) ?? 0), 0) / rows.length]));
        const yBar = answer.reduce((t, o) => t + o.score!, 0) / answer.length;
        answer.forEach((o, i) => {
          const tilde = new Map(names.map((n) => [n, (rows[i]!.get(n) ?? 0) - mean.get(n)!]));
          const y = o.score! - yBar;
          yty += y * y;
          for (const a of names) {
            add(xty, a, tilde.get(a)! * y);
            for (const b of names) add(xtx, `${a}|${b}`, tilde.get(a)! * tilde.get(b)!);
          }
          if (o.reviewer !== o.candidate) pairs.push(`${o.reviewer}→${o.candidate}@${o.position}:${y.toFixed(9)}`);
        });
      }
      const { score } = summary;
      const m = score.columns.length;
      const near = (a: number, b: number): void => expect(Math.abs(a - b)).toBeLessThan(1e-12);
      near(score.yty, yty);
      score.columns.forEach((a, i) => {
        near(score.xty[i]!, xty.get(a) ?? 0);
        score.columns.forEach((b, j) => near(score.xtx[i * m + j]!, xtx.get(`${a}|${b}`) ?? 0));
      });
      expect(
        score.pairs.map((p) => `${p.reviewer}→${p.author}@${p.position}:${p.deviation.toFixed(9)}`).sort(),
      ).toEqual(pairs.sort());
    }
  });

  it('reports an exact fit as SD 0 — never NaN — from records and from summaries', () => {
    // Scores built exactly from the model (answer level + reviewer offset + position): the residual sum of squares
    // is a difference of sums that rounding can push below 0.
    for (let seed = 1; seed <= 20; seed++) {
      const exact = simulateCouncils({
        sessions: 30,
        models: 4,
        reviewers: 4,
        seed,
        selfReview: false,
        reviewerNoise: 0,
        reviewerOffsets: [0.7, -0.3],
        primacyPerPosition: 0.1,
      });
      for (const fit of [
        fitScoreModel(observationsToColumns(exact)),
        fitScoreModel(summarizeBiasSessions(observationsToColumns(exact))),
      ]) {
        expect(fit.residualSd, `seed ${seed}`).toBe(0);
      }
    }
  });
});

describe('summaries from elsewhere are checked', () => {
  const good = summarizeBiasSessions(
    observationsToColumns([
      observation({ reviewer: 'A', candidate: 'C', position: 0, score: 6, length: 1200 }),
      observation({ reviewer: 'B', candidate: 'C', position: 1, score: 8, length: 1200 }),
    ]),
  );
  const failure = (input: unknown): string => {
    try {
      assertBiasSessionSummaries(input);
    } catch (error) {
      expect(BiasAuditError.isInstance(error) && error.code === 'INVALID_INPUT').toBe(true);
      return (error as Error).message;
    }
    return 'accepted';
  };
  const edited = (change: (s: BiasSessionSummary) => void): unknown => {
    const copy = JSON.parse(JSON.stringify(good)) as BiasSessionSummaries;
    change(copy.sessions[0]!);
    return copy;
  };

  it('accepts what summarizeBiasSessions wrote', () => {
    expect(failure(good)).toBe('accepted');
  });

  it('refuses another version, naming the one it reads', () => {
    expect(failure({ ...good, version: 2 })).toMatch(/version 2 is not supported; this package reads version 1/);
  });

  it('refuses a session given twice, in one list or across merged stores', () => {
    expect(failure({ ...good, sessions: [...good.sessions, ...good.sessions] })).toMatch(/session s1 appears twice/);
    expect(() => mergeBiasSessionSummaries(good, good)).toThrow(/session s1 appears twice/);
  });

  it('names the field that is malformed', () => {
    expect(failure(edited((s) => s.score.xtx.pop()))).toMatch(
      /sessions\[0\] \(s1\): score\.xtx must be 16 finite number/,
    );
    expect(failure(edited((s) => (s.score.xty[0] = Number.NaN)))).toMatch(/score\.xty must be 4 finite number/);
    expect(failure(edited((s) => (s.score.columns[0] = 'offset:A')))).toMatch(
      /score\.columns: "offset:A" is not reviewer:<member>, self:<member> or position:<0–65535>/,
    );
    expect(failure(edited((s) => (s.score.answers[0]!.count = 0)))).toMatch(
      /score\.answers\[0\] needs a whole lengthChars ≥ 0 and a whole count ≥ 1/,
    );
    expect(failure(edited((s) => (s.score.pairs[0]!.author = s.score.pairs[0]!.reviewer)))).toMatch(
      /score\.pairs\[0\]\.author must be another member whose answer is scored twice or more/,
    );
    expect(failure(edited((s) => (s.score.pairs[0]!.position = 7)))).toMatch(
      /score\.pairs\[0\]\.position must have a position:<n> column/,
    );
    expect(failure(edited((s) => (s.time = 'yesterday')))).toMatch(/time must be an ISO 8601 time as toISOString/);
    expect(failure(edited((s) => (s.indicators.meanScore = Number.POSITIVE_INFINITY)))).toMatch(
      /indicators\.meanScore must be a finite number or null/,
    );
    expect(
      failure(edited((s) => (s.indicators.scoreBlocks = [{ group: 0, values: [0.5, -0.5], positions: [0] }]))),
    ).toMatch(/indicators\.scoreBlocks must be .* of equal length/);
  });

  // Summaries that passed a looser check could hang the fit (a stray position sizes arrays), put records on
  // the wrong member (a name no column or member knows), or skew figures (impossible values): found in review.
  it('refuses what would allocate by a stray number, or pin records on the wrong member', () => {
    const rename = (s: BiasSessionSummary, from: string, to: string): void => {
      s.score.columns = s.score.columns.map((c) => c.replace(from, to));
    };
    expect(failure(edited((s) => rename(s, 'position:1', 'position:3000000000')))).toMatch(
      /position:3000000000" is not reviewer:<member>, self:<member> or position:<0–65535>/,
    );
    expect(failure(edited((s) => rename(s, 'position:1', 'position:65536')))).toMatch(
      /position:65536 is beyond position 65535/,
    );
    expect(failure(edited((s) => rename(s, 'reviewer:A', 'reviewer:ghost')))).toMatch(
      /score\.columns: reviewer:ghost names no member of the session/,
    );
    expect(failure(edited((s) => (s.score.pairs[0]!.reviewer = 'C')))).toMatch(
      /score\.pairs\[0\]\.reviewer must have a reviewer:<name> column/,
    );
    expect(failure(edited((s) => (s.score.answers[0]!.author = 'ghost')))).toMatch(
      /score\.answers\[0\]\.author must be a member of the session, once/,
    );
    expect(failure(edited((s) => (s.indicators.reviewers[0]!.reviewer = 'ghost')))).toMatch(
      /indicators\.reviewers must be \{ reviewer \(a member\)/,
    );
    expect(failure(edited((s) => (s.members = ['B', 'A', 'C'])))).toMatch(
      /members and configVersions must be names, sorted, each once/,
    );
    expect(failure(edited((s) => (s.members = ['A', 'A', 'B', 'C'])))).toMatch(
      /members and configVersions must be names, sorted, each once/,
    );
  });

  it('refuses impossible values', () => {
    expect(failure(edited((s) => (s.score.yty = -1)))).toMatch(/score\.yty must be 1 finite number\(s\) in range/);
    expect(failure(edited((s) => (s.score.xtx[1] = s.score.xtx[1]! + 50)))).toMatch(/score\.xtx must be symmetric/);
    expect(failure(edited((s) => (s.score.records[0] = 0.5)))).toMatch(
      /score\.records must be 4 finite number\(s\) in range/,
    );
    expect(failure(edited((s) => (s.score.answers[0]!.meanRow[0] = 1.5)))).toMatch(
      /meanRow must be 4 finite number\(s\) in range/,
    );
    expect(failure(edited((s) => (s.indicators.anchoring = 2)))).toMatch(/indicators\.anchoring must be a correlation/);
    expect(failure(edited((s) => (s.indicators.positionSpread = -0.1)))).toMatch(
      /indicators\.positionSpread must be a number ≥ 0 or null/,
    );
    expect(
      failure(
        edited(
          (s) =>
            (s.indicators.positions = [
              { position: 1, score: 0.5, rank: null },
              { position: 1, score: -0.5, rank: null },
            ]),
        ),
      ),
    ).toMatch(/indicators\.positions must name each position once/);
    expect(
      failure(edited((s) => (s.indicators.scoreBlocks = [{ group: 2 ** 53, values: [0.5, -0.5], positions: [0, 1] }]))),
    ).toMatch(/indicators\.scoreBlocks must be \{ group \(0 to members − 1\)/);
  });

  it('refuses sessions out of time order, ties out of id order, or a time in another format', () => {
    const tied = JSON.parse(JSON.stringify(good)) as BiasSessionSummaries;
    tied.sessions[0]!.session = 's0';
    expect(failure({ ...good, sessions: [good.sessions[0]!, tied.sessions[0]!] })).toMatch(
      /sessions\[1\] \(s0\): sessions must be oldest first, ties by id/,
    );
    expect(failure(edited((s) => (s.time = '2026')))).toMatch(
      /time must be an ISO 8601 time as toISOString\(\) writes it/,
    );
  });

  it('refuses sessions out of time order (merging sorts them)', () => {
    const later = JSON.parse(JSON.stringify(good)) as BiasSessionSummaries;
    later.sessions[0]!.session = 's0';
    later.sessions[0]!.time = '2026-01-02T00:00:00.000Z';
    expect(failure({ ...good, sessions: [later.sessions[0]!, good.sessions[0]!] })).toMatch(
      /sessions\[1\] \(s1\): sessions must be oldest first/,
    );
    expect(mergeBiasSessionSummaries(later, good).sessions.map((s) => s.session)).toEqual(['s1', 's0']);
  });

  it('fitScoreModel checks what it is given', () => {
    expect(() => fitScoreModel({ version: 3, sessions: [] } as unknown as BiasSessionSummaries)).toThrow(
      /version 3 is not supported/,
    );
    expect(() => aggregateBiasAudit({ version: 3, sessions: [] } as unknown as BiasSessionSummaries)).toThrow(
      /version 3 is not supported/,
    );
    expect(() => aggregateBiasAudit(good, { window: { model: 'A' } })).toThrow(/summaries are taken whole/);
    expect(() => aggregateBiasAudit(good, { maxSessions: 5 } as never)).toThrow(/maxSessions is now window.sessions/);
  });
});
