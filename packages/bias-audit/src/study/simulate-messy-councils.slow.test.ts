import { describe, expect, it } from 'vitest';
import type { BiasObservation } from '../bias-observation.js';
import { messyPlants } from './messy-plants.js';
import { simulateMessyCouncils } from './simulate-messy-councils.js';
import type { MessyCouncil } from './simulate-messy-councils.js';

// The generators of issue 29's study plant what they say. Expected values come from the planted
// parameters: with no reviewer noise and an unclamped scale, two reviewers' scores of the same answer differ
// by exactly their planted offsets, drifts and affinities (quality and length cancel), so those checks are exact.

const council: MessyCouncil = {
  models: 5,
  reviewers: 5,
  reviewerNoise: 0.8,
  selfReview: false,
  lengthChars: { mean: 3000, sd: 1000 },
  scale: { min: 1, max: 10 },
};

const index = (id: string): number => Number(id.slice('model-'.length));

/** Records grouped by session, then by reviewer, in the order the generator wrote them. */
function bySessionAndReviewer(observations: readonly BiasObservation[]): Map<string, Map<number, BiasObservation[]>> {
  const out = new Map<string, Map<number, BiasObservation[]>>();
  for (const o of observations) {
    const session = out.get(o.sessionId) ?? new Map<number, BiasObservation[]>();
    out.set(o.sessionId, session);
    const list = session.get(index(o.reviewer)) ?? [];
    session.set(index(o.reviewer), list);
    list.push(o);
  }
  return out;
}

/** Score of (reviewer, author) per session, for the exact difference checks. */
function scoreOf(observations: readonly BiasObservation[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of observations) out.set(`${o.sessionId} ${index(o.reviewer)} ${index(o.candidate)}`, o.score!);
  return out;
}

describe('simulateMessyCouncils', () => {
  it('fixes each author at the same display position when the order is by author', () => {
    const observations = simulateMessyCouncils({ ...council, order: 'by-author', sessions: 200, seed: 1 });
    expect(observations).toHaveLength(200 * 5 * 4);
    for (const o of observations) {
      const r = index(o.reviewer);
      const c = index(o.candidate);
      // The reviewer's own answer is left out and positions renumbered: author c sits at c, or c − 1 after r.
      expect(o.position).toBe(c > r ? c - 1 : c);
    }
  });

  it('shows every reviewer of a session the same order when it is shared', () => {
    const sessions = bySessionAndReviewer(
      simulateMessyCouncils({ ...council, order: 'shared', sessions: 200, seed: 2 }),
    );
    let orders = 0;
    const distinct = new Set<string>();
    for (const reviewers of sessions.values()) {
      // Reinsert each reviewer's own answer where the others put it: the full orders must agree.
      const seen = [...reviewers.values()].map((list) =>
        [...list].sort((a, b) => a.position - b.position).map((o) => index(o.candidate)),
      );
      for (const a of seen)
        for (const b of seen) {
          const common = a.filter((c) => b.includes(c));
          expect(b.filter((c) => common.includes(c))).toEqual(common);
        }
      distinct.add(seen[0]!.join(','));
      orders++;
    }
    expect(orders).toBe(200);
    // The order is drawn per session: reviewer 0 sees the other four in each of their 4! = 24 orders over 200 sessions.
    expect(distinct.size).toBe(24);
  });

  it('shows longer answers first when the order is sorted by length', () => {
    const sessions = bySessionAndReviewer(
      simulateMessyCouncils({ ...council, order: 'by-length', sessions: 100, seed: 3 }),
    );
    for (const reviewers of sessions.values())
      for (const list of reviewers.values()) {
        const lengths = [...list].sort((a, b) => a.position - b.position).map((o) => o.responseLengthChars);
        for (let i = 1; i < lengths.length; i++) expect(lengths[i]!).toBeLessThanOrEqual(lengths[i - 1]!);
      }
  });

  it('adds a planted affinity to its pair only', () => {
    const observations = simulateMessyCouncils({
      ...council,
      reviewerNoise: 0,
      scale: undefined,
      affinity: [{ reviewer: 0, candidate: 1, points: 1.5 }],
      sessions: 50,
      seed: 4,
    });
    const score = scoreOf(observations);
    for (const o of observations) {
      const r = index(o.reviewer);
      const c = index(o.candidate);
      // A reference reviewer of the same answer with no affinity planted: the lowest of 2, 3, 4 that is neither r nor c.
      const reference = [2, 3, 4].find((x) => x !== r && x !== c)!;
      const difference = o.score! - score.get(`${o.sessionId} ${reference} ${c}`)!;
      expect(difference).toBeCloseTo(r === 0 && c === 1 ? 1.5 : 0, 9);
    }
  });

  it('moves a drifting reviewer by the planted points from the planted session, with the config change', () => {
    for (const configVersion of [undefined, '1.1.0']) {
      const observations = simulateMessyCouncils({
        ...council,
        reviewerNoise: 0,
        scale: undefined,
        drift: { reviewer: 0, points: -1, atFraction: 0.5, ...(configVersion ? { configVersion } : {}) },
        sessions: 40,
        seed: 5,
      });
      const score = scoreOf(observations);
      for (const o of observations) {
        const session = Number(o.sessionId.split('-')[1]);
        // Session 20 of 40 is the first of the second half.
        expect(o.configVersion).toBe(configVersion !== undefined && session >= 20 ? '1.1.0' : '1.0.0');
        if (o.reviewer !== 'model-0') continue;
        const c = index(o.candidate);
        const reference = c === 1 ? 2 : 1;
        const difference = o.score! - score.get(`${o.sessionId} ${reference} ${c}`)!;
        expect(difference).toBeCloseTo(session >= 20 ? -1 : 0, 9);
      }
    }
  });

  it('draws t noise with 3 df at the planted SD, with tails heavier than normal ones', () => {
    const sigma = 0.8;
    const observations = simulateMessyCouncils({ ...council, scale: undefined, noiseDf: 3, sessions: 4000, seed: 6 });
    const score = scoreOf(observations);
    // Reviewers 2 and 3 scoring the same answer (0, 1 or 4): the difference is the noise of two, variance 2σ².
    const differences: number[] = [];
    for (const o of observations)
      if (o.reviewer === 'model-2' && o.candidate !== 'model-3')
        differences.push(o.score! - score.get(`${o.sessionId} 3 ${index(o.candidate)}`)!);
    expect(differences).toHaveLength(4000 * 3);
    const variance = differences.reduce((s, d) => s + d * d, 0) / differences.length;
    expect(variance / (2 * sigma * sigma)).toBeGreaterThan(0.85);
    expect(variance / (2 * sigma * sigma)).toBeLessThan(1.15);
    // A normal difference lies beyond 3 SD in 0.27% of draws; with t(3) noise, several times as often.
    const sd = Math.sqrt(2) * sigma;
    const beyond = differences.filter((d) => Math.abs(d) > 3 * sd).length / differences.length;
    expect(beyond).toBeGreaterThan(2 * 0.0027);
  });

  it('gives integer scores and ranks them, a tie to the answer shown first', () => {
    const observations = simulateMessyCouncils({
      ...council,
      scale: { min: 1, max: 10, step: 1 },
      rankTies: 'by-position',
      sessions: 200,
      seed: 7,
    });
    let ties = 0;
    for (const reviewers of bySessionAndReviewer(observations).values())
      for (const list of reviewers.values()) {
        for (const a of list) {
          expect(Number.isInteger(a.score)).toBe(true);
          for (const b of list) {
            if (a === b) continue;
            const aFirst = a.score! > b.score! || (a.score === b.score && a.position < b.position);
            expect(a.rankPosition! < b.rankPosition!).toBe(aFirst);
            if (a.score === b.score && a.position < b.position) ties++;
          }
        }
      }
    expect(ties).toBeGreaterThan(0);
  });

  it('leaves rank-only reviewers without scores but with full rankings', () => {
    const observations = simulateMessyCouncils({ ...council, rankOnly: [4], sessions: 100, seed: 8 });
    for (const reviewers of bySessionAndReviewer(observations).values())
      for (const [r, list] of reviewers) {
        for (const o of list) expect(o.score === null).toBe(r === 4);
        expect(list.map((o) => o.rankPosition).sort()).toEqual([0, 1, 2, 3]);
      }
  });

  it('varies membership within the planted range, every attending member reviewing the others', () => {
    const observations = simulateMessyCouncils({
      ...council,
      models: 7,
      reviewers: 7,
      attendance: { min: 3, max: 6 },
      sessions: 400,
      seed: 9,
    });
    const members = new Map<string, Set<string>>();
    for (const o of observations) {
      const set = members.get(o.sessionId) ?? new Set<string>();
      members.set(o.sessionId, set);
      set.add(o.reviewer).add(o.candidate);
    }
    const sizes = [...members.values()].map((m) => m.size);
    expect(new Set(sizes)).toEqual(new Set([3, 4, 5, 6]));
    // m members: each reviews the other m − 1.
    expect(observations).toHaveLength(sizes.reduce((sum, m) => sum + m * (m - 1), 0));
    expect(new Set(observations.map((o) => o.reviewer)).size).toBe(7);
  });

  it('leaves out reviews at the planted rate', () => {
    const sessions = 2000;
    const missing = 0.1;
    const observations = simulateMessyCouncils({ ...council, missingReviewRate: missing, sessions, seed: 10 });
    // 5 members, 20 reviews a session, each kept with chance 0.9: binomial count.
    const trials = sessions * 20;
    const se = Math.sqrt(trials * missing * (1 - missing));
    expect(Math.abs(observations.length - trials * (1 - missing))).toBeLessThan(4 * se);
  });
});

describe('messyPlants', () => {
  it('measures offsets from the majority, so two harsh reviewers of five keep the three fair ones at 0', () => {
    const plants = messyPlants({ ...council, reviewerOffsets: [-1, -1] });
    expect([0, 1, 2, 3, 4].map((r) => plants.truth('reviewer_offset', `model-${r}`))).toEqual([-1, -1, 0, 0, 0]);
    expect(plants.flags).toEqual([
      { code: 'HARSH_REVIEWER', subject: 'model-0' },
      { code: 'HARSH_REVIEWER', subject: 'model-1' },
    ]);
    expect(plants.kindOf('model-3')).toBe('fair reviewer');
  });

  it('keeps an affinity out of its reviewer offset', () => {
    const plants = messyPlants({ ...council, affinity: [{ reviewer: 0, candidate: 1, points: 1.5 }] });
    expect(plants.truth('reviewer_offset', 'model-0')).toBe(0);
    expect(plants.truth('affinity', 'model-0→model-1')).toBe(1.5);
    expect(plants.truth('affinity', 'model-0→model-2')).toBe(0);
    expect(plants.flags).toEqual([{ code: 'REVIEWER_AFFINITY', subject: 'model-0→model-1' }]);
  });

  it('scores no position interval when the order is fixed by author, and plants no flag', () => {
    const plants = messyPlants({ ...council, order: 'by-author', authorQuality: [0.6, 0.3, 0, -0.3, -0.6] });
    expect(plants.truth('position_effect', '0')).toBeNull();
    expect(plants.truth('primacy', null)).toBeNull();
    expect(plants.flags).toEqual([]);
  });

  it('takes a drifting reviewer at its latest period, and plants its drift', () => {
    const plants = messyPlants({ ...council, drift: { reviewer: 0, points: -1, atFraction: 0.5 } });
    expect(plants.truth('reviewer_offset', 'model-0')).toBe(-1);
    expect(plants.flags).toEqual([
      { code: 'HARSH_REVIEWER', subject: 'model-0' },
      { code: 'REVIEWER_DRIFT', subject: 'model-0' },
    ]);
    expect(plants.kindOf('model-0')).toBe('drifting reviewer');
  });
});
