import type { BiasColumns } from './bias-columns.js';
import { criticalT } from './internal/t-summary.js';
import { symmetricPseudoInverse } from './internal/symmetric-pseudo-inverse.js';
import { studentTTwoSided } from './student-t-distribution.js';

/** One figure of the score model: estimate, interval, the t test of "no effect", and what it rests on. */
export interface ScoreModelEstimate {
  estimate: number;
  /** Cluster-robust (by session) standard error. */
  standardError: number;
  lower: number;
  upper: number;
  /** Two-sided p of "the effect is 0", from the same t (df = sessions − 1) as the interval. */
  pValue: number;
  /** Scored records behind it. */
  sampleSize: number;
  /** Sessions behind it (the clusters of its standard error). */
  sessions: number;
}

/** A figure about one reviewer, one display position, or one reviewer → author pair. */
export interface ScoreModelEffect extends ScoreModelEstimate {
  /** The model id, the 0-based display position as a string, or `reviewer→author`. */
  subject: string;
  /** Its weight in the family's robust centre (1: full; less for a member far from the others); 1 for affinity. */
  weight: number;
}

export interface ScoreModelFit {
  /** Sessions with at least one answer scored by two reviewers or more (they carry within-answer information). */
  sessions: number;
  /** Scored records used. */
  observations: number;
  level: number;
  /**
   * Each reviewer's offset in score points against the typical reviewer (a robust centre of all reviewers'
   * offsets), with the answer held fixed: how much more (or less) this reviewer gives the same answer than
   * the typical reviewer does. One harsh reviewer barely moves anyone else: the centre is the majority's.
   */
  reviewerOffsets: ScoreModelEffect[];
  /** Each display position's effect in points against the typical position (the same robust centre), answer and reviewer held fixed. */
  positionEffects: ScoreModelEffect[];
  /** Points a reviewer adds to its own answer beyond its offset (null when no reviewer scored its own answer). */
  selfPreference: ScoreModelEstimate | null;
  /**
   * Each reviewer → author pair's mean residual in points once answer, reviewer offset, position and
   * self-preference are accounted for: exactly 0 in expectation when only those effects exist.
   */
  affinity: ScoreModelEffect[];
  /** Points per 1,000 characters between the answers of one session (session held fixed), from the answers' adjusted means. */
  lengthSlope: ScoreModelEstimate | null;
  /** The within-session correlation of answer length and adjusted mean score (pooled over sessions). */
  lengthCorrelation: number | null;
  /** Points per 1,000 characters between sessions (session means): an association, not a bias of the reviewers. */
  betweenSessionLengthSlope: ScoreModelEstimate | null;
}

export interface FitScoreModelOptions {
  /** Confidence level of every interval. Default 0.95. */
  level?: number;
}

/** Tukey's biweight tuning constant for the robust centre, in standard errors (95% efficiency at the normal). */
const biweightC = 4.685;

/** A record's columns in the model: reviewer offset, display position, and self-review. */
interface Layout {
  reviewerColumn: Int32Array; // model index → column, or -1
  positionColumn: Int32Array; // position → column, or -1
  selfColumn: number; // -1 when no self-review exists
  k: number;
  reviewerModels: number[];
  positions: number[];
}

function layoutOf(columns: BiasColumns): Layout {
  const reviewerColumn = new Int32Array(columns.models.length).fill(-1);
  let maxPosition = -1;
  let self = false;
  for (let i = 0; i < columns.length; i++) {
    if (Number.isNaN(columns.score[i]!)) continue;
    reviewerColumn[columns.reviewer[i]!] = 0;
    if (columns.position[i]! > maxPosition) maxPosition = columns.position[i]!;
    if (columns.reviewer[i] === columns.candidate[i]) self = true;
  }
  const reviewerModels: number[] = [];
  let k = 0;
  for (let m = 0; m < reviewerColumn.length; m++) {
    if (reviewerColumn[m] === -1) continue;
    reviewerColumn[m] = k++;
    reviewerModels.push(m);
  }
  const positionColumn = new Int32Array(maxPosition + 1).fill(-1);
  const positions: number[] = [];
  for (let i = 0; i < columns.length; i++) if (!Number.isNaN(columns.score[i]!)) positionColumn[columns.position[i]!] = 0;
  for (let p = 0; p <= maxPosition; p++) {
    if (positionColumn[p] === -1) continue;
    positionColumn[p] = k++;
    positions.push(p);
  }
  const selfColumn = self ? k++ : -1;
  return { reviewerColumn, positionColumn, selfColumn, k, reviewerModels, positions };
}

/**
 * Visits each answer (one candidate of one session) with its scored records, session by session. A session's
 * records are contiguous; an answer's records are gathered by candidate within its session.
 */
function forEachAnswer(columns: BiasColumns, visit: (session: number, records: readonly number[]) => void, sessionDone: (session: number) => void): void {
  const byCandidate = new Map<number, number[]>();
  for (let s = 0; s < columns.sessionIds.length; s++) {
    byCandidate.clear();
    for (let i = columns.sessionStart[s]!; i < columns.sessionStart[s + 1]!; i++) {
      if (Number.isNaN(columns.score[i]!)) continue;
      const c = columns.candidate[i]!;
      const list = byCandidate.get(c);
      if (list === undefined) byCandidate.set(c, [i]);
      else list.push(i);
    }
    for (const records of byCandidate.values()) visit(s, records);
    sessionDone(s);
  }
}

/**
 * The cross-session score model, fitted from per-answer sums (one pass to fit, one for the cluster-robust
 * errors and residuals). Within an answer a reviewer's score is the answer's own level plus the reviewer's
 * offset, the display position's effect and, on its own answer, self-preference; the answer's level is
 * absorbed (within-answer demeaning), so the answer's quality and length cancel exactly. Affinity is the
 * residual reviewer → author interaction; length is read between the answers of a session from their
 * adjusted levels. Standard errors are clustered by session (CR1, t with sessions − 1 df).
 */
export function fitScoreModel(columns: BiasColumns, options: FitScoreModelOptions = {}): ScoreModelFit {
  const level = options.level ?? 0.95;
  const layout = layoutOf(columns);
  const { k } = layout;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  const support: number[] = [];
  const mean = new Float64Array(k);
  let observations = 0;
  const informative = new Uint8Array(columns.sessionIds.length);

  const columnsOf = (i: number, out: number[]): void => {
    out.length = 0;
    out.push(layout.reviewerColumn[columns.reviewer[i]!]!, layout.positionColumn[columns.position[i]!]!);
    if (layout.selfColumn >= 0 && columns.reviewer[i] === columns.candidate[i]) out.push(layout.selfColumn);
  };
  const row: number[] = [];
  /** Fills `mean` (and `support`, the columns it touches) with the answer's mean design row; returns its mean score. */
  const answerMeans = (records: readonly number[]): number => {
    for (const c of support) mean[c] = 0;
    support.length = 0;
    let y = 0;
    for (const i of records) {
      columnsOf(i, row);
      for (const c of row) {
        if (mean[c] === 0 && !support.includes(c)) support.push(c);
        mean[c]! += 1 / records.length;
      }
      y += columns.score[i]!;
    }
    return y / records.length;
  };

  // Pass 1: X̃'X̃ and X̃'ỹ of the within-answer demeaned design, answer by answer.
  forEachAnswer(
    columns,
    (s, records) => {
      if (records.length < 2) return;
      informative[s] = 1;
      observations += records.length;
      const yBar = answerMeans(records);
      for (const i of records) {
        columnsOf(i, row);
        const y = columns.score[i]! - yBar;
        // (x − x̄) has +1 on `row` and −mean on `support`.
        for (const a of row) {
          xty[a]! += y;
          for (const b of row) xtx[a * k + b]! += 1;
          for (const b of support) xtx[a * k + b]! -= mean[b]!;
        }
        for (const a of support) {
          xty[a]! -= mean[a]! * y;
          for (const b of row) xtx[a * k + b]! -= mean[a]!;
          for (const b of support) xtx[a * k + b]! += mean[a]! * mean[b]!;
        }
      }
    },
    () => undefined,
  );
  const { inverse, range } = symmetricPseudoInverse(xtx, k);
  const beta = new Float64Array(k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) beta[a]! += inverse[a * k + b]! * xty[b]!;

  // Pass 2: per-session scores X̃_s'ẽ_s for the sandwich; affinity residual sums; answers' adjusted levels for length.
  const meat = new Float64Array(k * k);
  const score = new Float64Array(k);
  const touched: number[] = [];
  const models = columns.models.length;
  const pairCount = models * models;
  const pairSum = new Float64Array(pairCount); // Σ residuals
  const pairN = new Float64Array(pairCount);
  const pairSessions = new Uint32Array(pairCount);
  const pairSumSq = new Float64Array(pairCount); // Σ_s (e_s)², Σ_s e_s n_s, Σ_s n_s² for the ratio's cluster variance
  const pairCross = new Float64Array(pairCount);
  const pairNSq = new Float64Array(pairCount);
  const sessionPairSum = new Float64Array(pairCount);
  const sessionPairN = new Float64Array(pairCount);
  const sessionPairs: number[] = [];
  const length: LengthSums = { sessions: 0, sxx: 0, sxy: 0, syy: 0, answers: 0, perSession: [] };
  const between = { n: 0, sx: 0, sy: 0, sxx: 0, sxy: 0, syy: 0, records: 0 };
  let sessionAnswers: { x: number; y: number }[] = [];
  let informativeSessions = 0;

  forEachAnswer(
    columns,
    (s, records) => {
      const yBar = answerMeans(records);
      let fitted = 0;
      for (const c of support) fitted += mean[c]! * beta[c]!;
      // The answer's adjusted level: its mean score less the mean of its reviewers' offsets, positions and self-preference.
      sessionAnswers.push({ x: columns.responseLengthChars[records[0]!]! / 1000, y: yBar - fitted });
      between.records += records.length;
      if (records.length < 2) return;
      for (const i of records) {
        columnsOf(i, row);
        let predicted = -fitted;
        for (const c of row) predicted += beta[c]!;
        const residual = columns.score[i]! - yBar - predicted;
        for (const c of row) {
          if (score[c] === 0 && !touched.includes(c)) touched.push(c);
          score[c]! += residual;
        }
        for (const c of support) {
          if (score[c] === 0 && !touched.includes(c)) touched.push(c);
          score[c]! -= mean[c]! * residual;
        }
        if (columns.reviewer[i] !== columns.candidate[i]) {
          const pair = columns.reviewer[i]! * models + columns.candidate[i]!;
          if (sessionPairN[pair] === 0) sessionPairs.push(pair);
          sessionPairSum[pair]! += residual;
          sessionPairN[pair]! += 1;
        }
      }
    },
    (s) => {
      if (informative[s] === 1) {
        informativeSessions++;
        for (const a of touched) for (const b of touched) meat[a * k + b]! += score[a]! * score[b]!;
      }
      for (const c of touched) score[c] = 0;
      touched.length = 0;
      for (const pair of sessionPairs) {
        const e = sessionPairSum[pair]!;
        const n = sessionPairN[pair]!;
        pairSum[pair]! += e;
        pairN[pair]! += n;
        pairSessions[pair]!++;
        pairSumSq[pair]! += e * e;
        pairCross[pair]! += e * n;
        pairNSq[pair]! += n * n;
        sessionPairSum[pair] = 0;
        sessionPairN[pair] = 0;
      }
      sessionPairs.length = 0;
      addLengthSession(sessionAnswers, length, between);
      sessionAnswers = [];
    },
  );

  const S = informativeSessions;
  const df = S - 1;
  const crit = df >= 1 ? criticalT(level, df) : Number.NaN;
  const correction = S > 1 ? S / (S - 1) : Number.NaN;
  // V = A⁺ M A⁺ · S/(S − 1).
  const half = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let c = 0; c < k; c++) for (let b = 0; b < k; b++) half[a * k + c]! += inverse[a * k + b]! * meat[b * k + c]!;
  const covariance = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let c = 0; c < k; c++) for (let b = 0; b < k; b++) covariance[a * k + c]! += half[a * k + b]! * inverse[b * k + c]! * correction;

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
    let variance = 0;
    for (let a = 0; a < k; a++) {
      estimate += contrast[a]! * beta[a]!;
      for (let b = 0; b < k; b++) variance += contrast[a]! * covariance[a * k + b]! * contrast[b]!;
    }
    return summary({ estimate, variance, crit, df, ...counts });
  };

  const recordsOf = (column: number): number => xtxDiagonalCount(columns, layout, column);
  const varianceOf = (contrast: Float64Array): number => {
    let variance = 0;
    for (let a = 0; a < k; a++) {
      if (contrast[a] === 0) continue;
      for (let b = 0; b < k; b++) variance += contrast[a]! * covariance[a * k + b]! * contrast[b]!;
    }
    return variance;
  };
  /**
   * Effects that are only relative (reviewers' offsets, positions) against a robust centre of the family: Tukey's
   * biweight M-estimate of their location (from the median), each member weighted by how far it sits from the
   * centre in its own standard errors — near 1 close by, 0 beyond 4.685. With no outlier it is close to the mean,
   * so intervals keep their level; a clearly harsh reviewer gets no weight, so it makes no one else look generous.
   */
  const relativeToCentre = (family: readonly { column: number; subject: string }[]): ScoreModelEffect[] => {
    if (family.length < 2) return [];
    const estimates = family.map((m) => beta[m.column]!);
    const weights = family.map(() => 1);
    const sorted = [...estimates].sort((x, y) => x - y);
    let centre = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    const contrastOf = (member: number): Float64Array => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      const contrast = new Float64Array(k);
      contrast[family[member]!.column]! += 1;
      family.forEach((m, j) => (contrast[m.column]! -= total > 0 ? weights[j]! / total : 1 / family.length));
      return contrast;
    };
    for (let iteration = 0; iteration < 100; iteration++) {
      family.forEach((_, j) => {
        const se = Math.sqrt(Math.max(0, varianceOf(contrastOf(j))));
        const distance = se > 0 ? Math.abs(estimates[j]! - centre) / se : Math.abs(estimates[j]! - centre) > 1e-12 ? Number.POSITIVE_INFINITY : 0;
        weights[j] = distance >= biweightC ? 0 : (1 - (distance / biweightC) ** 2) ** 2;
      });
      const total = weights.reduce((sum, w) => sum + w, 0);
      const next = total > 0 ? estimates.reduce((sum, e, j) => sum + weights[j]! * e, 0) / total : estimates.reduce((sum, e) => sum + e, 0) / estimates.length;
      const settled = Math.abs(next - centre) <= 1e-12 * Math.max(1, Math.abs(centre));
      centre = next;
      if (settled) break;
    }
    const out: ScoreModelEffect[] = [];
    family.forEach((member, j) => {
      const fit = estimateOf(contrastOf(j), { sampleSize: recordsOf(member.column), sessions: S });
      if (fit !== null) out.push({ subject: member.subject, weight: weights[j]!, ...fit });
    });
    return out;
  };

  const reviewerOffsets = relativeToCentre(layout.reviewerModels.map((m) => ({ column: layout.reviewerColumn[m]!, subject: columns.models[m]! })));
  const positionEffects = relativeToCentre(layout.positions.map((p) => ({ column: layout.positionColumn[p]!, subject: String(p) })));
  let selfPreference: ScoreModelEstimate | null = null;
  if (layout.selfColumn >= 0) {
    const contrast = new Float64Array(k);
    contrast[layout.selfColumn] = 1;
    selfPreference = estimateOf(contrast, { sampleSize: recordsOf(layout.selfColumn), sessions: S });
  }

  const affinity: ScoreModelEffect[] = [];
  for (let pair = 0; pair < pairCount; pair++) {
    const n = pairN[pair]!;
    if (n === 0 || pairSessions[pair]! < 2) continue;
    const ratio = pairSum[pair]! / n;
    const spread = pairSumSq[pair]! - 2 * ratio * pairCross[pair]! + ratio * ratio * pairNSq[pair]!;
    const clusters = pairSessions[pair]!;
    const variance = (clusters / (clusters - 1)) * Math.max(0, spread) / (n * n);
    const subject = `${columns.models[Math.floor(pair / models)]!}→${columns.models[pair % models]!}`;
    affinity.push({ subject, weight: 1, ...summary({ estimate: ratio, variance, crit: criticalT(level, clusters - 1), df: clusters - 1, sampleSize: n, sessions: clusters }) });
  }

  return {
    sessions: S,
    observations,
    level,
    reviewerOffsets,
    positionEffects,
    selfPreference,
    affinity,
    ...lengthFigures({ length, between, level }),
  };
}

function summary(spec: { estimate: number; variance: number; crit: number; df: number; sampleSize: number; sessions: number }): ScoreModelEstimate {
  const standardError = Math.sqrt(Math.max(0, spec.variance));
  const t = standardError > 0 ? spec.estimate / standardError : spec.estimate === 0 ? 0 : Number.POSITIVE_INFINITY;
  return {
    estimate: spec.estimate,
    standardError,
    lower: spec.estimate - spec.crit * standardError,
    upper: spec.estimate + spec.crit * standardError,
    pValue: Number.isFinite(t) ? studentTTwoSided(t, spec.df) : 0,
    sampleSize: spec.sampleSize,
    sessions: spec.sessions,
  };
}

/** Scored records that have a 1 in `column` (a reviewer's reviews, a position's, the self-reviews). */
function xtxDiagonalCount(columns: BiasColumns, layout: Layout, column: number): number {
  let n = 0;
  for (let i = 0; i < columns.length; i++) {
    if (Number.isNaN(columns.score[i]!)) continue;
    if (layout.reviewerColumn[columns.reviewer[i]!] === column || layout.positionColumn[columns.position[i]!] === column) n++;
    else if (column === layout.selfColumn && columns.reviewer[i] === columns.candidate[i]) n++;
  }
  return n;
}

interface LengthSums {
  sessions: number;
  sxx: number;
  sxy: number;
  syy: number;
  answers: number;
  /** Each session's within sums (sxx, sxy), in turn: the small-sample (CR2) correction needs each session's share. */
  perSession: number[];
}

interface BetweenSums {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  sxy: number;
  syy: number;
  records: number;
}

/** Adds one session's answers (length in thousands of characters, adjusted level) to the within and between sums. */
function addLengthSession(answers: readonly { x: number; y: number }[], within: LengthSums, between: BetweenSums): void {
  if (answers.length === 0) return;
  let mx = 0;
  let my = 0;
  for (const a of answers) {
    mx += a.x / answers.length;
    my += a.y / answers.length;
  }
  between.n++;
  between.sx += mx;
  between.sy += my;
  between.sxx += mx * mx;
  between.sxy += mx * my;
  between.syy += my * my;
  if (answers.length < 2) return;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const a of answers) {
    sxx += (a.x - mx) ** 2;
    sxy += (a.x - mx) * (a.y - my);
    syy += (a.y - my) ** 2;
  }
  if (sxx === 0) return;
  within.sessions++;
  within.answers += answers.length;
  within.sxx += sxx;
  within.sxy += sxy;
  within.syy += syy;
  within.perSession.push(sxx, sxy);
}

function lengthFigures(spec: { length: LengthSums; between: BetweenSums; level: number }): Pick<ScoreModelFit, 'lengthSlope' | 'lengthCorrelation' | 'betweenSessionLengthSlope'> {
  const { length: w, between: b, level } = spec;
  let lengthSlope: ScoreModelEstimate | null = null;
  let lengthCorrelation: number | null = null;
  if (w.sessions >= 2 && w.sxx > 0) {
    const slope = w.sxy / w.sxx;
    // CR2 (Bell & McCaffrey 2002): each session's score sxy_s − β·sxx_s scaled by 1/√(1 − h_s), h_s = sxx_s/Σ sxx
    // its leverage on a one-regressor fit; CR1's S/(S − 1) under-covers at 20 sessions.
    // Its degrees of freedom (Satterthwaite, homoskedastic working model): (Σ sxx_s)² / Σ sxx_s², at most S − 1.
    let spread = 0;
    let sxxSquares = 0;
    for (let j = 0; j < w.perSession.length; j += 2) {
      const sxx = w.perSession[j]!;
      const u = w.perSession[j + 1]! - slope * sxx;
      spread += (u * u) / Math.max(1e-12, 1 - sxx / w.sxx);
      sxxSquares += sxx * sxx;
    }
    const variance = spread / (w.sxx * w.sxx);
    const df = Math.max(1, Math.min(w.sessions - 1, (w.sxx * w.sxx) / sxxSquares));
    lengthSlope = summary({ estimate: slope, variance, crit: criticalT(level, df), df, sampleSize: w.answers, sessions: w.sessions });
    if (w.syy > 0) lengthCorrelation = w.sxy / Math.sqrt(w.sxx * w.syy);
  }
  let betweenSessionLengthSlope: ScoreModelEstimate | null = null;
  if (b.n >= 3) {
    const sxx = b.sxx - (b.sx * b.sx) / b.n;
    const sxy = b.sxy - (b.sx * b.sy) / b.n;
    const syy = b.syy - (b.sy * b.sy) / b.n;
    if (sxx > 0) {
      // Least squares over sessions (one point each, independent): residual variance on n − 2 df.
      const slope = sxy / sxx;
      const variance = Math.max(0, syy - slope * sxy) / (b.n - 2) / sxx;
      betweenSessionLengthSlope = summary({ estimate: slope, variance, crit: criticalT(level, b.n - 2), df: b.n - 2, sampleSize: b.records, sessions: b.n });
    }
  }
  return { lengthSlope, lengthCorrelation, betweenSessionLengthSlope };
}
