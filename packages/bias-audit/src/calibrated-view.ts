import type { BiasColumns } from './bias-columns.js';
import type { BiasObservation } from './bias-observation.js';
import { BiasAuditError } from './bias-audit-error.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';
import { assertLevel } from './internal/assert.js';
import { bootstrapInterval } from './internal/bootstrap-interval.js';
import { symmetricPseudoInverse } from './internal/symmetric-pseudo-inverse.js';
import { observationsToColumns } from './observations-to-columns.js';

/** Most resampling units: beyond this many sessions, contiguous groups of sessions are resampled. */
const MAX_UNITS = 4000;

/** The sentence every calibrated output carries (ADR-018: reviewer profiles never feed back into live votes). */
export const CALIBRATED_VIEW_NOTE = 'analytics only: live votes are unchanged';

export interface CalibratedViewOptions {
  /** Confidence level of every interval. Default 0.95. */
  level?: number;
  /** Bootstrap replicates (sessions resampled with replacement). Default 1000; 0 gives no intervals. */
  resamples?: number;
  /** Seed of the resampling. Default 1. */
  seed?: number;
  /** Also list each session's raw and calibrated answer levels (`sessionScores`). Default false. */
  sessionScores?: boolean;
}

/** An estimate with its bootstrap interval (null bounds when not computable: too few sessions, or `resamples: 0`). */
export interface CalibratedFigure {
  estimate: number;
  lower: number | null;
  upper: number | null;
}

export interface CalibratedLeaderboardEntry {
  model: string;
  /** Answers of this model scored by another member (self-reviews never count). */
  answers: number;
  /** Mean over its answers of the answer's mean score, as given. */
  raw: CalibratedFigure;
  /** The same with each score's reviewer offset and display-position effect taken out. */
  calibrated: CalibratedFigure;
  /** Competition rank by the raw level (1 = best). */
  rawRank: number;
  /** Competition rank by the calibrated level. */
  calibratedRank: number;
}

/** How far apart two models are: `model` less `other`, raw and calibrated. */
export interface CalibratedDifference {
  model: string;
  other: string;
  raw: CalibratedFigure;
  calibrated: CalibratedFigure;
}

export interface CalibratedSessionScore {
  sessionId: string;
  model: string;
  raw: number;
  calibrated: number;
}

export interface CalibratedView {
  note: typeof CALIBRATED_VIEW_NOTE;
  level: number;
  resamples: number;
  /** Sessions with at least one score of one member's answer by another. */
  sessions: number;
  /** Scores used (self-reviews and unscored records left out). */
  observations: number;
  /**
   * False when the reviewers fall into groups that never scored the same answer: their offsets cannot be put on one
   * scale, and the calibrated figures are left at the raw ones.
   */
  identified: boolean;
  /** Each reviewer's offset in score points from the median reviewer, the answer and position held fixed. */
  reviewerOffsets: (CalibratedFigure & { reviewer: string; scores: number })[];
  /** Points at each display position against the average position (weighted by scores shown there). */
  positionEffects: (CalibratedFigure & { position: number; scores: number })[];
  /** Models by calibrated level, best first. */
  leaderboard: CalibratedLeaderboardEntry[];
  /** Every pair of models, in leaderboard order (`model` above `other`). */
  differences: CalibratedDifference[];
  sessionScores?: CalibratedSessionScore[];
}

/**
 * The calibrated view of ADR-018 Phase 3: a leaderboard of the models by the scores they received, beside the raw
 * one, with each score's reviewer offset and display-position effect taken out. The offsets and position effects are
 * fitted within answers (every score of an answer compared with the other scores of the same answer, so the
 * answer's quality cancels): score = answer level + reviewer offset + position effect + noise, by least squares. A
 * model's level is the mean over its answers of the answer's mean score (raw) or of its scores less their reviewer's
 * offset and position's effect (calibrated); self-reviews are left out of both. A harsh reviewer who happens to
 * review only the best models pulls their raw level down; the calibrated level is what the median reviewer would
 * have given, so only a common constant remains and the differences between models are read without it.
 *
 * Intervals: percentile bootstrap over sessions (each replicate refits the offsets and position effects; beyond 4,000
 * sessions, over 4,000 contiguous groups of them, as independent as the sessions), widened for few sessions as the report's other bootstrap intervals are (Hesterberg's expanded percentile). Analytics only
 * (`note`): nothing here feeds back into a live vote.
 */
export function calibratedView(
  input: BiasColumns | readonly BiasObservation[],
  options: CalibratedViewOptions = {},
): CalibratedView {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const resamples = options.resamples ?? 1000;
  if (!Number.isInteger(resamples) || resamples < 0)
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `resamples must be a whole number ≥ 0, got ${resamples}.`,
    });
  const columns: BiasColumns = Array.isArray(input)
    ? observationsToColumns(input as readonly BiasObservation[])
    : (input as BiasColumns);
  const { models } = columns;
  const M = models.length;
  const S = columns.sessionIds.length;
  const { score, reviewer, candidate, position, sessionStart } = columns;
  const used = (i: number): boolean => !Number.isNaN(score[i]!) && reviewer[i] !== candidate[i];

  // Columns: one per reviewer that scored another's answer (name order), one per display position shown.
  const reviewerColumn = new Int32Array(M).fill(-1);
  const positionCounts = new Map<number, number>();
  const reviewerCounts = new Float64Array(M);
  let observations = 0;
  for (let i = 0; i < columns.length; i++) {
    if (!used(i)) continue;
    observations++;
    reviewerCounts[reviewer[i]!]!++;
    positionCounts.set(position[i]!, (positionCounts.get(position[i]!) ?? 0) + 1);
  }
  const reviewerModels = Array.from({ length: M }, (_, m) => m)
    .filter((m) => reviewerCounts[m]! > 0)
    .sort((a, b) => (models[a]! < models[b]! ? -1 : models[a]! > models[b]! ? 1 : 0));
  reviewerModels.forEach((m, c) => (reviewerColumn[m] = c));
  const positions = [...positionCounts.keys()].sort((a, b) => a - b);
  const positionColumn = new Map(positions.map((p, c) => [p, reviewerModels.length + c]));
  const k = reviewerModels.length + positions.length;
  const positionWeights = positions.map((p) => positionCounts.get(p)! / Math.max(1, observations));

  // The map: each session's sums, added into resampling units. Sessions are independent, so contiguous groups of
  // them are too: beyond MAX_UNITS sessions, MAX_UNITS groups are resampled instead (memory k² a unit, not a session).
  let sessions = 0;
  for (let s = 0; s < S; s++) {
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) {
      if (used(i)) {
        sessions++;
        break;
      }
    }
  }
  const units = Math.min(sessions, MAX_UNITS);
  // Per resampling unit (a session, or a group of them), the sums a fit and the levels need, one flat array each
  // (unit-major): X̃'X̃ (k × k), X̃'ỹ (k), and per model its answers, Σ answer mean and Σ answer mean design row (k).
  const k2 = k * k;
  const xtxOf = new Float64Array(units * k2);
  const xtyOf = new Float64Array(units * k);
  const answersOf = new Float64Array(units * M);
  const rawOf = new Float64Array(units * M);
  const designOf = new Float64Array(units * M * k);
  const answerRows: { session: number; model: number; meanY: number; meanRow: Float64Array }[] = [];
  const row = new Float64Array(k);
  let informative = 0;
  for (let s = 0; s < S; s++) {
    const start = sessionStart[s]!;
    const end = sessionStart[s + 1]!;
    const byModel = new Map<number, number[]>();
    for (let i = start; i < end; i++) {
      if (!used(i)) continue;
      const list = byModel.get(candidate[i]!);
      if (list === undefined) byModel.set(candidate[i]!, [i]);
      else list.push(i);
    }
    if (byModel.size === 0) continue;
    const unit = Math.floor((informative++ * units) / sessions);
    for (const [model, records] of byModel) {
      const n = records.length;
      const meanRow = new Float64Array(k);
      let meanY = 0;
      for (const i of records) {
        meanRow[reviewerColumn[reviewer[i]!]!]! += 1 / n;
        meanRow[positionColumn.get(position[i]!)!]! += 1 / n;
        meanY += score[i]! / n;
      }
      // X̃'X̃ and X̃'ỹ of the answer, demeaned within it.
      for (const i of records) {
        row.set(meanRow);
        for (let a = 0; a < k; a++) row[a] = -row[a]!;
        row[reviewerColumn[reviewer[i]!]!]! += 1;
        row[positionColumn.get(position[i]!)!]! += 1;
        const y = score[i]! - meanY;
        for (let a = 0; a < k; a++) {
          const ra = row[a]!;
          if (ra === 0) continue;
          xtyOf[unit * k + a]! += ra * y;
          for (let b = 0; b < k; b++) xtxOf[unit * k2 + a * k + b]! += ra * row[b]!;
        }
      }
      answersOf[unit * M + model]! += 1;
      rawOf[unit * M + model]! += meanY;
      for (let a = 0; a < k; a++) designOf[(unit * M + model) * k + a]! += meanRow[a]!;
      if (options.sessionScores === true) answerRows.push({ session: s, model, meanY, meanRow });
    }
  }
  const R = reviewerModels.length;
  // Answer fixed effects make the reviewer block and the position block each free to shift by a constant.
  const expectedRank = k - (R > 0 ? 1 : 0) - (positions.length > 0 ? 1 : 0);

  // Scratch arrays reused by every replicate (a replicate's garbage was a fifth of the time at 1,000 sessions).
  const fitBuffers = { xtx: new Float64Array(k * k), xty: new Float64Array(k) };
  const levelBuffers = { n: new Float64Array(M), raw: new Float64Array(M), design: new Float64Array(M * k) };

  /** The reduce for one set of session weights: the centred coefficients, or null where not identified. */
  const fit = (weights: Float64Array | null): Float64Array | null => {
    const xtx = fitBuffers.xtx.fill(0);
    const xty = fitBuffers.xty.fill(0);
    for (let u = 0; u < units; u++) {
      const w = weights === null ? 1 : weights[u]!;
      if (w === 0) continue;
      const base = u * k2;
      for (let a = 0; a < k2; a++) xtx[a]! += w * xtxOf[base + a]!;
      for (let a = 0; a < k; a++) xty[a]! += w * xtyOf[u * k + a]!;
    }
    const { inverse, rank } = symmetricPseudoInverse(xtx, k);
    if (rank < expectedRank) return null;
    const beta = new Float64Array(k);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) beta[a]! += inverse[a * k + b]! * xty[b]!;
    // Offsets from the median reviewer; position effects from their mean over the scores shown at each.
    const sorted = Array.from(beta.subarray(0, R)).sort((a, b) => a - b);
    const median = R === 0 ? 0 : R % 2 === 1 ? sorted[(R - 1) / 2]! : (sorted[R / 2 - 1]! + sorted[R / 2]!) / 2;
    for (let a = 0; a < R; a++) beta[a]! -= median;
    let positionMean = 0;
    positions.forEach((_, c) => (positionMean += positionWeights[c]! * beta[R + c]!));
    positions.forEach((_, c) => (beta[R + c]! -= positionMean));
    return beta;
  };

  /** Per model: [raw level, calibrated level], NaN where the model has no answer in the sample. */
  const levels = (beta: Float64Array | null, weights: Float64Array | null): Float64Array => {
    // Σ_u w_u (raw − design·β) = Σ_u w_u raw − (Σ_u w_u design)·β: the design rows are added up first.
    const n = levelBuffers.n.fill(0);
    const raw = levelBuffers.raw.fill(0);
    const design = levelBuffers.design.fill(0);
    for (let u = 0; u < units; u++) {
      const w = weights === null ? 1 : weights[u]!;
      if (w === 0) continue;
      for (let m = 0; m < M; m++) {
        const cell = u * M + m;
        if (answersOf[cell] === 0) continue;
        n[m]! += w * answersOf[cell]!;
        raw[m]! += w * rawOf[cell]!;
        for (let a = 0; a < k; a++) design[m * k + a]! += w * designOf[cell * k + a]!;
      }
    }
    const out = new Float64Array(2 * M);
    for (let m = 0; m < M; m++) {
      let adjustment = 0;
      if (beta !== null) for (let a = 0; a < k; a++) adjustment += design[m * k + a]! * beta[a]!;
      out[2 * m] = n[m]! > 0 ? raw[m]! / n[m]! : Number.NaN;
      out[2 * m + 1] = n[m]! > 0 ? (raw[m]! - adjustment) / n[m]! : Number.NaN;
    }
    return out;
  };

  const beta = fit(null);
  const identified = beta !== null;
  const full = levels(beta, null);
  const scored = Array.from({ length: M }, (_, m) => m).filter((m) => !Number.isNaN(full[2 * m]!));

  // The bootstrap: every figure's replicates, from one resample of sessions each.
  const B = units >= 2 ? resamples : 0;
  const betaReplicates = Array.from({ length: k }, () => new Float64Array(B));
  const levelReplicates = Array.from({ length: 2 * M }, () => new Float64Array(B));
  const random = createSeededSfc32(options.seed ?? 1);
  const weights = new Float64Array(units);
  for (let b = 0; b < B; b++) {
    weights.fill(0);
    for (let j = 0; j < units; j++) weights[random.integer(units)]! += 1;
    const replicate = identified ? fit(weights) : null;
    const replicateLevels = levels(replicate, weights);
    for (let a = 0; a < k; a++) betaReplicates[a]![b] = replicate === null ? Number.NaN : replicate[a]!;
    for (let a = 0; a < 2 * M; a++)
      levelReplicates[a]![b] = identified && replicate === null ? Number.NaN : replicateLevels[a]!;
  }
  const figureOf = (estimate: number, replicates: Float64Array): CalibratedFigure => {
    if (B === 0) return { estimate, lower: null, upper: null };
    const interval = bootstrapInterval({
      estimate,
      replicates,
      level,
      method: 'percentile',
      expansionSampleSize: units,
    });
    return interval.computable
      ? { estimate, lower: interval.lower, upper: interval.upper }
      : { estimate, lower: null, upper: null };
  };
  const difference = (m: number, o: number, which: 0 | 1): CalibratedFigure => {
    const replicates = new Float64Array(B);
    for (let b = 0; b < B; b++)
      replicates[b] = levelReplicates[2 * m + which]![b]! - levelReplicates[2 * o + which]![b]!;
    return figureOf(full[2 * m + which]! - full[2 * o + which]!, replicates);
  };

  const ranks = (which: 0 | 1): Map<number, number> => {
    const byLevel = [...scored].sort((a, b) => full[2 * b + which]! - full[2 * a + which]!);
    const rank = new Map<number, number>();
    byLevel.forEach((m, i) => {
      const previous = byLevel[i - 1];
      rank.set(
        m,
        previous !== undefined && Math.abs(full[2 * previous + which]! - full[2 * m + which]!) < 1e-9
          ? rank.get(previous)!
          : i + 1,
      );
    });
    return rank;
  };
  const rawRanks = ranks(0);
  const calibratedRanks = ranks(1);
  const order = [...scored].sort(
    (a, b) =>
      calibratedRanks.get(a)! - calibratedRanks.get(b)! ||
      (models[a]! < models[b]! ? -1 : models[a]! > models[b]! ? 1 : 0),
  );
  const leaderboard: CalibratedLeaderboardEntry[] = order.map((m) => {
    let answers = 0;
    for (let u = 0; u < units; u++) answers += answersOf[u * M + m]!;
    return {
      model: models[m]!,
      answers,
      raw: figureOf(full[2 * m]!, levelReplicates[2 * m]!),
      calibrated: figureOf(full[2 * m + 1]!, levelReplicates[2 * m + 1]!),
      rawRank: rawRanks.get(m)!,
      calibratedRank: calibratedRanks.get(m)!,
    };
  });
  const differences: CalibratedDifference[] = [];
  order.forEach((m, i) => {
    for (const o of order.slice(i + 1))
      differences.push({
        model: models[m]!,
        other: models[o]!,
        raw: difference(m, o, 0),
        calibrated: difference(m, o, 1),
      });
  });
  const view: CalibratedView = {
    note: CALIBRATED_VIEW_NOTE,
    level,
    resamples: B,
    sessions,
    observations,
    identified,
    reviewerOffsets:
      beta === null
        ? []
        : reviewerModels.map((m, c) => ({
            reviewer: models[m]!,
            scores: reviewerCounts[m]!,
            ...figureOf(beta[c]!, betaReplicates[c]!),
          })),
    positionEffects:
      beta === null
        ? []
        : positions.map((p, c) => ({
            position: p,
            scores: positionCounts.get(p)!,
            ...figureOf(beta[R + c]!, betaReplicates[R + c]!),
          })),
    leaderboard,
    differences,
  };
  if (options.sessionScores === true) {
    view.sessionScores = answerRows.map(({ session, model, meanY, meanRow }) => {
      let adjustment = 0;
      if (beta !== null) for (let a = 0; a < k; a++) adjustment += meanRow[a]! * beta[a]!;
      return {
        sessionId: columns.sessionIds[session]!,
        model: models[model]!,
        raw: meanY,
        calibrated: meanY - adjustment,
      };
    });
  }
  return view;
}
