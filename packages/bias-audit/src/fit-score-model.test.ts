import { describe, expect, it } from 'vitest';
import type { BiasObservation } from './bias-observation.js';
import { fitScoreModel, fitScoreModelWithCentre } from './fit-score-model.js';
import { symmetricPseudoInverse } from './internal/symmetric-pseudo-inverse.js';
import { observationsToColumns } from './observations-to-columns.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';

function observation(spec: {
  session: string;
  reviewer: string;
  candidate: string;
  position: number;
  score: number | null;
  length?: number;
}): BiasObservation {
  return {
    sessionId: spec.session,
    timestamp: `2026-01-0${spec.session.slice(-1)}T00:00:00Z`,
    reviewer: spec.reviewer,
    candidate: spec.candidate,
    position: spec.position,
    responseLengthChars: spec.length ?? 1000,
    score: spec.score,
    rankPosition: null,
    configVersion: null,
    queryCategory: null,
  };
}

describe('symmetricPseudoInverse', () => {
  it('inverts a full-rank matrix and gives the identity as its range', () => {
    // [[4, 1], [1, 3]]⁻¹ = [[3, −1], [−1, 4]] / 11.
    const { inverse, range, rank } = symmetricPseudoInverse(Float64Array.from([4, 1, 1, 3]), 2);
    expect(rank).toBe(2);
    [3 / 11, -1 / 11, -1 / 11, 4 / 11].forEach((v, i) => expect(inverse[i]).toBeCloseTo(v, 12));
    [1, 0, 0, 1].forEach((v, i) => expect(range[i]).toBeCloseTo(v, 12));
  });

  it('gives the Moore–Penrose inverse of a singular matrix and projects onto its range', () => {
    // [[1, 1], [1, 1]] = 2·uu' with u = (1, 1)/√2: its pseudo-inverse is uu'/2 = [[¼, ¼], [¼, ¼]], its range uu'.
    const { inverse, range, rank } = symmetricPseudoInverse(Float64Array.from([1, 1, 1, 1]), 2);
    expect(rank).toBe(1);
    inverse.forEach((v) => expect(v).toBeCloseTo(0.25, 12));
    range.forEach((v) => expect(v).toBeCloseTo(0.5, 12));
  });
});

describe('fitScoreModel on scores built exactly from the model', () => {
  // Three members review each other's answers (no self-review) in two sessions. Every score is
  // answer level + reviewer offset + position effect, with no noise: A and B offset 0, C −1.2 (harsh);
  // position 0 adds 0.5. The answers' levels differ (7, 5, 6 and 6, 8, 4) and must cancel exactly.
  const level: Record<string, number> = { '1A': 7, '1B': 5, '1C': 6, '2A': 6, '2B': 8, '2C': 4 };
  const offset: Record<string, number> = { A: 0, B: 0, C: -1.2 };
  const orders: Record<string, Record<string, [string, string]>> = {
    '1': { A: ['B', 'C'], B: ['C', 'A'], C: ['A', 'B'] },
    '2': { A: ['C', 'B'], B: ['A', 'C'], C: ['B', 'A'] },
  };
  const observations: BiasObservation[] = [];
  for (const [session, byReviewer] of Object.entries(orders)) {
    for (const [reviewer, order] of Object.entries(byReviewer)) {
      order.forEach((candidate, position) => {
        const score = level[`${session}${candidate}`]! + offset[reviewer]! + (position === 0 ? 0.5 : 0);
        observations.push(observation({ session: `s${session}`, reviewer, candidate, position, score }));
      });
    }
  }
  const fit = fitScoreModel(observationsToColumns(observations));

  it('recovers each reviewer against the typical reviewer: the harsh one moves no one else', () => {
    expect(fit.sessions).toBe(2);
    expect(fit.observations).toBe(12);
    const bySubject = Object.fromEntries(fit.reviewerOffsets.map((e) => [e.subject, e]));
    expect(bySubject['A']!.estimate).toBeCloseTo(0, 10);
    expect(bySubject['B']!.estimate).toBeCloseTo(0, 10);
    expect(bySubject['C']!.estimate).toBeCloseTo(-1.2, 10);
    // An exact fit leaves no residual, so no spread: the interval is the point.
    expect(bySubject['C']!.standardError).toBeCloseTo(0, 10);
    // The centre is the majority's (A and B, full weight); C, infinitely many (zero) standard errors away, has none.
    expect(bySubject['A']!.weight).toBe(1);
    expect(bySubject['B']!.weight).toBe(1);
    expect(bySubject['C']!.weight).toBe(0);
  });

  it('finds no affinity and no self-preference where none was planted', () => {
    expect(fit.selfPreference).toEqual([]); // no member scored its own answer
    for (const pair of fit.affinity) expect(pair.estimate).toBeCloseTo(0, 10);
  });
});

describe('fitScoreModel: offsets and affinities, each for what it is (worked by hand)', () => {
  // Five members m0..m4 each score the other four answers in 9 identical sessions (no noise), every answer shown at
  // the same place to all (its position is its author's index: within an answer it is constant, so it cancels).
  // A score is its author's quality (6, 5, 7, 4, 8) plus whatever is planted.
  const quality = [6, 5, 7, 4, 8];
  const council = (bonus: (reviewer: number, author: number) => number): BiasObservation[] => {
    const out: BiasObservation[] = [];
    for (let s = 1; s <= 9; s++)
      for (let r = 0; r < 5; r++)
        for (let a = 0; a < 5; a++) {
          if (a === r) continue;
          const score = quality[a]! + bonus(r, a);
          out.push(observation({ session: `s${s}`, reviewer: `m${r}`, candidate: `m${a}`, position: a, score }));
        }
    return out;
  };
  const byName = <T extends { subject: string }>(effects: T[]): Record<string, T> =>
    Object.fromEntries(effects.map((e) => [e.subject, e]));

  it("an affinity on one author of four moves neither its reviewer's offset nor that author's level", () => {
    // m0 gives m1 1.5 more. m0's pair effects (score less its author's level, which the other three reviewers of each
    // author agree on) are 0, 0, 0 and 1.5 for m2, m3, m4 and m1: its offset, the location of the four that the
    // others share, is 0; m1's level is the three other reviewers' 5, so the affinity is 1.5 − 0 − 0 = 1.5. Every
    // other pair is 0 − 0 − 0 = 0. (Least squares on offsets alone put a share of the 1.5 into m0's offset and so
    // read m0 as generous, the affinity as less than 1.5: the leak this separation removes.)
    const fit = fitScoreModel(observationsToColumns(council((r, a) => (r === 0 && a === 1 ? 1.5 : 0))));
    const offsets = byName(fit.reviewerOffsets);
    for (let r = 0; r < 5; r++) expect(offsets[`m${r}`]!.estimate).toBeCloseTo(0, 9);
    const affinity = byName(fit.affinity);
    expect(fit.affinity).toHaveLength(20);
    expect(affinity['m0→m1']!.estimate).toBeCloseTo(1.5, 9);
    for (const pair of fit.affinity) if (pair.subject !== 'm0→m1') expect(pair.estimate).toBeCloseTo(0, 9);
  });

  it('a harsh reviewer with an affinity: −1 on every answer, +1.5 more for one author', () => {
    // m2 scores every answer 1 lower and m3's 0.5 higher (−1 + 1.5). Its pair effects −1, −1, −1, +0.5: offset −1
    // against the others' 0; the affinity m2→m3 = 0.5 − (−1) = 1.5; m3's level is its other three reviewers'.
    const fit = fitScoreModel(observationsToColumns(council((r, a) => (r === 2 ? -1 + (a === 3 ? 1.5 : 0) : 0))));
    const offsets = byName(fit.reviewerOffsets);
    expect(offsets['m2']!.estimate).toBeCloseTo(-1, 9);
    for (const r of [0, 1, 3, 4]) expect(offsets[`m${r}`]!.estimate).toBeCloseTo(0, 9);
    const affinity = byName(fit.affinity);
    expect(affinity['m2→m3']!.estimate).toBeCloseTo(1.5, 9);
    for (const pair of fit.affinity) if (pair.subject !== 'm2→m3') expect(pair.estimate).toBeCloseTo(0, 9);
  });

  it("an affinity every reviewer shares towards one author is that author's quality: no affinity, no offset", () => {
    // All four of m1's reviewers give it 1 more: within its answer they agree, so it is m1's level (5 + 1), which the
    // answer's level absorbs; every pair effect is then its author's level, and nothing is left.
    const fit = fitScoreModel(observationsToColumns(council((_, a) => (a === 1 ? 1 : 0))));
    for (const offset of fit.reviewerOffsets) expect(offset.estimate).toBeCloseTo(0, 9);
    for (const pair of fit.affinity) expect(pair.estimate).toBeCloseTo(0, 9);
  });
});

describe('fitScoreModel: the length figures without position (orders sorted by length; worked by hand)', () => {
  // Members x, y, z wrote 3,000, 2,000 and 1,000 characters; levels 7, 6, 5 (1 point per 1,000 characters); shown
  // longest first, each reviewer skipping its own answer, and +0.5 at position 0:
  //   x sees y (0), z (1); y sees x (0), z (1); z sees x (0), y (1)
  //   answer x: 7.5 by y, 7.5 by z; answer y: 6.5 by x, 6 by z; answer z: 5 by x, 5 by y.
  // Within answers only answer y's two records differ: (b_x − b_z)/2 + (p0 − p1)/2 = 0.25; answers x and z give
  // b_y = b_z and b_x = b_y. So b_x = b_y = b_z = b and p0 − p1 = 0.5; the least-norm solution (the
  // pseudo-inverse's) minimises 3b² + p0² + p1²: b = 0, p0 = 0.25, p1 = −0.25. Two identical sessions.
  const scores: [string, string, number, number][] = [
    ['y', 'x', 0, 7.5],
    ['z', 'x', 0, 7.5],
    ['x', 'y', 0, 6.5],
    ['z', 'y', 1, 6],
    ['x', 'z', 1, 5],
    ['y', 'z', 1, 5],
  ];
  const lengths: Record<string, number> = { x: 3000, y: 2000, z: 1000 };
  const records = ['s1', 's2'].flatMap((session) =>
    scores.map(([reviewer, candidate, position, score]) =>
      observation({ session, reviewer, candidate, position, score, length: lengths[candidate] }),
    ),
  );

  it('adjusted for position (the default): levels 7.5 − 0.25, 6.25 − 0, 5 + 0.25 → 1 point per 1,000 characters', () => {
    const fit = fitScoreModel(observationsToColumns(records));
    expect(fit.lengthSlope!.estimate).toBeCloseTo(1, 9);
  });

  it('without position: the answers’ mean scores 7.5, 6.25, 5 → 1.25 (the position effect reads as length)', () => {
    const fit = fitScoreModel(observationsToColumns(records), { lengthWithoutPosition: true });
    // Sxx = 1 + 0 + 1 = 2 per session, Sxy = 1·1.25 + 0 + (−1)(−1.25) = 2.5: 2.5/2 = 1.25.
    expect(fit.lengthSlope!.estimate).toBeCloseTo(1.25, 9);
    expect(fit.lengthCorrelation!.estimate).toBeCloseTo(1, 9);
    // Nothing else moves: the offsets are the same fit's.
    const adjusted = fitScoreModel(observationsToColumns(records));
    fit.reviewerOffsets.forEach((o, i) => expect(o.estimate).toBe(adjusted.reviewerOffsets[i]!.estimate));
  });
});

/** A council of `models` members, each scoring every other answer in its own random order, on a 1–10 scale. */
function simulate(spec: {
  sessions: number;
  seed: number;
  offsets: number[];
  primacy?: number;
  lengthSlope?: number;
  affinity?: [number, number, number];
}): BiasObservation[] {
  const random = createSeededSfc32(spec.seed);
  const models = spec.offsets.length;
  const out: BiasObservation[] = [];
  for (let s = 0; s < spec.sessions; s++) {
    const lengths = Array.from({ length: models }, () => 500 + Math.floor(random.integer(3000)));
    const quality = lengths.map((l) => 6 + (spec.lengthSlope ?? 0) * (l / 1000) + 0.7 * random.normal());
    for (let r = 0; r < models; r++) {
      const order = Array.from({ length: models }, (_, c) => c).filter((c) => c !== r);
      for (let i = order.length - 1; i > 0; i--) {
        const j = random.integer(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      order.forEach((c, position) => {
        const pair =
          spec.affinity !== undefined && spec.affinity[0] === r && spec.affinity[1] === c ? spec.affinity[2] : 0;
        const score = quality[c]! + spec.offsets[r]! - (spec.primacy ?? 0) * position + pair + 0.8 * random.normal();
        out.push({
          sessionId: `sim-${spec.seed}-${s}`,
          timestamp: new Date(Date.UTC(2026, 0, 1) + s * 60_000).toISOString(),
          reviewer: `m${r}`,
          candidate: `m${c}`,
          position,
          responseLengthChars: lengths[c]!,
          score,
          rankPosition: null,
          configVersion: null,
          queryCategory: null,
        });
      });
    }
  }
  return out;
}

describe('fitScoreModel on simulated councils', () => {
  it('one harsh reviewer (−1.2 of 5): it alone is off the median, and no pair shows affinity beyond chance', () => {
    const fit = fitScoreModel(
      observationsToColumns(simulate({ sessions: 300, seed: 11, offsets: [0, 0, 0, 0, -1.2] })),
    );
    expect(fit.sessions).toBe(300);
    const offsets = Object.fromEntries(fit.reviewerOffsets.map((e) => [e.subject, e]));
    expect(offsets['m4']!.lower).toBeLessThan(-1.2);
    expect(offsets['m4']!.upper).toBeGreaterThan(-1.2);
    // The others are at the median (0) up to noise: |estimate| well inside 4 standard errors, and small.
    for (const m of ['m0', 'm1', 'm2', 'm3']) {
      expect(Math.abs(offsets[m]!.estimate)).toBeLessThan(4 * offsets[m]!.standardError + 1e-9);
      expect(Math.abs(offsets[m]!.estimate)).toBeLessThan(0.1);
    }
    // 20 pairs, none planted: residual means near 0, and their 95% intervals miss 0 rarely.
    expect(fit.affinity).toHaveLength(20);
    const misses = fit.affinity.filter((pair) => pair.lower > 0 || pair.upper < 0).length;
    expect(misses).toBeLessThanOrEqual(4);
    for (const pair of fit.affinity) expect(Math.abs(pair.estimate)).toBeLessThan(0.15);
  });

  it('recovers a length slope of 0.4 points per 1,000 characters within sessions, with a primacy of 0.25 a position beside it', () => {
    const fit = fitScoreModel(
      observationsToColumns(
        simulate({ sessions: 300, seed: 12, offsets: [0, 0, 0, 0, 0], primacy: 0.25, lengthSlope: 0.4 }),
      ),
    );
    expect(fit.lengthSlope).not.toBeNull();
    expect(fit.lengthSlope!.lower).toBeLessThan(0.4);
    expect(fit.lengthSlope!.upper).toBeGreaterThan(0.4);
    expect(fit.lengthSlope!.lower).toBeGreaterThan(0); // detected
  });

  it('reads a planted affinity (m1 → m2, +1 point) as that pair at its size, and m1 as fair', () => {
    const fit = fitScoreModel(
      observationsToColumns(simulate({ sessions: 300, seed: 13, offsets: [0, 0, 0, 0, 0], affinity: [1, 2, 1] })),
    );
    const pair = fit.affinity.find((p) => p.subject === 'm1→m2')!;
    // The planted 1 point, inside its interval, which is clear of 0.
    expect(pair.lower).toBeLessThan(1);
    expect(pair.upper).toBeGreaterThan(1);
    expect(pair.lower).toBeGreaterThan(0.3);
    const others = fit.affinity.filter((p) => p.subject !== 'm1→m2');
    for (const p of others) expect(p.estimate).toBeLessThan(pair.estimate / 2);
    // m1's offset is its planted 0: the affinity does not leak into it.
    const m1 = fit.reviewerOffsets.find((o) => o.subject === 'm1')!;
    expect(m1.lower).toBeLessThan(0);
    expect(m1.upper).toBeGreaterThan(0);
  });
});

describe('fitScoreModelWithCentre', () => {
  it('returns the same fit as fitScoreModel, and the centre its offsets were read from', () => {
    const columns = observationsToColumns(simulate({ sessions: 40, seed: 5, offsets: [0, 0, 0, 0.5, -0.3] }));
    const { fit, centre } = fitScoreModelWithCentre(columns);
    expect(fit).toEqual(fitScoreModel(columns));
    expect(centre!.subjects).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(centre!.covariance).toHaveLength(25);
    // Each offset is its member's estimate less the centre, the centre the mix of the members' estimates.
    const mixed = centre!.centre.mix.reduce((total, share, i) => total + share * centre!.estimates[i]!, 0);
    expect(mixed).toBeCloseTo(centre!.centre.centre, 12);
    for (const offset of fit.reviewerOffsets) {
      const i = centre!.subjects.indexOf(offset.subject);
      expect(offset.estimate).toBeCloseTo(centre!.estimates[i]! - centre!.centre.centre, 12);
    }
  });
});
