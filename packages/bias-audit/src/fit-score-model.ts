import type { BiasColumns } from './bias-columns.js';
import { criticalT } from './internal/t-summary.js';
import { symmetricPseudoInverse } from './internal/symmetric-pseudo-inverse.js';
import { studentTTwoSided } from './student-t-distribution.js';

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

/** Tukey's biweight tuning constant for the robust centre, in standard errors (95% efficiency at the normal). */
const biweightC = 4.685;

/** A record's columns in the model: reviewer offset, display position, and the reviewer's own answer. */
interface Layout {
  reviewerColumn: Int32Array; // model index → column, or -1
  positionColumn: Int32Array; // position → column
  selfColumn: Int32Array; // model index → column of "scores its own answer", or -1
  k: number;
  reviewerModels: number[];
  selfModels: number[];
}

function layoutOf(columns: BiasColumns): Layout {
  const models = columns.models.length;
  const reviews = new Uint8Array(models);
  const selfReviews = new Uint8Array(models);
  let maxPosition = -1;
  for (let i = 0; i < columns.length; i++) {
    if (Number.isNaN(columns.score[i]!)) continue;
    const reviewer = columns.reviewer[i]!;
    reviews[reviewer] = 1;
    if (reviewer === columns.candidate[i]) selfReviews[reviewer] = 1;
    if (columns.position[i]! > maxPosition) maxPosition = columns.position[i]!;
  }
  let k = 0;
  const reviewerColumn = new Int32Array(models).fill(-1);
  const reviewerModels: number[] = [];
  for (let m = 0; m < models; m++) {
    if (reviews[m] === 0) continue;
    reviewerColumn[m] = k++;
    reviewerModels.push(m);
  }
  // Every position up to the largest gets a column; one never shown is a zero column the pseudo-inverse ignores.
  const positionColumn = new Int32Array(maxPosition + 1);
  for (let p = 0; p <= maxPosition; p++) positionColumn[p] = k++;
  const selfColumn = new Int32Array(models).fill(-1);
  const selfModels: number[] = [];
  for (let m = 0; m < models; m++) {
    if (selfReviews[m] === 0) continue;
    selfColumn[m] = k++;
    selfModels.push(m);
  }
  return { reviewerColumn, positionColumn, selfColumn, k, reviewerModels, selfModels };
}

/** The design columns a record sets to 1 (two or three of them). */
// eslint-disable-next-line max-params -- called once per record in both passes: no object per call
function rowOf(columns: BiasColumns, layout: Layout, i: number, out: Int32Array): number {
  const reviewer = columns.reviewer[i]!;
  out[0] = layout.reviewerColumn[reviewer]!;
  out[1] = layout.positionColumn[columns.position[i]!]!;
  if (reviewer === columns.candidate[i] && layout.selfColumn[reviewer]! >= 0) {
    out[2] = layout.selfColumn[reviewer]!;
    return 3;
  }
  return 2;
}

/**
 * The scored records grouped by answer (one candidate of one session), session by session: `order` holds
 * record indices, answer j's from `answerStart[j]` to `answerStart[j + 1]`, session s's answers from
 * `sessionAnswerStart[s]` to `sessionAnswerStart[s + 1]`. Built once, read by both passes.
 */
interface AnswerIndex {
  order: Int32Array;
  answerStart: Int32Array;
  sessionAnswerStart: Int32Array;
}

function indexAnswers(columns: BiasColumns): AnswerIndex {
  const order = new Int32Array(columns.length);
  const starts = new Int32Array(columns.length + 1);
  let answers = 0;
  const sessionAnswerStart = new Int32Array(columns.sessionIds.length + 1);
  let n = 0;
  for (let s = 0; s < columns.sessionIds.length; s++) {
    sessionAnswerStart[s] = answers;
    const first = n;
    for (let i = columns.sessionStart[s]!; i < columns.sessionStart[s + 1]!; i++) {
      if (Number.isNaN(columns.score[i]!)) continue;
      // Insertion by candidate, stable: sessions have tens of records.
      const c = columns.candidate[i]!;
      let j = n++;
      while (j > first && columns.candidate[order[j - 1]!]! > c) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    for (let j = first; j < n; j++) if (j === first || columns.candidate[order[j]!] !== columns.candidate[order[j - 1]!]) starts[answers++] = j;
  }
  sessionAnswerStart[columns.sessionIds.length] = answers;
  starts[answers] = n;
  return { order, answerStart: starts.subarray(0, answers + 1), sessionAnswerStart };
}

/** An answer's mean design row: `mean[c]` over the columns in `support` (the others are 0). */
class AnswerMean {
  readonly mean: Float64Array;
  readonly support: Int32Array;
  size = 0;
  private readonly inSupport: Uint8Array;
  private readonly row = new Int32Array(3);

  constructor(k: number) {
    this.mean = new Float64Array(k);
    this.support = new Int32Array(k);
    this.inSupport = new Uint8Array(k);
  }

  /** Fills the mean row of the `count` records at `list[from…]`; returns their mean score. */
  fill(columns: BiasColumns, layout: Layout, records: { list: Int32Array; from: number; count: number }): number {
    for (let j = 0; j < this.size; j++) {
      const c = this.support[j]!;
      this.mean[c] = 0;
      this.inSupport[c] = 0;
    }
    this.size = 0;
    let y = 0;
    const share = 1 / records.count;
    for (let r = records.from; r < records.from + records.count; r++) {
      const i = records.list[r]!;
      const width = rowOf(columns, layout, i, this.row);
      for (let j = 0; j < width; j++) {
        const c = this.row[j]!;
        if (this.inSupport[c] === 0) {
          this.inSupport[c] = 1;
          this.support[this.size++] = c;
        }
        this.mean[c]! += share;
      }
      y += columns.score[i]!;
    }
    return y * share;
  }
}

/** Per reviewer → author pair, the pieces of its mean residual and of that mean's influence per session. */
interface PairSums {
  /** Σ residuals, Σ records, sessions seen. */
  sum: Float64Array;
  n: Float64Array;
  sessions: Uint32Array;
  /** Σ_s e_s², Σ_s e_s n_s, Σ_s n_s² over sessions (e_s, n_s: the pair's residual sum and records in session s). */
  ee: Float64Array;
  en: Float64Array;
  nn: Float64Array;
  /** Σ over the pair's records of its demeaned design row (pair × k): how the pair's mean moves with β̂. */
  design: Float64Array;
  /** Σ_s e_s·score_s and Σ_s n_s·score_s (pair × k), score_s the session's X̃'ẽ. */
  eScore: Float64Array;
  nScore: Float64Array;
}

/**
 * The cross-session score model, fitted from per-answer sums (one pass to fit, one for the cluster-robust
 * errors and residuals). Within an answer a reviewer's score is the answer's own level plus the reviewer's
 * offset, the display position's effect and, on its own answer, the reviewer's self-preference; the answer's
 * level is absorbed (within-answer demeaning), so the answer's quality and length cancel exactly. Affinity is
 * the residual reviewer → author interaction, its error including the fitted offsets' own; length is read
 * between the answers of a session from their adjusted levels. Standard errors are clustered by session (CR1,
 * t with sessions − 1 df; the length slope CR2 with Satterthwaite's df).
 */
export function fitScoreModel(columns: BiasColumns, options: FitScoreModelOptions = {}): ScoreModelFit {
  const level = options.level ?? 0.95;
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
  const between: BetweenSums = { n: 0, sx: 0, sy: 0, sxx: 0, sxy: 0, syy: 0, points: [] };
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
  const df = S - 1;
  const crit = df >= 1 ? criticalT(level, df) : Number.NaN;
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
    if (gap > 1e-12 * Math.max(norm, 1) || !(df >= 1)) return null;
    let estimate = 0;
    for (let a = 0; a < k; a++) estimate += contrast[a]! * beta[a]!;
    return summary({ estimate, variance: quadraticForm(covariance, contrast, k), crit, df, ...counts });
  };

  const reviewerOffsets = offsetsFromRobustCentre({
    members: layout.reviewerModels.map((m) => ({ column: layout.reviewerColumn[m]!, subject: columns.models[m]! })),
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

/** V = A⁺ M A⁺ · correction (k × k). */
function sandwich(spec: { inverse: Float64Array; meat: Float64Array; k: number; correction: number }): Float64Array {
  const { inverse, meat, k, correction } = spec;
  const half = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) {
    const x = inverse[a * k + b]!;
    if (x === 0) continue;
    for (let c = 0; c < k; c++) half[a * k + c]! += x * meat[b * k + c]!;
  }
  const covariance = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) {
    const x = half[a * k + b]!;
    if (x === 0) continue;
    for (let c = 0; c < k; c++) covariance[a * k + c]! += x * inverse[b * k + c]! * correction;
  }
  return covariance;
}

function quadraticForm(matrix: Float64Array, v: Float64Array, k: number): number {
  let total = 0;
  for (let a = 0; a < k; a++) {
    if (v[a] === 0) continue;
    for (let b = 0; b < k; b++) total += v[a]! * matrix[a * k + b]! * v[b]!;
  }
  return total;
}

/**
 * Reviewers' offsets are only relative, so each is measured against a robust centre of them all: Tukey's
 * biweight M-estimate of their location (from the median), each reviewer weighted by how far it sits from
 * the centre in its own standard errors — near 1 close by, 0 beyond 4.685. With no outlier it is close to
 * the mean, so intervals keep their level; a clearly harsh reviewer gets no weight, so it makes no one else
 * look generous.
 */
function offsetsFromRobustCentre(spec: {
  members: readonly { column: number; subject: string }[];
  beta: Float64Array;
  covariance: Float64Array;
  k: number;
  estimateOf: (contrast: Float64Array, column: number) => ScoreModelEstimate | null;
}): ScoreModelEffect[] {
  const { members, beta, covariance, k } = spec;
  if (members.length < 2) return [];
  const estimates = members.map((m) => beta[m.column]!);
  const weights = members.map(() => 1);
  const sorted = [...estimates].sort((x, y) => x - y);
  const middle = sorted.length / 2;
  let centre = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const contrastOf = (member: number): Float64Array => {
    const total = weights.reduce((sum, w) => sum + w, 0);
    const contrast = new Float64Array(k);
    contrast[members[member]!.column]! += 1;
    members.forEach((m, j) => (contrast[m.column]! -= total > 0 ? weights[j]! / total : 1 / members.length));
    return contrast;
  };
  for (let iteration = 0; iteration < 100; iteration++) {
    members.forEach((_, j) => {
      const se = Math.sqrt(Math.max(0, quadraticForm(covariance, contrastOf(j), k)));
      const gap = Math.abs(estimates[j]! - centre);
      // A standard error of 0 (scores that fit exactly) leaves rounding only: ties within 1e-9 points are at the centre.
      const distance = se > 1e-12 ? gap / se : gap > 1e-9 ? Number.POSITIVE_INFINITY : 0;
      weights[j] = distance >= biweightC ? 0 : (1 - (distance / biweightC) ** 2) ** 2;
    });
    const total = weights.reduce((sum, w) => sum + w, 0);
    const next = total > 0 ? estimates.reduce((sum, e, j) => sum + weights[j]! * e, 0) / total : estimates.reduce((sum, e) => sum + e, 0) / estimates.length;
    const settled = Math.abs(next - centre) <= 1e-12 * Math.max(1, Math.abs(centre));
    centre = next;
    if (settled) break;
  }
  const out: ScoreModelEffect[] = [];
  members.forEach((member, j) => {
    const fit = spec.estimateOf(contrastOf(j), member.column);
    if (fit !== null) out.push({ subject: member.subject, weight: weights[j]!, ...fit });
  });
  return out;
}

/**
 * Affinity of each reviewer → author pair: the mean of its residuals â = Σe/Σn. Its influence per session is
 * (e_s − â·n_s − g'A⁺·score_s)/N, g the pair's summed design row: the last term is the fitted offsets'
 * share (the residuals of a reviewer sum to zero over its authors, so leaving it out overstates the error
 * by about √(C/(C − 1)) with C authors per reviewer). Summed over every informative session, with S/(S − 1).
 */
function affinityFigures(spec: {
  pairs: PairSums;
  inverse: Float64Array;
  meat: Float64Array;
  k: number;
  models: readonly string[];
  level: number;
  sessions: number;
}): ScoreModelEffect[] {
  const { pairs, inverse, meat, k, models, level, sessions } = spec;
  const m = models.length;
  const out: ScoreModelEffect[] = [];
  const h = new Float64Array(k);
  for (let pair = 0; pair < m * m; pair++) {
    const n = pairs.n[pair]!;
    const seen = pairs.sessions[pair]!;
    if (n === 0 || seen < 2 || sessions < 2) continue;
    const ratio = pairs.sum[pair]! / n;
    h.fill(0);
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) h[a]! += inverse[a * k + b]! * pairs.design[pair * k + b]!;
    // Σ_s (e_s − â n_s − h'score_s)².
    let spread = pairs.ee[pair]! - 2 * ratio * pairs.en[pair]! + ratio * ratio * pairs.nn[pair]!;
    for (let a = 0; a < k; a++) spread -= 2 * h[a]! * (pairs.eScore[pair * k + a]! - ratio * pairs.nScore[pair * k + a]!);
    spread += quadraticForm(meat, h, k);
    const variance = (sessions / (sessions - 1)) * Math.max(0, spread) / (n * n);
    const df = seen - 1;
    const subject = `${models[Math.floor(pair / m)]!}→${models[pair % m]!}`;
    out.push({ subject, weight: 1, ...summary({ estimate: ratio, variance, crit: criticalT(level, df), df, sampleSize: n, sessions: seen }) });
  }
  return out;
}

function summary(spec: { estimate: number; variance: number; crit: number; df: number; sampleSize: number; sessions: number }): ScoreModelEstimate {
  const standardError = Math.sqrt(Math.max(0, spec.variance));
  const t = standardError > 0 ? spec.estimate / standardError : spec.estimate === 0 ? 0 : Number.POSITIVE_INFINITY;
  return {
    estimate: spec.estimate,
    standardError,
    df: spec.df,
    lower: spec.estimate - spec.crit * standardError,
    upper: spec.estimate + spec.crit * standardError,
    pValue: Number.isFinite(t) ? studentTTwoSided(t, spec.df) : 0,
    sampleSize: spec.sampleSize,
    sessions: spec.sessions,
  };
}

interface LengthSums {
  sessions: number;
  sxx: number;
  sxy: number;
  syy: number;
  answers: number;
  /** Each session's within sums (sxx, sxy, syy), in turn: the small-sample (CR2) correction needs each session's share. */
  perSession: number[];
}

interface BetweenSums {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  sxy: number;
  syy: number;
  /** Each session's (mean length, mean level), in turn: the heteroskedasticity-robust error needs each. */
  points: number[];
}

/** Adds one session's answers (length in thousands of characters, adjusted level) to the within and between sums. */
function addLengthSession(answers: { x: readonly number[]; y: readonly number[] }, within: LengthSums, between: BetweenSums): void {
  const count = answers.x.length;
  if (count === 0) return;
  let mx = 0;
  let my = 0;
  for (let j = 0; j < count; j++) {
    mx += answers.x[j]! / count;
    my += answers.y[j]! / count;
  }
  between.n++;
  between.sx += mx;
  between.sy += my;
  between.sxx += mx * mx;
  between.sxy += mx * my;
  between.syy += my * my;
  between.points.push(mx, my);
  if (count < 2) return;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let j = 0; j < count; j++) {
    const dx = answers.x[j]! - mx;
    const dy = answers.y[j]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return;
  within.sessions++;
  within.answers += count;
  within.sxx += sxx;
  within.sxy += sxy;
  within.syy += syy;
  within.perSession.push(sxx, sxy, syy);
}

/**
 * r = Sxy/√(Sxx·Syy) with each session's influence r·(sxy_s/Sxy − sxx_s/(2Sxx) − syy_s/(2Syy)) (they sum to 0),
 * squared and summed times S/(S − 1); the interval is formed on z = atanh r (SE_r/(1 − r²)) and mapped back.
 */
function correlationFigure(spec: { w: LengthSums; df: number; crit: number }): ScoreModelEstimate {
  const { w, df, crit } = spec;
  const r = Math.max(-1, Math.min(1, w.sxy / Math.sqrt(w.sxx * w.syy)));
  let spread = 0;
  for (let j = 0; j < w.perSession.length; j += 3) {
    const influence = r * ((w.sxy !== 0 ? w.perSession[j + 1]! / w.sxy : 0) - w.perSession[j]! / (2 * w.sxx) - w.perSession[j + 2]! / (2 * w.syy));
    spread += influence * influence;
  }
  // Sxy = 0 makes r's influence r·sxy_s/Sxy a 0/0: there the slope's own influence (sxy_s/√(Sxx·Syy)) is r's.
  if (w.sxy === 0) {
    spread = 0;
    for (let j = 0; j < w.perSession.length; j += 3) spread += w.perSession[j + 1]! ** 2 / (w.sxx * w.syy);
  }
  const standardError = Math.sqrt((spread * w.sessions) / Math.max(1, w.sessions - 1));
  const z = Math.atanh(Math.max(-0.999999, Math.min(0.999999, r)));
  const zSe = standardError / Math.max(1e-12, 1 - r * r);
  const t = zSe > 0 ? z / zSe : r === 0 ? 0 : Number.POSITIVE_INFINITY;
  return {
    estimate: r,
    standardError,
    df,
    lower: Math.tanh(z - crit * zSe),
    upper: Math.tanh(z + crit * zSe),
    pValue: Number.isFinite(t) ? studentTTwoSided(t, df) : 0,
    sampleSize: w.answers,
    sessions: w.sessions,
  };
}

function lengthFigures(spec: { length: LengthSums; between: BetweenSums; level: number }): Pick<ScoreModelFit, 'lengthSlope' | 'lengthCorrelation' | 'betweenSessionLengthSlope'> {
  const { length: w, between: b, level } = spec;
  let lengthSlope: ScoreModelEstimate | null = null;
  let lengthCorrelation: ScoreModelEstimate | null = null;
  if (w.sessions >= 2 && w.sxx > 0) {
    const slope = w.sxy / w.sxx;
    // CR2 (Bell & McCaffrey 2002): each session's score sxy_s − β·sxx_s scaled by 1/√(1 − h_s), h_s = sxx_s/Σ sxx
    // its leverage on a one-regressor fit; CR1's S/(S − 1) under-covers at 20 sessions.
    // Its degrees of freedom (Satterthwaite, homoskedastic working model): (Σ sxx_s)² / Σ sxx_s², at most S − 1.
    let spread = 0;
    let sxxSquares = 0;
    for (let j = 0; j < w.perSession.length; j += 3) {
      const sxx = w.perSession[j]!;
      const u = w.perSession[j + 1]! - slope * sxx;
      spread += (u * u) / Math.max(1e-12, 1 - sxx / w.sxx);
      sxxSquares += sxx * sxx;
    }
    const variance = spread / (w.sxx * w.sxx);
    const df = Math.max(1, Math.min(w.sessions - 1, (w.sxx * w.sxx) / sxxSquares));
    const crit = criticalT(level, df);
    lengthSlope = summary({ estimate: slope, variance, crit, df, sampleSize: w.answers, sessions: w.sessions });
    if (w.syy > 0) lengthCorrelation = correlationFigure({ w, df, crit });
  }
  let betweenSessionLengthSlope: ScoreModelEstimate | null = null;
  if (b.n >= 3) {
    // Centred sums from the points (the raw-moment shortcut leaves rounding where every session's mean length is equal).
    const cx = b.sx / b.n;
    const cy = b.sy / b.n;
    let sxx = 0;
    let sxy = 0;
    for (let j = 0; j < b.points.length; j += 2) {
      sxx += (b.points[j]! - cx) ** 2;
      sxy += (b.points[j]! - cx) * (b.points[j + 1]! - cy);
    }
    if (sxx > 1e-12 * Math.max(1, b.sxx)) {
      // Least squares over sessions (one point each, independent) with HC2 errors (MacKinnon & White 1985):
      // sessions whose answers react to length differently spread more where lengths are extreme, which the
      // classical residual variance misses (it covered 89.7% at 20 sessions with per-session ρ = ±0.5).
      const slope = sxy / sxx;
      const mx = cx;
      const my = cy;
      // HC2 (weights c_i² = dx_i²/(1 − h_i) on squared residuals) with Bell & McCaffrey's (2002) degrees of
      // freedom: under a homoskedastic working model V̂ ∝ e'De, e = (I − H)y, D = diag(c²), so
      // df = tr(M)²/tr(M²) with M = (I − H)D(I − H). A few long-answer sessions carry the slope, and n − 2 df
      // overstates their number.
      const points = b.points;
      const n = b.n;
      const c2 = new Float64Array(n);
      let spread = 0;
      for (let j = 0; j < n; j++) {
        const dx = points[2 * j]! - mx;
        const e = points[2 * j + 1]! - my - slope * dx;
        c2[j] = (dx * dx) / Math.max(1e-12, 1 - 1 / n - (dx * dx) / sxx);
        spread += c2[j]! * e * e;
      }
      const variance = spread / (sxx * sxx);
      // With (I − H)_ij = δ_ij − u_ij, u_ij = 1/n + d_i·d_j/Sxx: tr M = Σ w_i(1 − u_ii) and
      // tr M² = Σ w_i²(1 − 2u_ii) + W²/n² + 2(Σ w_i d_i)²/(n·Sxx) + (Σ w_i d_i²)²/Sxx², in one pass.
      let trace = 0;
      let diagonal = 0;
      let total = 0;
      let firstMoment = 0;
      let secondMoment = 0;
      for (let j = 0; j < n; j++) {
        const d = points[2 * j]! - mx;
        const u = 1 / n + (d * d) / sxx;
        trace += c2[j]! * (1 - u);
        diagonal += c2[j]! * c2[j]! * (1 - 2 * u);
        total += c2[j]!;
        firstMoment += c2[j]! * d;
        secondMoment += c2[j]! * d * d;
      }
      const traceSquare = diagonal + (total * total) / (n * n) + (2 * firstMoment * firstMoment) / (n * sxx) + (secondMoment * secondMoment) / (sxx * sxx);
      const df = traceSquare > 0 ? Math.max(1, Math.min(n - 2, (trace * trace) / traceSquare)) : n - 2;
      betweenSessionLengthSlope = summary({ estimate: slope, variance, crit: criticalT(level, df), df, sampleSize: b.n, sessions: b.n });
    }
  }
  return { lengthSlope, lengthCorrelation, betweenSessionLengthSlope };
}
