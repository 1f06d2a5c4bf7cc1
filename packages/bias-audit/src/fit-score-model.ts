import type { BiasColumns } from './bias-columns.js';
import type { BiasSessionSummaries } from './bias-session-summary.js';
import { assertBiasSessionSummaries, looksLikeSessionSummaries } from './bias-session-summary.js';
import { affinityFigures } from './internal/affinity-figures.js';
import { assertLevel } from './internal/assert.js';
import { contrastEstimate } from './internal/contrast-estimate.js';
import type { FittedScoreModel } from './internal/contrast-estimate.js';
import { lengthFigures } from './internal/length-figures.js';
import { decomposePairEffects, pairModel } from './internal/pair-effects.js';
import { offsetsWithRobustCentre } from './internal/robust-centre.js';
import type { OffsetCentreDetails } from './internal/robust-centre.js';
import { sandwich } from './internal/sandwich-covariance.js';
import type { ScoreModelSource } from './internal/score-session-stats.js';
import { sourceFromColumns, sourceFromSummaries } from './internal/score-session-stats.js';
import { sumNormalEquations } from './internal/sum-normal-equations.js';
import { sumScoreResiduals } from './internal/sum-score-residuals.js';
import { symmetricPseudoInverse } from './internal/symmetric-pseudo-inverse.js';

/** One figure of the score model: estimate, interval, the t test of "no effect", and what it rests on. */
export interface ScoreModelEstimate {
  estimate: number;
  /** Cluster-robust (by session) standard error. */
  standardError: number;
  /** Degrees of freedom of the t behind the interval and the p-value. */
  df: number;
  lower: number;
  upper: number;
  /** Two-sided p of "the effect is 0", from the same t as the interval. */
  pValue: number;
  /** Scored records (or answers, for length) behind it. */
  sampleSize: number;
  /** Sessions behind it. */
  sessions: number;
}

/** A figure about one reviewer, or one reviewer → author pair. */
export interface ScoreModelEffect extends ScoreModelEstimate {
  /** The model id, or `reviewer→author`. */
  subject: string;
  /** Its weight in the robust centre of the reviewers (1: full; less for a reviewer far from the others); 1 for the rest. */
  weight: number;
}

export interface ScoreModelFit {
  /** Sessions with at least one answer scored by two reviewers or more (they carry within-answer information). */
  sessions: number;
  /** Scored records in answers scored by two reviewers or more. */
  observations: number;
  level: number;
  /** Standard deviation of one score around the model's prediction within its answer (null when nothing is left to estimate it from). */
  residualSd: number | null;
  /**
   * Each reviewer's offset in score points against the typical reviewer (a robust centre of all reviewers'
   * offsets), with the answer and display position held fixed: how much more (or less) this reviewer gives
   * the same answer than the typical reviewer does. One harsh reviewer barely moves anyone else. It is a robust
   * location of the reviewer's pair effects over its authors, so an affinity for one author of several (fewer
   * than half of them) does not move it.
   */
  reviewerOffsets: ScoreModelEffect[];
  /**
   * Per reviewer that scored its own answer: the points it adds to it beyond its offset and the answer's level as
   * the other reviewers see it (subject: the reviewer).
   */
  selfPreference: ScoreModelEffect[];
  /**
   * Each reviewer → author pair's effect beyond its author's level (as the other reviewers see it) and its
   * reviewer's offset, in points, position and self-preference held fixed: 0 when only those effects exist, the
   * planted points of a pair's own affinity otherwise (not shared with the reviewer's offset).
   */
  affinity: ScoreModelEffect[];
  /** Points per 1,000 characters between the answers of one session (session held fixed), from the answers' adjusted levels. */
  lengthSlope: ScoreModelEstimate | null;
  /**
   * The within-session correlation of answer length and adjusted level (pooled over sessions), its interval by
   * the delta method clustered by session on Fisher's z scale, with the slope's degrees of freedom.
   */
  lengthCorrelation: ScoreModelEstimate | null;
  /** Points per 1,000 characters between sessions (session means): an association, not a bias of the reviewers. */
  betweenSessionLengthSlope: ScoreModelEstimate | null;
}

export interface FitScoreModelOptions {
  /** Confidence level of every interval. Default 0.95. */
  level?: number;
  /**
   * Read the length figures from the answers' levels adjusted for reviewer and self-preference only, not for display
   * position. For orders that do not identify position (sorted by length: `lengthTiedToPosition`): β̂'s position
   * effects then rest on a tenth of position's variation, and their error, shared by every session and following
   * length order, made the slope's session-clustered interval too narrow (79% coverage at 20 sessions). The slope
   * then assumes display position has no effect of its own (one would read as length). Default false.
   */
  lengthWithoutPosition?: boolean;
}

/**
 * The cross-session score model, fitted from per-session sums (`ScoreSessionSummary`: the map) that it adds
 * up (the reduce: one pass to fit, one for the cluster-robust errors and residuals). `input` is a store's
 * columns (their sums are formed on the fly, kept between its two passes up to a memory budget) or published summaries, e.g. several
 * stores' merged by `mergeBiasSessionSummaries` (their `score` parts): the fit is the same as over their records together. Within an answer a reviewer's score is the answer's own level plus the reviewer's
 * offset, the display position's effect and, on its own answer, the reviewer's self-preference; the answer's
 * level is absorbed (within-answer demeaning), so the answer's quality and length cancel exactly. Each reviewer →
 * author pair's effect (its mean score less position, self-preference and its answers' levels) is then split by a
 * robust two-way fit into author level + reviewer offset + affinity (`decomposePairEffects`): a pair far from the
 * rest weighs nothing in its reviewer's offset or its author's level. Offsets, affinities and self-preference are
 * contrasts over β̂ and the pairs' mean residuals, their errors from the sessions' influence; length is read
 * between the answers of a session from their adjusted levels. Standard errors are clustered by session (CR1,
 * t on the sessions a figure appears in, less one; the length slope CR2 with Bell–McCaffrey's df).
 */
export function fitScoreModel(
  input: BiasColumns | BiasSessionSummaries,
  options: FitScoreModelOptions = {},
): ScoreModelFit {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const lengthWithoutPosition = options.lengthWithoutPosition ?? false;
  if (!looksLikeSessionSummaries(input))
    return fitFromSource(sourceFromColumns(input as BiasColumns), level, lengthWithoutPosition).fit;
  assertBiasSessionSummaries(input);
  return fitCheckedSummaries(input, level, lengthWithoutPosition);
}

/**
 * Internal (not in the package's API): `fitScoreModel` over a store's columns, and what the reviewers' robust centre
 * was computed from (`OffsetCentreDetails`; null with fewer than two reviewers), for `poolReviewerEffects` to redraw
 * the centre. The fit is the same object `fitScoreModel` returns, number for number.
 */
export function fitScoreModelWithCentre(
  input: BiasColumns,
  options: FitScoreModelOptions = {},
): { fit: ScoreModelFit; centre: OffsetCentreDetails | null } {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  return fitFromSource(sourceFromColumns(input), level, options.lengthWithoutPosition ?? false);
}

/** `fitScoreModel` over summaries already checked by `assertBiasSessionSummaries` (the report checks them once). */
export function fitCheckedSummaries(
  summaries: BiasSessionSummaries,
  level: number,
  lengthWithoutPosition = false,
): ScoreModelFit {
  return fitFromSource(sourceFromSummaries(summaries), level, lengthWithoutPosition).fit;
}

/**
 * The reduce: pass 1 sums X̃'X̃ and X̃'ỹ over sessions (`sumNormalEquations`), β̂ solves them; pass 2 forms each
 * session's score X̃_s'ẽ_s = X̃_s'ỹ_s − X̃_s'X̃_s β̂ (`sumScoreResiduals`); the figures are read from both.
 */
function fitFromSource(
  source: ScoreModelSource,
  level: number,
  lengthWithoutPosition: boolean,
): { fit: ScoreModelFit; centre: OffsetCentreDetails | null } {
  const { layout, models: names } = source;
  const { k } = layout;
  const { xtx, xty, columnRecords, columnSessions, pairDesign, pairRecords, pairDeviation, observations, answers } =
    sumNormalEquations(source);
  const { inverse, range, rank } = symmetricPseudoInverse(xtx, k);
  const beta = new Float64Array(k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) beta[a]! += inverse[a * k + b]! * xty[b]!;

  const { meat, pairs, length, between, informativeSessions, residualSquares, totalSquares } = sumScoreResiduals(
    source,
    { beta, pairDesign, pairRecords, pairDeviation },
    { lengthWithoutPosition },
  );
  const S = informativeSessions;
  const correction = S > 1 ? S / (S - 1) : Number.NaN;
  const covariance = sandwich({ inverse, meat, k, correction });
  const residualDf = observations - answers - rank;
  // Residuals within rounding of the scores' own spread are an exact fit (SD 0), not a tiny SD that blows z up.
  const exact = residualSquares <= 1e-10 * totalSquares;
  const residualSd = residualDf > 0 ? (exact ? 0 : Math.sqrt(residualSquares / residualDf)) : null;

  const model: FittedScoreModel = { k, beta, range, covariance, sessions: S, level };
  const countsOf = (column: number): { sampleSize: number; sessions: number } => ({
    sampleSize: columnRecords[column]!,
    sessions: columnSessions[column]!,
  });
  // Each reviewer → author pair's effect, split robustly into author level, reviewer offset and affinity.
  const pairEffects = pairModel({ base: model, inverse, meat, pairs });
  const table = decomposePairEffects({ layout, models: names.length, model: pairEffects });
  const theta = pairEffects.model;
  const estimateOfContrast = (contrast: Float64Array): number => {
    let total = 0;
    for (let a = 0; a < theta.k; a++) total += contrast[a]! * theta.beta[a]!;
    return total;
  };
  const { offsets: reviewerOffsets, centre } = offsetsWithRobustCentre({
    // Only reviewers with within-answer information on another member's answer: one whose answers no one else
    // scored has no offset to compare.
    members: layout.reviewerModels
      .filter((m) => columnRecords[layout.reviewerColumn[m]!]! > 0 && table.offset.has(m))
      .map((m) => {
        const contrast = table.offset.get(m)!;
        return {
          column: layout.reviewerColumn[m]!,
          contrast,
          estimate: estimateOfContrast(contrast),
          subject: names[m]!,
        };
      }),
    covariance: theta.covariance,
    k: theta.k,
    estimateOf: (contrast, member) => contrastEstimate(contrast, countsOf(member.column), theta),
  });
  const selfPreference: ScoreModelEffect[] = [];
  for (const m of layout.selfModels) {
    const column = layout.selfColumn[m]!;
    const contrast = new Float64Array(theta.k);
    contrast[column] = 1;
    const offset = table.offset.get(m);
    const level = table.level.get(m);
    if (offset !== undefined && level !== undefined) {
      // Its own answer's pair effect (β̂_r + β̂_self: the self records' residuals sum to 0) less its answer's level
      // and its offset, both from the table.
      contrast[layout.reviewerColumn[m]!]! += 1;
      for (let a = 0; a < theta.k; a++) contrast[a]! -= offset[a]! + level[a]!;
    }
    const fit = contrastEstimate(contrast, countsOf(column), theta);
    if (fit !== null) selfPreference.push({ subject: names[m]!, weight: 1, ...fit });
  }
  const affinity = affinityFigures({ pairModel: pairEffects, decomposition: table, models: names });

  const fit: ScoreModelFit = {
    sessions: S,
    observations,
    level,
    residualSd,
    reviewerOffsets,
    selfPreference,
    affinity,
    ...lengthFigures({ length, between, level }),
  };
  return { fit, centre };
}
