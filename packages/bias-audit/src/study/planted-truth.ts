import { median } from '../internal/describe.js';
import { impliedLengthCorrelation } from './implied-length-correlation.js';
import type { Estimand } from './study-estimator.js';
import type { StudySimulation } from './study-simulation.js';

/** The truth of an estimand for one subject, or null where the simulation plants none to judge an interval by. */
export type PlantedTruth = (estimand: Estimand, subject: string | null) => number | null;

const EPSILON = 1e-12;

/** Answers each reviewer is shown: every member's with self-review, all but its own without. */
function shownCount(simulation: StudySimulation, reviewer: number): number {
  const models = simulation.models ?? 5;
  return (simulation.selfReview ?? true) || reviewer >= models ? models : models - 1;
}

/** The planted score effect at each display position (`positionEffects` and primacy together). */
function rawPositionEffect(simulation: StudySimulation, position: number): number {
  return (simulation.positionEffects?.[position] ?? 0) - (simulation.primacyPerPosition ?? 0) * position;
}

/**
 * True position effects: per display position, the mean over the reviewers shown that position of its
 * planted effect minus the mean planted effect over the positions that reviewer was shown (what a
 * within-reviewer centred score estimates). Index = position.
 */
export function positionTruths(simulation: StudySimulation): number[] {
  const reviewers = simulation.reviewers ?? 4;
  const longest = Math.max(...Array.from({ length: reviewers }, (_, r) => shownCount(simulation, r)));
  return Array.from({ length: longest }, (_, p) => {
    let sum = 0;
    let count = 0;
    for (let r = 0; r < reviewers; r++) {
      const k = shownCount(simulation, r);
      if (p >= k) continue;
      let meanEffect = 0;
      for (let q = 0; q < k; q++) meanEffect += rawPositionEffect(simulation, q) / k;
      sum += rawPositionEffect(simulation, p) - meanEffect;
      count++;
    }
    return sum / count;
  });
}

/** Planted reviewer offsets relative to the median reviewer's (index = reviewer). */
export function reviewerOffsetTruths(simulation: StudySimulation): number[] {
  const reviewers = simulation.reviewers ?? 4;
  const offsets = Array.from({ length: reviewers }, (_, r) => simulation.reviewerOffsets?.[r] ?? 0);
  const centre = median(offsets);
  return offsets.map((o) => o - centre);
}

const modelIndex = (subject: string | null): number | null => {
  const match = subject === null ? null : /^model-(\d+)$/.exec(subject);
  return match ? Number(match[1]) : null;
};

/**
 * The truth of every estimand the study scores, from the knobs of a simulated council (see
 * `simulateCouncils` for the model). Exact where the knobs give it in closed form; the length
 * correlation is simulated (`impliedLengthCorrelation`) when several knobs shape it. Null, so the
 * interval is not scored, where the simulation has no single truth to offer:
 * - rank position effects and anchoring when position effects are planted (their size then depends on the
 *   quality spread);
 * - reviewer offsets and affinities when affinities are planted (the model's reviewer and author main
 *   effects absorb an affinity's row and column means, so "the truth" depends on the estimator's
 *   constraints); no scenario of issue 13 plants one;
 * - self-preference without self-review, and subjects the council does not have.
 */
export function plantedTruth(simulation: StudySimulation): PlantedTruth {
  const models = simulation.models ?? 5;
  const reviewers = simulation.reviewers ?? 4;
  const selfReview = simulation.selfReview ?? true;
  const rho = simulation.lengthCorrelation ?? 0;
  const slope = simulation.lengthSlopePer1000Chars ?? 0;
  const sessionLengthSd = simulation.lengthChars?.betweenSessionSd ?? 0;
  const positions = positionTruths(simulation);
  const positionsPlanted = positions.some((p) => Math.abs(p) > EPSILON);
  const offsets = reviewerOffsetTruths(simulation);
  const affinityPlanted = (simulation.affinity ?? []).some((a) => a.points !== 0);
  const selfOf = (r: number): number =>
    typeof simulation.selfPreference === 'number' ? simulation.selfPreference : (simulation.selfPreference?.[r] ?? 0);
  // Anything besides the correlation knob that spreads an answer's mean score within a session.
  const spread =
    positionsPlanted ||
    slope !== 0 ||
    simulation.scale?.step !== undefined ||
    (simulation.lengthCorrelationJitter ?? 0) !== 0 ||
    affinityPlanted ||
    Array.from({ length: reviewers }, (_, r) => r).some((r) => selfOf(r) !== 0) ||
    (!selfReview && offsets.some((o) => Math.abs(o) > EPSILON));
  let lengthCorrelation: number | null = null;
  const lengthCorrelationTruth = (): number => {
    if (lengthCorrelation === null)
      lengthCorrelation = rho === 0 && slope === 0 ? 0 : !spread ? rho : impliedLengthCorrelation(simulation);
    return lengthCorrelation;
  };
  return (estimand, subject) => {
    switch (estimand) {
      case 'length_correlation':
        return lengthCorrelationTruth();
      case 'length_slope':
        return slope + (1000 * rho) / (simulation.lengthChars?.sd ?? 400);
      case 'length_between_sessions': {
        const sd = simulation.lengthChars?.sd ?? 400;
        const withinVariance = (sd * sd) / models;
        return (
          (simulation.betweenSessionSlopePer1000Chars ?? 0) +
          ((1000 * rho) / sd) * (withinVariance / (sessionLengthSd ** 2 + withinVariance))
        );
      }
      case 'position_effect': {
        const p = subject === null ? Number.NaN : Number(subject);
        return Number.isInteger(p) && p >= 0 && p < positions.length ? positions[p]! : null;
      }
      case 'primacy':
      case 'recency': {
        let sum = 0;
        for (let r = 0; r < reviewers; r++) {
          const k = shownCount(simulation, r);
          let meanEffect = 0;
          for (let q = 0; q < k; q++) meanEffect += rawPositionEffect(simulation, q) / k;
          sum += rawPositionEffect(simulation, estimand === 'primacy' ? 0 : k - 1) - meanEffect;
        }
        return sum / reviewers;
      }
      case 'rank_position_effect':
        return positionsPlanted ? null : 0;
      case 'anchoring':
        return positionsPlanted ? null : 0;
      case 'reviewer_offset': {
        const r = modelIndex(subject);
        return affinityPlanted || r === null || r >= reviewers ? null : offsets[r]!;
      }
      case 'self_preference': {
        const r = modelIndex(subject);
        return !selfReview || r === null || r >= reviewers || r >= models ? null : selfOf(r);
      }
      case 'affinity': {
        const [from, to] = (subject ?? '').split('→').map((s) => modelIndex(s));
        if (affinityPlanted || from === undefined || to === undefined || from === null || to === null) return null;
        return from < reviewers && to < models && from !== to ? 0 : null;
      }
      case 'trend_slope':
        return 0;
      default: {
        const never: never = estimand;
        throw new Error(`no truth for ${String(never)}`);
      }
    }
  };
}
