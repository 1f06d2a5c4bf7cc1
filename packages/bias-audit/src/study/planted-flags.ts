import { positionTruths, reviewerOffsetTruths } from './planted-truth.js';
import type { StudyFlag } from './study-estimator.js';
import type { StudySimulation } from './study-simulation.js';

const EPSILON = 1e-12;

/**
 * The flags a correct report raises for a simulated council, in the codes and subjects of
 * `AggregateBiasFlag`: length bias when a within-session length effect is planted (a jitter with mean 0
 * is none), position bias when the positions shown differ, a harsh or generous reviewer for every
 * offset away from the median reviewer's, self-preference for a positive planted one (with
 * self-review), and each planted affinity. Nothing else, so a between-session confound plants no flag, and
 * REVIEWER_DRIFT is never planted here (these councils' reviewers do not change; `messyPlants` plants it).
 */
export function plantedFlags(simulation: StudySimulation): StudyFlag[] {
  const flags: StudyFlag[] = [];
  const models = simulation.models ?? 5;
  const reviewers = simulation.reviewers ?? 4;
  if ((simulation.lengthSlopePer1000Chars ?? 0) !== 0 || (simulation.lengthCorrelation ?? 0) !== 0)
    flags.push({ code: 'LENGTH_BIAS_DETECTED', subject: null });
  if (positionTruths(simulation).some((p) => Math.abs(p) > EPSILON))
    flags.push({ code: 'POSITION_BIAS_DETECTED', subject: null });
  reviewerOffsetTruths(simulation).forEach((offset, r) => {
    if (offset < -EPSILON) flags.push({ code: 'HARSH_REVIEWER', subject: `model-${r}` });
    if (offset > EPSILON) flags.push({ code: 'GENEROUS_REVIEWER', subject: `model-${r}` });
  });
  if (simulation.selfReview ?? true) {
    for (let r = 0; r < Math.min(reviewers, models); r++) {
      const self =
        typeof simulation.selfPreference === 'number'
          ? simulation.selfPreference
          : (simulation.selfPreference?.[r] ?? 0);
      if (self > 0) flags.push({ code: 'SELF_PREFERENCE', subject: `model-${r}` });
    }
  }
  const pairs = new Map<string, number>();
  for (const a of simulation.affinity ?? [])
    pairs.set(
      `model-${a.reviewer}→model-${a.candidate}`,
      (pairs.get(`model-${a.reviewer}→model-${a.candidate}`) ?? 0) + a.points,
    );
  for (const [pair, points] of pairs) if (points !== 0) flags.push({ code: 'REVIEWER_AFFINITY', subject: pair });
  return flags;
}
