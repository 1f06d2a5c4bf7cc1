import { median } from '../internal/describe.js';
import { plantedTruth, positionTruths } from './planted-truth.js';
import type { PlantedTruth } from './planted-truth.js';
import type { ScenarioPlants } from './scenario-plants.js';
import { simulateMessyCouncils } from './simulate-messy-councils.js';
import type { MessyCouncil } from './simulate-messy-councils.js';
import type { StudyFlag } from './study-estimator.js';

const EPSILON = 1e-12;

const modelIndex = (subject: string | null): number | null => {
  const match = subject === null ? null : /^model-(\d+)$/.exec(subject);
  return match ? Number(match[1]) : null;
};

/**
 * What a messy council plants and what its records can identify, judged by issue 29's targets rather
 * than by what today's report can do:
 * - reviewer offsets are each scoring reviewer's planted offset *in the latest period* (after a drift)
 *   minus the median of those offsets over the scoring reviewers (the majority's reference, which two
 *   harsh of five cannot move); an affinity does not move its reviewer's offset; rank-only reviewers
 *   have none;
 * - an affinity is its planted points, 0 for every other pair of a scoring reviewer and another author;
 * - position effects, primacy and recency are `positionTruths` of the council, and not identified (null)
 *   when the order is fixed by author (position is then author), or when attendance varies and positions
 *   are planted (the truth then mixes session sizes); rank position effects and anchoring are 0 only
 *   under random or shared orders with nothing planted at positions and ranks that follow the unrounded
 *   scores (ties broken by position, or orders sorted by author or length, move ranks with position);
 * - the length slope is the planted slope; the length correlation is 0 without one, and otherwise
 *   `plantedTruth`'s where the council's extras leave answers' mean-score variance as `simulateCouncils`
 *   has it (t noise of the same SD, shared or sorted orders without position effects), else null;
 * - trend slopes are 0, except under drift (null: the drift is a step, not a slope).
 * Flags: length for a slope, position for planted position effects (not under an order fixed by author),
 * harsh/generous for each non-zero offset above, each planted affinity, and REVIEWER_DRIFT for the drifting
 * reviewer (the only councils that plant it: a drift of non-zero points).
 */
export function messyPlants(council: MessyCouncil): ScenarioPlants {
  const models = council.models ?? 5;
  const reviewers = Math.min(council.reviewers ?? models, models);
  const base = { ...council, selfReview: council.selfReview ?? false, reviewers };
  const baseTruth = plantedTruth(base);
  const order = council.order ?? 'random';
  const rankOnly = new Set(council.rankOnly ?? []);
  const scoring = Array.from({ length: reviewers }, (_, r) => r).filter((r) => !rankOnly.has(r));
  const latest = (r: number): number =>
    (council.reviewerOffsets?.[r] ?? 0) + (council.drift?.reviewer === r ? council.drift.points : 0);
  const centre = median(scoring.map(latest));
  const offsets = new Map(scoring.map((r) => [r, latest(r) - centre]));
  const affinity = new Map<string, number>();
  for (const a of council.affinity ?? [])
    affinity.set(`${a.reviewer}→${a.candidate}`, (affinity.get(`${a.reviewer}→${a.candidate}`) ?? 0) + a.points);
  const affinityReviewers = new Set((council.affinity ?? []).filter((a) => a.points !== 0).map((a) => a.reviewer));
  const positionsPlanted = positionTruths(base).some((p) => Math.abs(p) > EPSILON);
  const positionIdentified = order !== 'by-author' && !(positionsPlanted && council.attendance !== undefined);
  const ranksClean =
    (order === 'random' || order === 'shared') && !positionsPlanted && council.rankTies !== 'by-position';
  const slope = council.lengthSlopePer1000Chars ?? 0;
  const varianceAsTidy =
    council.attendance === undefined &&
    (council.missingReviewRate ?? 0) === 0 &&
    rankOnly.size === 0 &&
    (council.authorQuality ?? []).every((q) => q === 0) &&
    council.drift === undefined &&
    (order === 'random' || order === 'shared' || !positionsPlanted);

  const truth: PlantedTruth = (estimand, subject) => {
    switch (estimand) {
      case 'length_slope':
      case 'length_between_sessions':
        return baseTruth(estimand, subject);
      case 'length_correlation':
        return slope === 0 && (order !== 'by-length' || !positionsPlanted)
          ? 0
          : varianceAsTidy
            ? baseTruth(estimand, subject)
            : null;
      case 'position_effect':
      case 'primacy':
      case 'recency':
        return positionIdentified ? baseTruth(estimand, subject) : null;
      case 'rank_position_effect':
      case 'anchoring':
        return ranksClean ? 0 : null;
      case 'reviewer_offset': {
        const r = modelIndex(subject);
        return r === null ? null : (offsets.get(r) ?? null);
      }
      case 'affinity': {
        const [from, to] = (subject ?? '').split('→').map((s) => modelIndex(s));
        if (from === undefined || to === undefined || from === null || to === null) return null;
        if (!offsets.has(from) || to >= models || from === to) return null;
        return affinity.get(`${from}→${to}`) ?? 0;
      }
      case 'self_preference':
        return null;
      case 'trend_slope':
        return council.drift === undefined ? 0 : null;
      default: {
        const never: never = estimand;
        throw new Error(`no truth for ${String(never)}`);
      }
    }
  };

  const flags: StudyFlag[] = [];
  if (slope !== 0) flags.push({ code: 'LENGTH_BIAS_DETECTED', subject: null });
  if (positionsPlanted && order !== 'by-author') flags.push({ code: 'POSITION_BIAS_DETECTED', subject: null });
  for (const [r, offset] of offsets) {
    if (offset < -EPSILON) flags.push({ code: 'HARSH_REVIEWER', subject: `model-${r}` });
    if (offset > EPSILON) flags.push({ code: 'GENEROUS_REVIEWER', subject: `model-${r}` });
  }
  if (council.drift !== undefined && council.drift.points !== 0)
    flags.push({ code: 'REVIEWER_DRIFT', subject: `model-${council.drift.reviewer}` });
  for (const [pair, points] of affinity) {
    const [from, to] = pair.split('→');
    if (points !== 0) flags.push({ code: 'REVIEWER_AFFINITY', subject: `model-${from}→model-${to}` });
  }

  const reviewerKind = (r: number): string => {
    if (rankOnly.has(r)) return 'rank-only reviewer';
    if (council.drift?.reviewer === r) return 'drifting reviewer';
    const offset = offsets.get(r) ?? 0;
    if (offset < -EPSILON) return 'harsh reviewer';
    if (offset > EPSILON) return 'generous reviewer';
    if (affinityReviewers.has(r)) return 'affinity reviewer (fair otherwise)';
    return 'fair reviewer';
  };
  const kindOf = (subject: string | null): string => {
    if (subject === null) return 'the council';
    if (subject.includes('→')) {
      const [from, to] = subject.split('→').map((s) => modelIndex(s));
      if (from === null || from === undefined || to === null || to === undefined) return 'other';
      if ((affinity.get(`${from}→${to}`) ?? 0) !== 0) return 'a planted pair';
      const kind = reviewerKind(from);
      return `a pair of ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
    }
    const r = modelIndex(subject);
    return r === null ? 'other' : reviewerKind(r);
  };

  return {
    simulate: ({ sessions, seed }) => simulateMessyCouncils({ ...council, sessions, seed }),
    flags,
    truth,
    kindOf,
  };
}
