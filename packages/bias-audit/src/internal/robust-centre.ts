import type { ScoreModelEffect, ScoreModelEstimate } from '../fit-score-model.js';
import { median } from './describe.js';
import { quadraticForm } from './sandwich-covariance.js';

/** Tukey's biweight tuning constant (95% efficiency at the normal). */
const biweightC = 4.685;

/** A reviewer in the centre: its offset as a contrast over the model's k columns, and that contrast's estimate. */
export interface RobustCentreMember {
  subject: string;
  /** The reviewer's offset as a combination of the model's columns (e.g. the unit vector at its column). */
  contrast: Float64Array;
  /** contrast'β̂. */
  estimate: number;
}

/**
 * Reviewers' offsets are only relative, so each is measured against a robust centre of them all: Tukey's
 * biweight M-estimate of their location, started at the median. A reviewer's distance from the centre is
 * counted in √(SE² + τ²), its own standard error and τ = 1.4826·MAD of the offsets (their spread as a
 * group): near the centre it weighs close to 1, beyond 4.685 nothing. With no outlier the centre is close
 * to the mean, so intervals keep their level; a clearly harsh reviewer gets no weight, so it makes no one
 * else look generous; and with 20,000 sessions, where standard errors are tiny, fair reviewers 0.06 points
 * apart still count each other as typical (τ keeps them in). No weight left: the median. With two reviewers
 * the centre is their mean, so a harsh one still makes the other look generous.
 */
export function offsetsFromRobustCentre<Member extends RobustCentreMember>(spec: {
  members: readonly Member[];
  covariance: Float64Array;
  k: number;
  estimateOf: (contrast: Float64Array, member: Member) => ScoreModelEstimate | null;
}): ScoreModelEffect[] {
  const { members, covariance, k } = spec;
  if (members.length < 2) return [];
  const estimates = members.map((m) => m.estimate);
  const start = median(estimates);
  const tau = 1.4826 * median(estimates.map((e) => Math.abs(e - start)));
  let weights = members.map(() => 1);
  let centre = start;
  let fallback = false;
  const contrastOf = (member: number): Float64Array => {
    const contrast = Float64Array.from(members[member]!.contrast);
    const subtract = (j: number, share: number): void => {
      const own = members[j]!.contrast;
      for (let a = 0; a < k; a++) contrast[a]! -= share * own[a]!;
    };
    if (fallback) {
      // The median member(s) as the reference.
      const sorted = members.map((_, j) => j).sort((a, b) => estimates[a]! - estimates[b]!);
      const middle =
        sorted.length % 2 === 1
          ? [sorted[(sorted.length - 1) / 2]!]
          : [sorted[sorted.length / 2 - 1]!, sorted[sorted.length / 2]!];
      for (const j of middle) subtract(j, 1 / middle.length);
      return contrast;
    }
    const total = weights.reduce((sum, w) => sum + w, 0);
    members.forEach((_, j) => subtract(j, weights[j]! / total));
    return contrast;
  };
  for (let iteration = 0; iteration < 100; iteration++) {
    const next = members.map((_, j) => {
      const se = Math.sqrt(Math.max(0, quadraticForm(covariance, contrastOf(j), k)));
      const scale = Math.sqrt(se * se + tau * tau);
      const gap = Math.abs(estimates[j]! - centre);
      // A scale of 0 (scores that fit exactly, reviewers that agree) leaves rounding only: ties within 1e-9 points are at the centre.
      const distance = scale > 1e-12 ? gap / scale : gap > 1e-9 ? Number.POSITIVE_INFINITY : 0;
      return distance >= biweightC ? 0 : (1 - (distance / biweightC) ** 2) ** 2;
    });
    const total = next.reduce((sum, w) => sum + w, 0);
    if (!(total > 0)) {
      fallback = true;
      break;
    }
    weights = next;
    const nextCentre = estimates.reduce((sum, e, j) => sum + weights[j]! * e, 0) / total;
    const settled = Math.abs(nextCentre - centre) <= 1e-12 * Math.max(1, Math.abs(centre));
    centre = nextCentre;
    if (settled) break;
  }
  const out: ScoreModelEffect[] = [];
  members.forEach((member, j) => {
    const fit = spec.estimateOf(contrastOf(j), member);
    if (fit !== null) out.push({ subject: member.subject, weight: fallback ? 0 : weights[j]!, ...fit });
  });
  return out;
}
