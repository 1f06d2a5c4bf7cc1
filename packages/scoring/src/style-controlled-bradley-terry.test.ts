import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import reference from './__fixtures__/style-controlled-bt-reference.json';
import { bradleyTerry } from './bradley-terry.js';
import { styleControlledBradleyTerry } from './style-controlled-bradley-terry.js';
import type { StyledSession } from './style-controlled-bradley-terry.js';

/** β (centred log-strength) from an Elo-scale rating with the defaults (base 1000, scale 400). */
const beta = (rating: number): number => ((rating - 1000) * Math.LN10) / 400;

/** A session of two answers (one feature each): `wins` ballots rank A first, `losses` rank B first. */
function duel(id: string, features: [number, number], [wins, losses]: [number, number]): StyledSession {
  return {
    id,
    answers: { A: [features[0]], B: [features[1]] },
    ballots: [
      ...Array.from({ length: wins }, (_, i) => ({ reviewer: `r${i}`, ranking: ['A', 'B'] })),
      ...Array.from({ length: losses }, (_, i) => ({ reviewer: `q${i}`, ranking: ['B', 'A'] })),
    ],
  };
}

describe('styleControlledBradleyTerry', () => {
  it('fits the hand-worked 3-model case: A, B, C each beat the next 2 to 1 and A beats C 2 to 1', () => {
    // By symmetry β_A = a, β_B = 0, β_C = −a; A's likelihood equation (wins = expected wins): 3σ(a) + 3σ(2a) = 4.
    // σ(0.45) + σ(0.9) = 1.3215 < 4/3 < σ(0.5) + σ(1) = 1.3536, so a lies in (0.45, 0.5).
    const ballots = [
      ...Array.from({ length: 2 }, () => ['A', 'B']),
      ['B', 'A'],
      ...Array.from({ length: 2 }, () => ['B', 'C']),
      ['C', 'B'],
      ...Array.from({ length: 2 }, () => ['A', 'C']),
      ['C', 'A'],
    ];
    const sessions: StyledSession[] = ballots.map((ranking, i) => ({
      id: `s${i}`,
      answers: { A: [], B: [], C: [] },
      ballots: [{ reviewer: 'judge', ranking }],
    }));
    const fit = styleControlledBradleyTerry(sessions, { featureNames: [], prior: 0, bootstrap: 0 });
    const a = beta(fit.plain.find((e) => e.candidate === 'A')!.rating);
    expect(a).toBeGreaterThan(0.45);
    expect(a).toBeLessThan(0.5);
    const sigma = (x: number): number => 1 / (1 + Math.exp(-x));
    expect(3 * sigma(a) + 3 * sigma(2 * a)).toBeCloseTo(4, 10);
    expect(beta(fit.plain.find((e) => e.candidate === 'B')!.rating)).toBeCloseTo(0, 10);
    expect(beta(fit.plain.find((e) => e.candidate === 'C')!.rating)).toBeCloseTo(-a, 10);
    expect(fit.plain.map((e) => [e.candidate, e.rank])).toEqual([
      ['A', 1],
      ['B', 2],
      ['C', 3],
    ]);
  });

  it('credits length, not the model, when the longer answer wins whichever model wrote it (hand-worked)', () => {
    // A longer by 1: A wins 3 of 4; B longer by 1: A wins 1 of 4. Saturated: σ(b + g) = 3/4 and σ(b − g) = 1/4, so
    // b = 0 and g = ln 3 = 1.098612. The plain fit sees A win 4 of 8: b = 0 too.
    const sessions = [duel('s1', [1, 0], [3, 1]), duel('s2', [0, 1], [1, 3])];
    const fit = styleControlledBradleyTerry(sessions, {
      featureNames: ['length'],
      prior: 0,
      bootstrap: 0,
      standardize: false,
    });
    expect(fit.coefficients[0]!.coefficient).toBeCloseTo(Math.log(3), 10);
    expect(fit.styleControlled[0]!.rating).toBeCloseTo(1000, 8);
    // Now A wins 3 of 4 when longer and 2 of 4 when shorter: b + g = ln 3, b − g = 0, so b = g = ln 3 / 2; β_A =
    // b/2 after centring, the plain fit sees 5 of 8: β_A − β_B = ln(5/3).
    const second = styleControlledBradleyTerry([duel('s1', [1, 0], [3, 1]), duel('s2', [0, 1], [2, 2])], {
      featureNames: ['length'],
      prior: 0,
      bootstrap: 0,
      standardize: false,
    });
    expect(second.coefficients[0]!.coefficient).toBeCloseTo(Math.log(3) / 2, 10);
    const rating = (list: typeof second.plain, c: string): number => list.find((e) => e.candidate === c)!.rating;
    expect(beta(rating(second.styleControlled, 'A')) - beta(rating(second.styleControlled, 'B'))).toBeCloseTo(
      Math.log(3) / 2,
      10,
    );
    expect(beta(rating(second.plain, 'A')) - beta(rating(second.plain, 'B'))).toBeCloseTo(Math.log(5 / 3), 10);
    expect(second.comparisons).toBe(8);
  });

  it("agrees with statsmodels' Logit and GLM on a seeded council (reference/style-controlled-bt-reference.py)", () => {
    const sessions = reference.sessions as StyledSession[];
    for (const [prior, key] of [
      [0, ''],
      [1, 'Prior1'],
    ] as const) {
      const fit = styleControlledBradleyTerry(sessions, {
        featureNames: reference.featureNames,
        prior,
        bootstrap: 0,
        standardize: false,
      });
      const expectBetas = (list: typeof fit.plain, expected: number[]): void =>
        reference.candidates.forEach((c, i) =>
          expect(beta(list.find((e) => e.candidate === c)!.rating)).toBeCloseTo(expected[i]!, 9),
        );
      expectBetas(fit.plain, reference.fits.plain[`beta${key}`]);
      expectBetas(fit.styleControlled, reference.fits.style[`beta${key}`]);
      fit.coefficients.forEach((c, f) => expect(c.coefficient).toBeCloseTo(reference.fits.style[`gamma${key}`][f]!, 9));
    }
  });

  it("gives bradleyTerry's ratings as the plain fit (same pairs, same prior)", () => {
    const sessions = reference.sessions as StyledSession[];
    const fit = styleControlledBradleyTerry(sessions, { featureNames: reference.featureNames, bootstrap: 0 });
    const bt = bradleyTerry(
      sessions.flatMap((s) => s.ballots),
      { candidates: reference.candidates, bootstrap: 0 },
    );
    for (const entry of bt)
      expect(fit.plain.find((e) => e.candidate === entry.candidate)!.rating).toBeCloseTo(entry.rating, 6);
  });

  it('bootstraps over sessions, the same for the same seed, intervals around the estimates', () => {
    const sessions = (reference.sessions as StyledSession[]).slice(0, 30);
    const a = styleControlledBradleyTerry(sessions, { featureNames: reference.featureNames, bootstrap: 100, seed: 4 });
    const b = styleControlledBradleyTerry(sessions, { featureNames: reference.featureNames, bootstrap: 100, seed: 4 });
    expect(a).toEqual(b);
    for (const e of [...a.plain, ...a.styleControlled]) {
      expect(e.interval!.lower).toBeLessThanOrEqual(e.rating);
      expect(e.interval!.upper).toBeGreaterThanOrEqual(e.rating);
    }
    expect(a.coefficients[0]!.interval!.lower).toBeLessThan(a.coefficients[0]!.coefficient);
  });

  it('refuses an answer without its features', () => {
    expect(() =>
      styleControlledBradleyTerry([duel('s1', [1, 0], [1, 1])], { featureNames: ['length', 'lists'] }),
    ).toThrow(/2 finite features/);
  });

  it('renaming the candidates renames the ratings, and a candidate every ballot ranks first rates highest (fast-check)', () => {
    const sessions = (reference.sessions as StyledSession[]).slice(0, 12);
    const fit = styleControlledBradleyTerry(sessions, { featureNames: reference.featureNames, bootstrap: 0 });
    fc.assert(
      fc.property(fc.shuffledSubarray(['w', 'x', 'y', 'z'], { minLength: 4, maxLength: 4 }), (names) => {
        const rename = new Map(reference.candidates.map((c, i) => [c, names[i]!]));
        const renamed = sessions.map((s) => ({
          id: s.id,
          answers: Object.fromEntries(Object.entries(s.answers).map(([c, x]) => [rename.get(c)!, x])),
          ballots: s.ballots.map((b) => ({
            reviewer: rename.get(b.reviewer)!,
            ranking: b.ranking.map((c) => rename.get(c)!),
          })),
        }));
        const again = styleControlledBradleyTerry(renamed, { featureNames: reference.featureNames, bootstrap: 0 });
        for (const entry of fit.styleControlled)
          expect(again.styleControlled.find((e) => e.candidate === rename.get(entry.candidate))!.rating).toBeCloseTo(
            entry.rating,
            8,
          );
      }),
      { numRuns: 12, seed: 5 },
    );
    const unanimous = sessions.map((s) => ({
      ...s,
      ballots: s.ballots.map((b) => ({ ...b, ranking: ['m/d', ...b.ranking.filter((c) => c !== 'm/d')] })),
    }));
    const top = styleControlledBradleyTerry(unanimous, { featureNames: reference.featureNames, bootstrap: 0 });
    expect(top.styleControlled[0]!.candidate).toBe('m/d');
    expect(top.plain[0]!.candidate).toBe('m/d');
  });
});
