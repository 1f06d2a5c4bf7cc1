import type { BiasObservation } from '../bias-observation.js';
import { createSeededSfc32 } from '../create-seeded-sfc32.js';
import type { SeededRandom } from '../create-seeded-sfc32.js';
import type { StudySimulation } from './study-simulation.js';

/** How each reviewer's display order is made in a session. */
export type MessyOrder =
  /** Every reviewer its own shuffle (ADR-017's default). */
  | 'random'
  /** One shuffle per session that every reviewer sees (ADR-015's shared order). */
  | 'shared'
  /** Always by author index (a client that never shuffles): an author is shown at the same place every time. */
  | 'by-author'
  /** Longest answer first (a client that sorts by length). */
  | 'by-length';

/**
 * A council shaped like a real one (issue 29): the knobs of `StudySimulation` that a messy council keeps
 * (members, reviewers, noise, lengths, the length slope, position effects, offsets, affinities, the scale),
 * and the ways real councils differ from the tidy one of issue 13. Every extra knob left out means the
 * tidy council. Self-review is off unless `selfReview` says so; `sharedOrder`, `lengthCorrelation`,
 * its jitter, the between-session length knobs and self-preference are not modelled here (use `order`).
 */
export interface MessyCouncil extends StudySimulation {
  /** Display orders. Default `random`. */
  order?: MessyOrder;
  /**
   * Members per session, uniform in [min, max], drawn from the `models` members (a council whose
   * membership varies); each attending member answers, and each attending reviewer reviews the others.
   * Default: every member every session.
   */
  attendance?: { min: number; max: number };
  /** Chance that a reviewer leaves one answer unreviewed (no score, no rank). Default 0. */
  missingReviewRate?: number;
  /** Points added to every answer of author c (index = author): authors that differ in quality. Default none. */
  authorQuality?: readonly number[];
  /**
   * Student t noise with this many degrees of freedom (> 2), scaled to standard deviation `reviewerNoise`
   * (heavy tails; 3 in issue 29). Default: normal noise.
   */
  noiseDf?: number;
  /**
   * How a reviewer's ranking breaks ties: `unrounded` (default) ranks by the score before rounding, as
   * `simulateCouncils` does; `by-position` ranks by the rounded score and gives a tie to the answer shown
   * first (a reviewer that ranks from its integer scores).
   */
  rankTies?: 'unrounded' | 'by-position';
  /**
   * A judge that changes: from session `floor(atFraction · sessions)` on, reviewer `reviewer` adds
   * `points` more to every score; with `configVersion`, every record from that session on carries that
   * config version (the change came with a config change), otherwise all carry `1.0.0`.
   */
  drift?: { reviewer: number; points: number; atFraction: number; configVersion?: string };
  /** Reviewers that rank without scoring (their records carry `score: null`). Default none. */
  rankOnly?: readonly number[];
}

/** A standard Student t variate with `df` degrees of freedom (df a positive integer: a normal over √(χ²_df / df)). */
function studentT(random: SeededRandom, df: number): number {
  let chiSquare = 0;
  for (let i = 0; i < df; i++) chiSquare += random.normal() ** 2;
  return random.normal() / Math.sqrt(chiSquare / df);
}

/**
 * Simulated messy councils for issue 29's validity study: our own generator beside `simulateCouncils`
 * (which the issue 13 study and the benchmarks keep using unchanged).
 *
 * Per session s: the attending members (all, or a uniform number in `attendance` of them, chosen at
 * random); answer lengths `round(mean + sd·L_c)` (L_c ~ N(0, 1), at least 1); quality
 * `a_c = authorQuality_c + u_c` with Var(u_c) = max(0, 1 − σ²/R) (R = the reviewers of the session that
 * score answer c), so that with nothing else planted an answer's mean score has variance 1, as in
 * `simulateCouncils`. Reviewer r scores the answer of author c shown at position p:
 *
 *     6 + a_c + σ·ε + position[p] − primacy·p + offset_r + drift_r(s) + affinity_{r→c} + slope·(chars_c − session mean)/1000
 *
 * with ε standard normal or a standardised t (`noiseDf`), `drift_r(s)` the drift's points from its session
 * on; rounded and clamped if `scale` says so. Each review is left out with chance `missingReviewRate`.
 * Positions count only the answers the reviewer is shown (its own left out without self-review), from 0.
 * Ranks (0 = best) order the answers the reviewer scored, by the rule of `rankTies`; rank-only reviewers
 * keep the rank and report no score.
 */
export function simulateMessyCouncils(spec: MessyCouncil & { sessions: number; seed: number }): BiasObservation[] {
  const models = spec.models ?? 5;
  const reviewers = Math.min(spec.reviewers ?? models, models);
  const sigma = spec.reviewerNoise ?? 1;
  const selfReview = spec.selfReview ?? false;
  const lengthMean = spec.lengthChars?.mean ?? 1500;
  const lengthSd = spec.lengthChars?.sd ?? 400;
  const slope = spec.lengthSlopePer1000Chars ?? 0;
  const effects = spec.positionEffects ?? [];
  const primacy = spec.primacyPerPosition ?? 0;
  const order = spec.order ?? 'random';
  const missing = spec.missingReviewRate ?? 0;
  const df = spec.noiseDf;
  if (df !== undefined && !(Number.isInteger(df) && df > 2))
    throw new Error(`noiseDf must be an integer above 2, got ${df}`);
  const tScale = df === undefined ? 1 : Math.sqrt((df - 2) / df);
  const rankOnly = new Set(spec.rankOnly ?? []);
  const affinity = new Map<number, number>();
  for (const a of spec.affinity ?? [])
    affinity.set(a.reviewer * models + a.candidate, (affinity.get(a.reviewer * models + a.candidate) ?? 0) + a.points);
  const driftFrom =
    spec.drift === undefined ? Number.POSITIVE_INFINITY : Math.floor(spec.drift.atFraction * spec.sessions);
  const scale = spec.scale;
  const random = createSeededSfc32(spec.seed);
  const start = Date.UTC(2026, 9, 1);
  const out: BiasObservation[] = [];
  const everyone = Array.from({ length: models }, (_, i) => i);
  for (let s = 0; s < spec.sessions; s++) {
    const sessionId = `m${spec.seed}-${s}`;
    const timestamp = new Date(start + s * 3_600_000).toISOString();
    const configVersion =
      s >= driftFrom && spec.drift?.configVersion !== undefined ? spec.drift.configVersion : '1.0.0';
    let members = everyone;
    if (spec.attendance !== undefined) {
      const { min, max } = spec.attendance;
      const size = min + random.integer(max - min + 1);
      const pool = [...everyone];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = random.integer(i + 1);
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      }
      members = pool.slice(0, size).sort((a, b) => a - b);
    }
    const sessionReviewers = members.filter((m) => m < reviewers);
    const chars = new Map<number, number>();
    const quality = new Map<number, number>();
    let totalChars = 0;
    for (const c of members) {
      const length = Math.max(1, Math.round(lengthMean + lengthSd * random.normal()));
      chars.set(c, length);
      totalChars += length;
      const scorers = sessionReviewers.length - (!selfReview && c < reviewers ? 1 : 0);
      const variance = Math.max(0, 1 - (scorers > 0 ? (sigma * sigma) / scorers : 0));
      quality.set(c, (spec.authorQuality?.[c] ?? 0) + Math.sqrt(variance) * random.normal());
    }
    const meanChars = totalChars / members.length;
    const shuffled = (): number[] => {
      const a = [...members];
      for (let i = a.length - 1; i > 0; i--) {
        const j = random.integer(i + 1);
        [a[i], a[j]] = [a[j]!, a[i]!];
      }
      return a;
    };
    const sessionOrder =
      order === 'shared'
        ? shuffled()
        : order === 'by-length'
          ? [...members].sort((a, b) => chars.get(b)! - chars.get(a)! || a - b)
          : [...members];
    for (const r of sessionReviewers) {
      const seen = order === 'random' ? shuffled() : sessionOrder;
      const shown = selfReview ? seen : seen.filter((c) => c !== r);
      const offset =
        (spec.reviewerOffsets?.[r] ?? 0) + (s >= driftFrom && spec.drift?.reviewer === r ? spec.drift.points : 0);
      const reviews: { candidate: number; position: number; raw: number; score: number }[] = [];
      shown.forEach((candidate, position) => {
        const noise = df === undefined ? random.normal() : tScale * studentT(random, df);
        const raw =
          6 +
          quality.get(candidate)! +
          sigma * noise +
          (effects[position] ?? 0) -
          primacy * position +
          offset +
          (affinity.get(r * models + candidate) ?? 0) +
          slope * ((chars.get(candidate)! - meanChars) / 1000);
        // Drawn for every answer (so the stream does not depend on which reviews go missing).
        const dropped = missing > 0 && random.next() < missing;
        if (dropped) return;
        let score = raw;
        if (scale !== undefined) {
          if (scale.step !== undefined) score = Math.round(score / scale.step) * scale.step;
          score = Math.min(scale.max, Math.max(scale.min, score));
        }
        reviews.push({ candidate, position, raw, score });
      });
      const ranking =
        spec.rankTies === 'by-position'
          ? [...reviews].sort((a, b) => b.score - a.score || a.position - b.position)
          : [...reviews].sort((a, b) => b.raw - a.raw || a.candidate - b.candidate);
      for (const review of reviews) {
        out.push({
          sessionId,
          timestamp,
          reviewer: `model-${r}`,
          candidate: `model-${review.candidate}`,
          position: review.position,
          responseLengthChars: chars.get(review.candidate)!,
          score: rankOnly.has(r) ? null : review.score,
          rankPosition: ranking.indexOf(review),
          configVersion,
          queryCategory: null,
        });
      }
    }
  }
  return out;
}
