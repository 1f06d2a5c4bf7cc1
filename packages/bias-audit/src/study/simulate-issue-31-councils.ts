import type { BiasObservation } from '../bias-observation.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';

/** Reviewers whose noise on one answer is shared: any two of `members` correlate `correlation` (0 ≤ ρ < 1). */
export interface NoiseBlock {
  members: readonly number[];
  correlation: number;
}

/**
 * A council for issue 31's study: members of planted quality, each also a reviewer (never of its own answer).
 * Unlike `simulateCouncils`, models differ in quality, a reviewer may score only some of the others (a harsh
 * reviewer who reviews only the best models), reviewers' noise may be correlated in blocks, and answer length may
 * sway the scores. Every knob left out is off.
 */
export interface Issue31Council {
  sessions: number;
  seed: number;
  /** Expected quality of `model-m`'s answers, in score points; the number of members. */
  quality: readonly number[];
  /** Points added to every score of reviewer r (index = member). */
  reviewerOffsets?: readonly number[];
  /** Per member: the candidates it scores (member indices), or null/absent for all the others. */
  reviews?: readonly (readonly number[] | null)[];
  /** Per member: it reviews only in the first n sessions (null/absent: in all). */
  reviewerSessions?: readonly (number | null)[];
  /** Points lost per display position (position p: −primacy·p). */
  primacyPerPosition?: number;
  /** SD of an answer's quality around its model's (per session). Default 0.5. */
  answerSd?: number;
  /** SD of one reviewer's noise on one answer. Default 1. */
  reviewerNoise?: number;
  noiseBlocks?: readonly NoiseBlock[];
  /** Points per 1,000 characters an answer gains from its length alone (the reviewers' taste, not quality). */
  lengthSlopePer1000Chars?: number;
  /** Per member: its answers' mean length in characters. Default 1500 for every member. */
  meanChars?: readonly number[];
  /** SD of an answer's length around its member's mean. Default 400. */
  charsSd?: number;
}

/**
 * Reviewer r scores answer c (of member c, session s) shown at position p:
 *
 *     round½(clamp[1, 10](6 + quality_c + u_sc + offset_r − primacy·p + slope·(chars_sc − 1500)/1000 + σ·e_rsc))
 *
 * u_sc ~ N(0, answerSd²); e_rsc ~ N(0, 1), with e = √ρ·z_{block,sc} + √(1 − ρ)·ε for members of a noise block (z
 * shared by the block on that answer); scores rounded to halves on 1–10 as councils give them. Each reviewer ranks
 * the answers it saw by its unrounded scores, in its own random order. The truths: a model's calibrated level less
 * another's is quality_c − quality_d; the reviewers' residual correlation within a block is ρ (before rounding).
 */
export function simulateIssue31Councils(spec: Issue31Council): BiasObservation[] {
  const M = spec.quality.length;
  const random = createSeededSfc32(spec.seed);
  const answerSd = spec.answerSd ?? 0.5;
  const sigma = spec.reviewerNoise ?? 1;
  const primacy = spec.primacyPerPosition ?? 0;
  const slope = spec.lengthSlopePer1000Chars ?? 0;
  const charsSd = spec.charsSd ?? 400;
  const blockOf = new Int32Array(M).fill(-1);
  (spec.noiseBlocks ?? []).forEach((block, b) => block.members.forEach((m) => (blockOf[m] = b)));
  const start = Date.UTC(2026, 9, 1);
  const out: BiasObservation[] = [];
  for (let s = 0; s < spec.sessions; s++) {
    const sessionId = `s${spec.seed}-${s}`;
    const timestamp = new Date(start + s * 3_600_000).toISOString();
    const chars = spec.quality.map((_, c) =>
      Math.max(50, Math.round((spec.meanChars?.[c] ?? 1500) + charsSd * random.normal())),
    );
    const level = spec.quality.map((q, c) => 6 + q + answerSd * random.normal() + slope * ((chars[c]! - 1500) / 1000));
    // Each block's shared noise, per answer.
    const shared = (spec.noiseBlocks ?? []).map(() => spec.quality.map(() => random.normal()));
    for (let r = 0; r < M; r++) {
      const until = spec.reviewerSessions?.[r];
      if (until !== null && until !== undefined && s >= until) continue;
      const targets = [...(spec.reviews?.[r] ?? spec.quality.map((_, c) => c))].filter((c) => c !== r);
      for (let i = targets.length - 1; i > 0; i--) {
        const j = random.integer(i + 1);
        [targets[i], targets[j]] = [targets[j]!, targets[i]!];
      }
      const b = blockOf[r]!;
      const rho = b < 0 ? 0 : spec.noiseBlocks![b]!.correlation;
      const scores = targets.map((c, position) => {
        const e = b < 0 ? random.normal() : Math.sqrt(rho) * shared[b]![c]! + Math.sqrt(1 - rho) * random.normal();
        return level[c]! + (spec.reviewerOffsets?.[r] ?? 0) - primacy * position + sigma * e;
      });
      const ranking = targets.map((_, i) => i).sort((a, z) => scores[z]! - scores[a]! || a - z);
      targets.forEach((c, position) => {
        out.push({
          sessionId,
          timestamp,
          reviewer: `model-${r}`,
          candidate: `model-${c}`,
          position,
          responseLengthChars: chars[c]!,
          score: Math.min(10, Math.max(1, Math.round(2 * scores[position]!) / 2)),
          rankPosition: ranking.indexOf(position),
          configVersion: '1.0.0',
          queryCategory: null,
        });
      });
    }
  }
  return out;
}
