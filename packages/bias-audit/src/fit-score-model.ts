import type { BiasColumns } from './bias-columns.js';
import { assertLevel } from './internal/assert.js';
import { affinityFigures } from './internal/affinity-figures.js';
import type { PairSums } from './internal/affinity-figures.js';
import { addLengthSession, lengthFigures } from './internal/length-figures.js';
import type { BetweenSums, LengthSums } from './internal/length-figures.js';
import { offsetsFromRobustCentre } from './internal/robust-centre.js';
import { quadraticForm, sandwich } from './internal/sandwich-covariance.js';
import type { ScoreModelSource } from './internal/score-session-stats.js';
import { sourceFromColumns, sourceFromSummaries } from './internal/score-session-stats.js';
import type { BiasSessionSummaries } from './bias-session-summary.js';
import { assertBiasSessionSummaries, looksLikeSessionSummaries } from './bias-session-summary.js';
import { symmetricPseudoInverse } from './internal/symmetric-pseudo-inverse.js';
import { tEstimate } from './internal/t-estimate.js';
import { criticalT } from './internal/t-summary.js';

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
   * the same answer than the typical reviewer does. One harsh reviewer barely moves anyone else.
   */
  reviewerOffsets: ScoreModelEffect[];
  /** Per reviewer that scored its own answer: the points it adds to it beyond its offset (subject: the reviewer). */
  selfPreference: ScoreModelEffect[];
  /**
   * Each reviewer → author pair's mean residual in points once answer, reviewer offset, position and
   * self-preference are accounted for: exactly 0 in expectation when only those effects exist.
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
}

/**
 * The cross-session score model, fitted from per-session sums (`ScoreSessionSummary`: the map) that it adds
 * up (the reduce: one pass to fit, one for the cluster-robust errors and residuals). `input` is a store's
 * columns (their sums are formed on the fly, kept between its two passes up to a memory budget) or published summaries, e.g. several
 * stores' merged by `mergeBiasSessionSummaries` (their `score` parts): the fit is the same as over their records together. Within an answer a reviewer's score is the answer's own level plus the reviewer's
 * offset, the display position's effect and, on its own answer, the reviewer's self-preference; the answer's
 * level is absorbed (within-answer demeaning), so the answer's quality and length cancel exactly. Affinity is
 * the residual reviewer → author interaction, its error including the fitted offsets' own; length is read
 * between the answers of a session from their adjusted levels. Standard errors are clustered by session (CR1,
 * t on the sessions a figure appears in, less one; the length slope CR2 with Bell–McCaffrey's df).
 */
export function fitScoreModel(
  input: BiasColumns | BiasSessionSummaries,
  options: FitScoreModelOptions = {},
): ScoreModelFit {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  if (!looksLikeSessionSummaries(input)) return fitFromSource(sourceFromColumns(input as BiasColumns), level);
  assertBiasSessionSummaries(input);
  return fitCheckedSummaries(input, level);
}

/** `fitScoreModel` over summaries already checked by `assertBiasSessionSummaries` (the report checks them once). */
export function fitCheckedSummaries(summaries: BiasSessionSummaries, level: number): ScoreModelFit {
  return fitFromSource(sourceFromSummaries(summaries), level);
}

/** The reduce: pass 1 sums X̃'X̃ and X̃'ỹ over sessions; pass 2 forms each session's score X̃_s'ẽ_s = X̃_s'ỹ_s − X̃_s'X̃_s β̂. */
function fitFromSource(source: ScoreModelSource, level: number): ScoreModelFit {
  const { layout, models: names } = source;
  const { k } = layout;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  const columnRecords = new Float64Array(k);
  const columnSessions = new Uint32Array(k);
  const models = names.length;
  const pairCount = models * models;
  const pairDesign = new Float64Array(pairCount * k);
  let observations = 0;
  let answers = 0;

  source.forEachChunk((chunk) => {
    const c = chunk.columns;
    const { answerRow, xtx: sessionXtx } = chunk;
    for (let s = 0; s < chunk.size; s++) {
      const c0 = chunk.colStart[s]!;
      const m = chunk.colStart[s + 1]! - c0;
      const x0 = chunk.xtxStart[s]!;
      for (let a = 0; a < m; a++) {
        const column = c[c0 + a]!;
        const ga = column * k;
        xty[column]! += chunk.xty[c0 + a]!;
        columnRecords[column]! += chunk.records[c0 + a]!;
        if (chunk.records[c0 + a]! > 0) columnSessions[column]!++;
        const row = x0 + a * m;
        for (let b = 0; b < m; b++) xtx[ga + c[c0 + b]!]! += sessionXtx[row + b]!;
      }
      for (let j = chunk.answerStart[s]!; j < chunk.answerStart[s + 1]!; j++) {
        if (chunk.answerCount[j]! < 2) continue;
        observations += chunk.answerCount[j]!;
        answers++;
      }
      // A pair record's demeaned row: its reviewer's and position's columns less its answer's mean row.
      for (let j = chunk.pairStart[s]!; j < chunk.pairStart[s + 1]!; j++) {
        const base = (chunk.pairReviewer[j]! * models + chunk.pairAuthor[j]!) * k;
        pairDesign[base + c[c0 + chunk.pairReviewerColumn[j]!]!]! += 1;
        pairDesign[base + c[c0 + chunk.pairPositionColumn[j]!]!]! += 1;
        const r0 = chunk.answerRowStart[chunk.pairAnswer[j]!]!;
        for (let a = 0; a < m; a++) pairDesign[base + c[c0 + a]!]! -= answerRow[r0 + a]!;
      }
    }
  });
  const { inverse, range, rank } = symmetricPseudoInverse(xtx, k);
  const beta = new Float64Array(k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) beta[a]! += inverse[a * k + b]! * xty[b]!;

  const meat = new Float64Array(k * k);
  const pairs: PairSums = {
    sum: new Float64Array(pairCount),
    n: new Float64Array(pairCount),
    sessions: new Uint32Array(pairCount),
    ee: new Float64Array(pairCount),
    en: new Float64Array(pairCount),
    nn: new Float64Array(pairCount),
    design: pairDesign,
    eScore: new Float64Array(pairCount * k),
    nScore: new Float64Array(pairCount * k),
  };
  const length: LengthSums = {
    sessions: 0,
    sxx: 0,
    sxy: 0,
    syy: 0,
    answers: 0,
    perSession: new Float64Array(3 * source.sessions),
  };
  const between: BetweenSums = { n: 0, sx: 0, sy: 0, sxx: 0, points: new Float64Array(2 * source.sessions) };
  // A session's answers (length, adjusted level), and the pairs it has records of: buffers reused across sessions.
  let sessionX = new Float64Array(models);
  let sessionY = new Float64Array(models);
  let informativeSessions = 0;
  let residualSquares = 0;
  let totalSquares = 0;
  let localBeta = new Float64Array(0);
  let score = new Float64Array(0);
  const sessionPairSum = new Float64Array(pairCount);
  const sessionPairN = new Float64Array(pairCount);
  const sessionPairs = new Int32Array(pairCount);
  let answerFitted = new Float64Array(models);
  const { eScore, nScore } = pairs;

  source.forEachChunk((chunk) => {
    const c = chunk.columns;
    const { answerRow, xtx: sessionXtx } = chunk;
    for (let s = 0; s < chunk.size; s++) {
      const c0 = chunk.colStart[s]!;
      const m = chunk.colStart[s + 1]! - c0;
      const x0 = chunk.xtxStart[s]!;
      if (localBeta.length < m) {
        localBeta = new Float64Array(m);
        score = new Float64Array(m);
      }
      for (let a = 0; a < m; a++) localBeta[a] = beta[c[c0 + a]!]!;
      const answers = chunk.answerStart[s + 1]! - chunk.answerStart[s]!;
      if (answerFitted.length < answers) {
        answerFitted = new Float64Array(answers);
        sessionX = new Float64Array(answers);
        sessionY = new Float64Array(answers);
      }
      // score = X̃'ỹ − X̃'X̃β̂; Σe² = ỹ'ỹ − 2β̂'X̃'ỹ + β̂'X̃'X̃β̂ = ỹ'ỹ − β̂'(X̃'ỹ + score).
      let informative = false;
      for (let a = 0; a < m; a++) {
        let fitted = 0;
        const row = x0 + a * m;
        for (let b = 0; b < m; b++) fitted += sessionXtx[row + b]! * localBeta[b]!;
        score[a] = chunk.xty[c0 + a]! - fitted;
        if (chunk.records[c0 + a]! > 0) informative = true;
      }
      let explained = 0;
      for (let a = 0; a < m; a++) explained += localBeta[a]! * (chunk.xty[c0 + a]! + score[a]!);
      // A difference of sums: clamp the rounding of an (almost) exact fit at 0, never below.
      residualSquares += Math.max(0, chunk.yty[s]! - explained);
      totalSquares += chunk.yty[s]!;
      if (informative) {
        informativeSessions++;
        for (let a = 0; a < m; a++) {
          const sa = score[a]!;
          if (sa === 0) continue;
          const ga = c[c0 + a]! * k;
          for (let b = 0; b < m; b++) meat[ga + c[c0 + b]!]! += sa * score[b]!;
        }
      }
      // Each answer's adjusted level: its mean score less the mean of its reviewers' offsets, positions and self-preference.
      const firstAnswer = chunk.answerStart[s]!;
      for (let j = firstAnswer; j < chunk.answerStart[s + 1]!; j++) {
        const r0 = chunk.answerRowStart[j]!;
        let fitted = 0;
        for (let a = 0; a < m; a++) fitted += answerRow[r0 + a]! * localBeta[a]!;
        answerFitted[j - firstAnswer] = fitted;
        sessionX[j - firstAnswer] = chunk.answerLength[j]! / 1000;
        sessionY[j - firstAnswer] = chunk.answerMean[j]! - fitted;
      }
      // Each pair's residual sum and records in this session, from its records' residuals.
      let pairsInSession = 0;
      for (let j = chunk.pairStart[s]!; j < chunk.pairStart[s + 1]!; j++) {
        const p = chunk.pairReviewer[j]! * models + chunk.pairAuthor[j]!;
        const predicted =
          localBeta[chunk.pairReviewerColumn[j]!]! +
          localBeta[chunk.pairPositionColumn[j]!]! -
          answerFitted[chunk.pairAnswer[j]! - firstAnswer]!;
        if (sessionPairN[p] === 0) sessionPairs[pairsInSession++] = p;
        sessionPairSum[p]! += chunk.pairDeviation[j]! - predicted;
        sessionPairN[p]! += 1;
      }
      for (let q = 0; q < pairsInSession; q++) {
        const p = sessionPairs[q]!;
        const e = sessionPairSum[p]!;
        const n = sessionPairN[p]!;
        pairs.sum[p]! += e;
        pairs.n[p]! += n;
        pairs.sessions[p]!++;
        pairs.ee[p]! += e * e;
        pairs.en[p]! += e * n;
        pairs.nn[p]! += n * n;
        const base = p * k;
        for (let a = 0; a < m; a++) {
          const at = base + c[c0 + a]!;
          eScore[at]! += e * score[a]!;
          nScore[at]! += n * score[a]!;
        }
        sessionPairSum[p] = 0;
        sessionPairN[p] = 0;
      }
      addLengthSession({ x: sessionX, y: sessionY, count: answers }, length, between);
    }
  });

  const S = informativeSessions;
  const correction = S > 1 ? S / (S - 1) : Number.NaN;
  const covariance = sandwich({ inverse, meat, k, correction });
  const residualDf = observations - answers - rank;
  // Residuals within rounding of the scores' own spread are an exact fit (SD 0), not a tiny SD that blows z up.
  const exact = residualSquares <= 1e-10 * totalSquares;
  const residualSd = residualDf > 0 ? (exact ? 0 : Math.sqrt(residualSquares / residualDf)) : null;

  const estimateOf = (
    contrast: Float64Array,
    counts: { sampleSize: number; sessions: number },
  ): ScoreModelEstimate | null => {
    // Estimable only when the contrast lies in the range of X̃'X̃ (otherwise the answer level absorbs it).
    let gap = 0;
    let norm = 0;
    for (let a = 0; a < k; a++) {
      let projected = 0;
      for (let b = 0; b < k; b++) projected += range[a * k + b]! * contrast[b]!;
      gap += (projected - contrast[a]!) ** 2;
      norm += contrast[a]! ** 2;
    }
    // t on the sessions the figure's column appears in, less one (at most S − 1): a reviewer seen in 8 of 60
    // sessions has 7, not 59 (with 59 its interval covered 90.8%).
    const df = Math.min(S, counts.sessions) - 1;
    if (gap > 1e-12 * Math.max(norm, 1) || !(df >= 1)) return null;
    let estimate = 0;
    for (let a = 0; a < k; a++) estimate += contrast[a]! * beta[a]!;
    return tEstimate({
      estimate,
      variance: quadraticForm(covariance, contrast, k),
      crit: criticalT(level, df),
      df,
      ...counts,
    });
  };

  const reviewerOffsets = offsetsFromRobustCentre({
    // Only reviewers with within-answer information: one whose answers no one else scored has no offset to compare.
    members: layout.reviewerModels
      .filter((m) => columnRecords[layout.reviewerColumn[m]!]! > 0)
      .map((m) => ({ column: layout.reviewerColumn[m]!, subject: names[m]! })),
    beta,
    covariance,
    k,
    estimateOf: (contrast, column) =>
      estimateOf(contrast, { sampleSize: columnRecords[column]!, sessions: columnSessions[column]! }),
  });
  const selfPreference: ScoreModelEffect[] = [];
  for (const m of layout.selfModels) {
    const column = layout.selfColumn[m]!;
    const contrast = new Float64Array(k);
    contrast[column] = 1;
    const fit = estimateOf(contrast, { sampleSize: columnRecords[column]!, sessions: columnSessions[column]! });
    if (fit !== null) selfPreference.push({ subject: names[m]!, weight: 1, ...fit });
  }
  const affinity = affinityFigures({ pairs, inverse, meat, k, models: names, level, sessions: S });

  return {
    sessions: S,
    observations,
    level,
    residualSd,
    reviewerOffsets,
    selfPreference,
    affinity,
    ...lengthFigures({ length, between, level }),
  };
}
