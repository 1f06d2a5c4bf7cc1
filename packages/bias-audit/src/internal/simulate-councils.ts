import type { BiasObservation } from '../bias-observation.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';

/** A planted reviewer → author affinity: `points` added whenever reviewer `reviewer` scores candidate `candidate`. */
export interface PlantedAffinity {
  /** Reviewer index (reviewer r is `model-r`). */
  reviewer: number;
  /** Candidate index (candidate c is `model-c`). */
  candidate: number;
  points: number;
}

/**
 * What a simulated council looks like. Every knob is optional; left out, each has the value that
 * reproduces the first version of this simulation exactly (same observations for the same seed), so
 * the older validity tests and the benchmark see the same councils as before. Score points are on
 * the scale of the scores (1–10 in Council). The truth each knob plants, per estimand, is in the
 * doc comment of `simulateCouncils`.
 */
export interface CouncilSimulation {
  sessions: number;
  seed: number;
  /** Members answering each session (`model-0` … `model-{models − 1}`). Default 5. */
  models?: number;
  /** Reviewers, the first `reviewers` members (reviewer r is `model-r`; beyond `models` they only review). Default 4. */
  reviewers?: number;
  /**
   * True correlation between an answer's length and its mean score within a session, planted through
   * the answer's quality (see `simulateCouncils`). Default 0.
   */
  lengthCorrelation?: number;
  /**
   * Heterogeneous length effects: each session's correlation is `lengthCorrelation ± lengthCorrelationJitter`,
   * the sign by a fair coin per session, so the mean over sessions stays `lengthCorrelation`
   * (0.5 with a mean of 0: half the sessions at +0.5, half at −0.5). Default 0.
   */
  lengthCorrelationJitter?: number;
  /**
   * Length effect in score points per 1,000 characters, within a session: every score of an answer gets
   * `lengthSlopePer1000Chars · (its length − the session's mean length) / 1000`. Default 0.
   */
  lengthSlopePer1000Chars?: number;
  /**
   * Answer lengths in characters: `round(sessionMean + sd·L)` (at least 1) with L ~ N(0, 1) per answer,
   * and `sessionMean = mean + betweenSessionSd·G`, G ~ N(0, 1) per session. Default
   * `{ mean: 1500, sd: 400, betweenSessionSd: 0 }`.
   */
  lengthChars?: { mean: number; sd: number; betweenSessionSd?: number };
  /**
   * A between-session-only length confound, in score points per 1,000 characters of the session's mean
   * answer length: every score of a session gets `betweenSessionSlopePer1000Chars · (the session's
   * realised mean length − lengthChars.mean) / 1000`. Constant within a session, so no within-session
   * length effect. Needs `lengthChars.betweenSessionSd` > 0 to be visible. Default 0.
   */
  betweenSessionSlopePer1000Chars?: number;
  /** Score points added at each display position (index = position, as shown to that reviewer). Default none. */
  positionEffects?: readonly number[];
  /**
   * Primacy in score points per display position: position p gets `−primacyPerPosition · p` on top of
   * `positionEffects` (0.25 → 0, −0.25, −0.5, …). Default 0.
   */
  primacyPerPosition?: number;
  /** Score points added to every score of reviewer r (index = reviewer), e.g. `[-1.2]` for one harsh reviewer. Default none. */
  reviewerOffsets?: readonly number[];
  /** Score points a reviewer adds to its own answer (one number for all, or per reviewer). Needs `selfReview`. Default 0. */
  selfPreference?: number | readonly number[];
  /** Planted reviewer → author affinities. Default none. */
  affinity?: readonly PlantedAffinity[];
  /** Whether a member reviews its own answer too. Default true (the first version's councils). */
  selfReview?: boolean;
  /** Standard deviation of one reviewer's noise around an answer's expected score. Default 1. */
  reviewerNoise?: number;
  /**
   * The score scale: scores are rounded to multiples of `step` (if given) and clamped to [min, max].
   * Rankings follow the unrounded scores (the reviewer's own preference breaks ties). Default: none
   * (continuous, unclamped scores, as in the first version).
   */
  scale?: { min: number; max: number; step?: number };
  /**
   * One shuffle per session that every reviewer sees (ADR-015's shared order) instead of one per reviewer.
   * Without self-review each reviewer sees that order with its own answer left out, positions renumbered
   * from 0. Default false.
   */
  sharedOrder?: boolean;
}

/** The session's length correlation and the answers' quality variance it leaves, checked. */
function qualityVariance(spec: { rho: number; sigma: number; scorers: number }): number {
  const { rho, sigma, scorers } = spec;
  if (!(Math.abs(rho) <= 1)) throw new Error(`a session's length correlation must lie in [−1, 1], got ${rho}`);
  const variance = 1 - rho * rho - (scorers > 0 ? (sigma * sigma) / scorers : 0);
  if (variance < 0) throw new Error('lengthCorrelation and reviewerNoise leave no room for quality variance');
  return variance;
}

/**
 * Simulated councils for the validity study, the validity tests and the benchmark.
 *
 * Per session: answer lengths `chars_c = round(m + sd·L_c)` (L_c ~ N(0, 1), m the session's mean, see
 * `lengthChars`), quality `a_c = ρ_s·L_c + u_c` with Var(u_c) = 1 − ρ_s² − σ²/R_c (R_c = reviewers that score
 * answer c), so an answer's mean score over its reviewers has variance 1 and correlation exactly ρ_s with
 * L_c when nothing else is planted. Reviewer r scores answer c shown at position p:
 *
 *     6 + a_c + σ·ε + position[p] − primacy·p + offset_r + self·[c is r's own] + affinity_{r→c}
 *       + slope·(chars_c − mean chars of the session)/1000 + between·(mean chars of the session − lengthChars.mean)/1000
 *
 * (ε ~ N(0, 1)), then rounded and clamped if `scale` says so, and ranks the answers it saw by the
 * unrounded scores. Every reviewer sees its own random order (or, with `sharedOrder`, the session's one
 * order); reviewers are the first R members, so with `selfReview` (the default) self-votes occur.
 *
 * The truth of each estimand (what a correct cross-session estimator should find):
 * - within-session length slope (points per 1,000 characters): `lengthSlopePer1000Chars + 1000·lengthCorrelation/lengthChars.sd`
 *   (the correlation knob plants ρ points per SD of length); with jitter the per-session slopes differ, their mean is this;
 * - within-session length correlation: `lengthCorrelation` when no other knob adds spread to an answer's
 *   mean score (position effects, offsets without self-review, self-preference, affinity, the slope, rounding
 *   all do; then it is the pooled within-session correlation of lengths and mean scores, computed by simulation);
 * - between-session length association (session mean score on session mean length, points per 1,000
 *   characters): `betweenSessionSlopePer1000Chars`, plus the part of the correlation knob that moves
 *   session means, `1000·ρ/sd · (sd²/C) / (betweenSessionSd² + sd²/C)`;
 * - position effects: `position[p] − primacy·p` minus their mean over the positions a reviewer is shown
 *   (0…C−1 with self-review, 0…C−2 without); primacy and recency are the first and last of these;
 * - reviewer offsets: `offset_r` relative to the median reviewer's offset (one reviewer at −1.2 and four at 0: −1.2 and 0);
 * - self-preference: `self_r` (only with `selfReview`); affinity r→c: `affinity_{r→c}` (0 where none is planted).
 * Clamping to the scale moves these by a negligible amount at the default scores (mean 6 on 1–10, SDs near 1).
 */
export function simulateCouncils(spec: CouncilSimulation): BiasObservation[] {
  const models = spec.models ?? 5;
  const reviewers = spec.reviewers ?? 4;
  const rho = spec.lengthCorrelation ?? 0;
  const jitter = spec.lengthCorrelationJitter ?? 0;
  const sigma = spec.reviewerNoise ?? 1;
  const effects = spec.positionEffects ?? [];
  const primacy = spec.primacyPerPosition ?? 0;
  const selfReview = spec.selfReview ?? true;
  const slope = spec.lengthSlopePer1000Chars ?? 0;
  const betweenSlope = spec.betweenSessionSlopePer1000Chars ?? 0;
  const lengthMean = spec.lengthChars?.mean ?? 1500;
  const lengthSd = spec.lengthChars?.sd ?? 400;
  const sessionLengthSd = spec.lengthChars?.betweenSessionSd ?? 0;
  const offsets = spec.reviewerOffsets ?? [];
  const selfOf = (r: number): number =>
    typeof spec.selfPreference === 'number' ? spec.selfPreference : (spec.selfPreference?.[r] ?? 0);
  const affinity = new Map<number, number>();
  for (const a of spec.affinity ?? [])
    affinity.set(a.reviewer * models + a.candidate, (affinity.get(a.reviewer * models + a.candidate) ?? 0) + a.points);
  const scale = spec.scale;
  const scorersOf = (c: number): number => reviewers - (!selfReview && c < reviewers ? 1 : 0);
  // Checked once up front for every correlation a session can draw.
  for (const r of jitter === 0 ? [rho] : [rho - jitter, rho + jitter]) {
    for (let c = 0; c < models; c++) qualityVariance({ rho: r, sigma, scorers: scorersOf(c) });
  }
  const random = createSeededSfc32(spec.seed);
  const start = Date.UTC(2026, 9, 1);
  const out: BiasObservation[] = [];
  const order = Array.from({ length: models }, (_, i) => i);
  const chars = order.map(() => 0);
  for (let s = 0; s < spec.sessions; s++) {
    const sessionId = `s${spec.seed}-${s}`;
    const timestamp = new Date(start + s * 3_600_000).toISOString();
    // Draws that the first version did not make come first and only when their knob is on, so the
    // stream of an older caller's spec is unchanged.
    const sessionMean = sessionLengthSd > 0 ? lengthMean + sessionLengthSd * random.normal() : lengthMean;
    const rhoS = jitter > 0 ? rho + (random.next() < 0.5 ? -jitter : jitter) : rho;
    const lengths = order.map(() => random.normal());
    const quality = lengths.map(
      (l, c) => rhoS * l + Math.sqrt(qualityVariance({ rho: rhoS, sigma, scorers: scorersOf(c) })) * random.normal(),
    );
    let totalChars = 0;
    lengths.forEach((l, c) => {
      const length = Math.max(1, Math.round(sessionMean + lengthSd * l));
      chars[c] = length;
      totalChars += length;
    });
    const meanChars = totalChars / models;
    const sessionShift = betweenSlope * ((meanChars - lengthMean) / 1000);
    for (let r = 0; r < reviewers; r++) {
      for (let i = models - 1; i > 0 && !(spec.sharedOrder === true && r > 0); i--) {
        const j = random.integer(i + 1);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const shown = selfReview || r >= models ? order : order.filter((c) => c !== r);
      const scores = order.map(() => 0);
      shown.forEach((candidate, position) => {
        scores[candidate] =
          6 +
          quality[candidate]! +
          sigma * random.normal() +
          (effects[position] ?? 0) -
          primacy * position +
          (offsets[r] ?? 0) +
          (candidate === r ? selfOf(r) : 0) +
          (affinity.get(r * models + candidate) ?? 0) +
          slope * ((chars[candidate]! - meanChars) / 1000) +
          sessionShift;
      });
      // Ties (only possible with equal unrounded scores) go to the lower candidate index, as before.
      const ranking = [...shown].sort((a, b) => scores[b]! - scores[a]! || a - b);
      shown.forEach((candidate, position) => {
        let score = scores[candidate]!;
        if (scale !== undefined) {
          if (scale.step !== undefined) score = Math.round(score / scale.step) * scale.step;
          score = Math.min(scale.max, Math.max(scale.min, score));
        }
        out.push({
          sessionId,
          timestamp,
          reviewer: `model-${r}`,
          candidate: `model-${candidate}`,
          position,
          responseLengthChars: chars[candidate]!,
          score,
          rankPosition: ranking.indexOf(candidate),
          configVersion: '1.0.0',
          queryCategory: null,
        });
      });
    }
  }
  return out;
}
