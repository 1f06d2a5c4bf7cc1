import type { BiasColumns } from './bias-columns.js';
import { assertLevel } from './internal/assert.js';
import { affinityFigures } from './internal/affinity-figures.js';
import type { PairSums } from './internal/affinity-figures.js';
import { addLengthSession, lengthFigures } from './internal/length-figures.js';
import type { BetweenSums, LengthSums } from './internal/length-figures.js';
import { offsetsFromRobustCentre } from './internal/robust-centre.js';
import { quadraticForm, sandwich } from './internal/sandwich-covariance.js';
import { AnswerMean, indexAnswers, layoutOf, rowOf } from './internal/score-model-design.js';
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
 * The cross-session score model, fitted from per-answer sums (one pass to fit, one for the cluster-robust
 * errors and residuals). Within an answer a reviewer's score is the answer's own level plus the reviewer's
 * offset, the display position's effect and, on its own answer, the reviewer's self-preference; the answer's
 * level is absorbed (within-answer demeaning), so the answer's quality and length cancel exactly. Affinity is
 * the residual reviewer → author interaction, its error including the fitted offsets' own; length is read
 * between the answers of a session from their adjusted levels. Standard errors are clustered by session (CR1,
 * t on the sessions a figure appears in, less one; the length slope CR2 with Bell–McCaffrey's df).
 */
export function fitScoreModel(columns: BiasColumns, options: FitScoreModelOptions = {}): ScoreModelFit {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const layout = layoutOf(columns);
  const { k } = layout;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  const answerMean = new AnswerMean(k);
  const { mean, support } = answerMean;
  const row = new Int32Array(3);
  const columnRecords = new Float64Array(k);
  const columnSessions = new Uint32Array(k);
  const columnLastSession = new Int32Array(k).fill(-1);
  const models = columns.models.length;
  const pairCount = models * models;
  const pairDesign = new Float64Array(pairCount * k);
  let observations = 0;
  let answers = 0;
  const informative = new Uint8Array(columns.sessionIds.length);

  // Pass 1: X̃'X̃ and X̃'ỹ of the within-answer demeaned design, answer by answer.
  const index = indexAnswers(columns);
  const list = index.order;
  for (let s = 0; s + 1 < index.sessionAnswerStart.length; s++) {
    for (let answer = index.sessionAnswerStart[s]!; answer < index.sessionAnswerStart[s + 1]!; answer++) {
      const from = index.answerStart[answer]!;
      const count = index.answerStart[answer + 1]! - from;
      if (count < 2) continue;
      informative[s] = 1;
      observations += count;
      answers++;
      const yBar = answerMean.fill(columns, layout, { list, from, count });
      const size = answerMean.size;
      // Σ(x − x̄)(x − x̄)' = Σxx' − m·x̄x̄' and Σ(x − x̄)(y − ȳ) = Σx(y − ȳ): the mean row once per answer.
      for (let ja = 0; ja < size; ja++) {
        const a = support[ja]!;
        const ma = mean[a]! * count;
        for (let jb = 0; jb < size; jb++) xtx[a * k + support[jb]!]! -= ma * mean[support[jb]!]!;
      }
      for (let r = from; r < from + count; r++) {
        const i = list[r]!;
        const width = rowOf(columns, layout, i, row);
        const y = columns.score[i]! - yBar;
        for (let ja = 0; ja < width; ja++) {
          const a = row[ja]!;
          columnRecords[a]!++;
          if (columnLastSession[a] !== s) {
            columnLastSession[a] = s;
            columnSessions[a]!++;
          }
          xty[a]! += y;
          for (let jb = 0; jb < width; jb++) xtx[a * k + row[jb]!]! += 1;
        }
        const reviewer = columns.reviewer[i]!;
        if (reviewer !== columns.candidate[i]) {
          const base = (reviewer * models + columns.candidate[i]!) * k;
          for (let ja = 0; ja < width; ja++) pairDesign[base + row[ja]!]! += 1;
          for (let ja = 0; ja < size; ja++) pairDesign[base + support[ja]!]! -= mean[support[ja]!]!;
        }
      }
    }
  }
  const { inverse, range, rank } = symmetricPseudoInverse(xtx, k);
  const beta = new Float64Array(k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) beta[a]! += inverse[a * k + b]! * xty[b]!;

  // Pass 2: per-session scores X̃_s'ẽ_s for the sandwich; affinity residual sums; answers' adjusted levels for length.
  const meat = new Float64Array(k * k);
  const score = new Float64Array(k);
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
  const sessionPairSum = new Float64Array(pairCount);
  const sessionPairN = new Float64Array(pairCount);
  const sessionPairs: number[] = [];
  const length: LengthSums = { sessions: 0, sxx: 0, sxy: 0, syy: 0, answers: 0, perSession: [] };
  const between: BetweenSums = { n: 0, sx: 0, sy: 0, sxx: 0, points: [] };
  const sessionX: number[] = [];
  const sessionY: number[] = [];
  let informativeSessions = 0;
  let residualSquares = 0;

  for (let s = 0; s + 1 < index.sessionAnswerStart.length; s++) {
    for (let answer = index.sessionAnswerStart[s]!; answer < index.sessionAnswerStart[s + 1]!; answer++) {
      const from = index.answerStart[answer]!;
      const count = index.answerStart[answer + 1]! - from;
      const yBar = answerMean.fill(columns, layout, { list, from, count });
      let fitted = 0;
      for (let j = 0; j < answerMean.size; j++) fitted += mean[support[j]!]! * beta[support[j]!]!;
      // The answer's adjusted level: its mean score less the mean of its reviewers' offsets, positions and self-preference.
      sessionX.push(columns.responseLengthChars[list[from]!]! / 1000);
      sessionY.push(yBar - fitted);
      if (count < 2) continue;
      for (let r = from; r < from + count; r++) {
        const i = list[r]!;
        const width = rowOf(columns, layout, i, row);
        let predicted = -fitted;
        for (let j = 0; j < width; j++) predicted += beta[row[j]!]!;
        const residual = columns.score[i]! - yBar - predicted;
        residualSquares += residual * residual;
        // Σ(x − x̄)e = Σxe: an answer's residuals sum to 0.
        for (let j = 0; j < width; j++) score[row[j]!]! += residual;
        const reviewer = columns.reviewer[i]!;
        if (reviewer !== columns.candidate[i]) {
          const pair = reviewer * models + columns.candidate[i]!;
          if (sessionPairN[pair] === 0) sessionPairs.push(pair);
          sessionPairSum[pair]! += residual;
          sessionPairN[pair]! += 1;
        }
      }
    }
    if (informative[s] === 1) {
      informativeSessions++;
      for (let a = 0; a < k; a++) {
        const sa = score[a]!;
        if (sa === 0) continue;
        for (let b = 0; b < k; b++) meat[a * k + b]! += sa * score[b]!;
      }
    }
    for (const pair of sessionPairs) {
      const e = sessionPairSum[pair]!;
      const n = sessionPairN[pair]!;
      pairs.sum[pair]! += e;
      pairs.n[pair]! += n;
      pairs.sessions[pair]!++;
      pairs.ee[pair]! += e * e;
      pairs.en[pair]! += e * n;
      pairs.nn[pair]! += n * n;
      for (let a = 0; a < k; a++) {
        pairs.eScore[pair * k + a]! += e * score[a]!;
        pairs.nScore[pair * k + a]! += n * score[a]!;
      }
      sessionPairSum[pair] = 0;
      sessionPairN[pair] = 0;
    }
    sessionPairs.length = 0;
    score.fill(0);
    addLengthSession({ x: sessionX, y: sessionY }, length, between);
    sessionX.length = 0;
    sessionY.length = 0;
  }

  const S = informativeSessions;
  const correction = S > 1 ? S / (S - 1) : Number.NaN;
  const covariance = sandwich({ inverse, meat, k, correction });
  const residualDf = observations - answers - rank;
  const residualSd = residualDf > 0 ? Math.sqrt(residualSquares / residualDf) : null;

  const estimateOf = (contrast: Float64Array, counts: { sampleSize: number; sessions: number }): ScoreModelEstimate | null => {
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
    return tEstimate({ estimate, variance: quadraticForm(covariance, contrast, k), crit: criticalT(level, df), df, ...counts });
  };

  const reviewerOffsets = offsetsFromRobustCentre({
    // Only reviewers with within-answer information: one whose answers no one else scored has no offset to compare.
    members: layout.reviewerModels.filter((m) => columnRecords[layout.reviewerColumn[m]!]! > 0).map((m) => ({ column: layout.reviewerColumn[m]!, subject: columns.models[m]! })),
    beta,
    covariance,
    k,
    estimateOf: (contrast, column) => estimateOf(contrast, { sampleSize: columnRecords[column]!, sessions: columnSessions[column]! }),
  });
  const selfPreference: ScoreModelEffect[] = [];
  for (const m of layout.selfModels) {
    const column = layout.selfColumn[m]!;
    const contrast = new Float64Array(k);
    contrast[column] = 1;
    const fit = estimateOf(contrast, { sampleSize: columnRecords[column]!, sessions: columnSessions[column]! });
    if (fit !== null) selfPreference.push({ subject: columns.models[m]!, weight: 1, ...fit });
  }
  const affinity = affinityFigures({ pairs, inverse, meat, k, models: columns.models, level, sessions: S });

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

