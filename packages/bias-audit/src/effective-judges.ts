import type { BiasColumns } from './bias-columns.js';
import type { BiasObservation } from './bias-observation.js';
import { BiasAuditError } from './bias-audit-error.js';
import { calibratedView } from './calibrated-view.js';
import type { CalibratedFigure } from './calibrated-view.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';
import { assertLevel } from './internal/assert.js';
import { bootstrapInterval } from './internal/bootstrap-interval.js';
import { observationsToColumns } from './observations-to-columns.js';

/** Most resampling units: beyond this many sessions, contiguous groups of sessions are resampled. */
const MAX_UNITS = 4000;

export interface EffectiveJudgesOptions {
  level?: number;
  /** Bootstrap replicates over sessions. Default 1000; 0 gives no intervals. */
  resamples?: number;
  seed?: number;
  /** Answers two reviewers must both have scored for their pair to count. Default 10. */
  minAnswers?: number;
}

export interface JudgePair {
  reviewer: string;
  other: string;
  /** Answers both scored (self-reviews left out). */
  answers: number;
  /** Correlation of the two reviewers' errors on the same answer. */
  correlation: CalibratedFigure;
  /** 2/(1 + ρ): how many independent judges the two are worth (1 when they always err alike, 2 when independently). */
  effective: CalibratedFigure;
}

export interface EffectiveJudges {
  /** Reviewers in at least one counted pair. */
  reviewers: number;
  /** R / (1 + (R − 1)·ρ̄): how many independent judges the council's mean score is worth. */
  effective: CalibratedFigure;
  /** ρ̄: the mean over pairs of the reviewers' error correlation. */
  meanCorrelation: CalibratedFigure;
  /** √(R / n_eff): how many times wider the reviewers' share of a leaderboard interval is than R independent judges would make it. */
  standardErrorFactor: number;
  /** σ̂²: one reviewer's error variance on an answer (half the typical pairs' disagreement variance). */
  errorVariance: number;
  pairs: JudgePair[];
  sessions: number;
  level: number;
  resamples: number;
  /** e.g. "5 judges, 2.6 effective: …" */
  statement: string;
}

/**
 * How many judges the council really has (issue 31 item 4). Two reviewers scoring the same answer disagree by
 * d = (y_r − π_{p_r}) − (y_s − π_{p_s}) (display-position effects from `calibratedView` taken out); the answer's
 * quality cancels, and Var(d) = σ_r² + σ_s² − 2·Cov(e_r, e_s). Errors shared by every reviewer cannot be told from
 * the answer's quality, so the correlation is read under two stated assumptions: reviewers err equally (σ_r = σ),
 * and the typical pair of reviewers errs independently, as the report reads offsets from the typical reviewer: 2σ̂²
 * is a robust location of the pairs' Var(d) (`typicalVariance`: Tukey's biweight from their majority core), so a
 * minority of pairs that err alike cannot move it. Then
 * ρ_rs = 1 − Var(d_rs)/(2σ̂²), each pair over the answers both scored. Where most pairs err alike the assumption
 * fails, the shared part reads as quality, and n_eff is overstated.
 *
 * n_eff = R / (1 + (R − 1)·ρ̄) (Kish's design effect for a mean of equally weighted, equally noisy units): the
 * number of independent judges whose mean score has the same error variance as the council's mean, σ²·(1 + (R −
 * 1)·ρ̄)/R. It is chosen over the eigenvalue ratio (Σλ)²/Σλ² because a leaderboard averages scores, so this is the
 * figure its uncertainty follows: the reviewers' part of a model's standard error is √(R/n_eff) times what R
 * independent judges would give. Per pair, 2/(1 + ρ). Bounded to [1, R]. Intervals: percentile bootstrap over
 * sessions (Hesterberg-expanded), each replicate recomputing σ̂² and every ρ.
 *
 * The council's interval is conservative, and knowingly so. With σ̂² the weighted mean of the pairs' Var(d) under the
 * biweight's weights w_p, ρ̄ = (1/P)·Σ(1 − w_p)·ρ_p exactly (equal answers per pair): a soft classification of pairs
 * by their distance in their own standard errors, whose spread a bootstrap overstates (a replicate's distances
 * scatter around the observed ones, not around 0): 2–3 times n̂'s SD across stores at 50 sessions. Freezing the
 * weights leaves the classification's variability out (too narrow); re-centring the replicates on the assumption
 * fails at 20 sessions, where the classification itself is unsure (the bias-audit README's issue-31 study has the
 * numbers). Where every pair errs independently the interval's top is R: read its lower bound.
 */
export function effectiveJudges(
  input: BiasColumns | readonly BiasObservation[],
  options: EffectiveJudgesOptions = {},
): EffectiveJudges {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const resamples = options.resamples ?? 1000;
  const minAnswers = options.minAnswers ?? 10;
  if (!Number.isInteger(resamples) || resamples < 0 || !Number.isInteger(minAnswers) || minAnswers < 2)
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `resamples must be a whole number ≥ 0 and minAnswers one ≥ 2, got ${resamples} and ${minAnswers}.`,
    });
  const columns: BiasColumns = Array.isArray(input)
    ? observationsToColumns(input as readonly BiasObservation[])
    : (input as BiasColumns);
  const positionEffect = new Map(
    calibratedView(columns, { resamples: 0 }).positionEffects.map((p) => [p.position, p.estimate]),
  );
  const { models, score, reviewer, candidate, position, sessionStart } = columns;
  const M = models.length;
  const used = (i: number): boolean => !Number.isNaN(score[i]!) && reviewer[i] !== candidate[i];
  const pairIndex = (r: number, s: number): number => (r < s ? r * M + s : s * M + r);

  // Per unit (a session, or a group of them) and pair: answers, Σd, Σd².
  const sessions: number[] = [];
  for (let s = 0; s < columns.sessionIds.length; s++) {
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++)
      if (used(i)) {
        sessions.push(s);
        break;
      }
  }
  const S = sessions.length;
  const units = Math.min(S, MAX_UNITS);
  const sums = new Map<number, Float64Array>(); // pair → units × 3
  sessions.forEach((s, j) => {
    const unit = Math.floor((j * units) / S);
    const byAnswer = new Map<number, number[]>();
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) {
      if (!used(i)) continue;
      const list = byAnswer.get(candidate[i]!);
      if (list === undefined) byAnswer.set(candidate[i]!, [i]);
      else list.push(i);
    }
    for (const records of byAnswer.values()) {
      for (let a = 0; a < records.length; a++) {
        for (let b = a + 1; b < records.length; b++) {
          const i = records[a]!;
          const k = records[b]!;
          if (reviewer[i] === reviewer[k]) continue;
          const first = reviewer[i]! < reviewer[k]! ? i : k;
          const second = first === i ? k : i;
          const d =
            score[first]! -
            (positionEffect.get(position[first]!) ?? 0) -
            (score[second]! - (positionEffect.get(position[second]!) ?? 0));
          const key = pairIndex(reviewer[i]!, reviewer[k]!);
          let pair = sums.get(key);
          if (pair === undefined) sums.set(key, (pair = new Float64Array(units * 3)));
          pair[unit * 3]! += 1;
          pair[unit * 3 + 1]! += d;
          pair[unit * 3 + 2]! += d * d;
        }
      }
    }
  });
  const keys = [...sums.keys()]
    .filter((key) => {
      const pair = sums.get(key)!;
      let n = 0;
      for (let u = 0; u < units; u++) n += pair[u * 3]!;
      return n >= minAnswers;
    })
    .sort((a, b) => {
      const name = (key: number): string => `${models[Math.floor(key / M)]}\u0000${models[key % M]}`;
      return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
    });
  const judges = new Set(keys.flatMap((key) => [Math.floor(key / M), key % M]));
  const R = judges.size;

  /** Each counted pair's Var(d) for one set of unit weights (NaN below 2 answers). */
  const pairVariances = (weights: Float64Array | null): number[] =>
    keys.map((key) => {
      const pair = sums.get(key)!;
      let n = 0;
      let sum = 0;
      let squares = 0;
      for (let u = 0; u < units; u++) {
        const w = weights === null ? 1 : weights[u]!;
        n += w * pair[u * 3]!;
        sum += w * pair[u * 3 + 1]!;
        squares += w * pair[u * 3 + 2]!;
      }
      return n >= 2 ? (squares - (sum * sum) / n) / (n - 1) : Number.NaN;
    });
  const answersOf = (weights: Float64Array | null): number[] =>
    keys.map((key) => {
      const pair = sums.get(key)!;
      let n = 0;
      for (let u = 0; u < units; u++) n += (weights === null ? 1 : weights[u]!) * pair[u * 3]!;
      return n;
    });
  /**
   * 2σ̂², the typical pairs' Var(d): Tukey's biweight location of the pairs' variances, each weighted by its
   * answers less one (a pooled variance) and its distance from the centre counted in its own standard error
   * (centre·√(2/(n − 1)), a variance's under normality), iterated from `start`. Pairs that err alike sit far below
   * the independent ones and get no weight, so a minority of them cannot move it; the weights change smoothly with
   * the data, so a bootstrap replicate recomputes them.
   */
  const typicalVariance = (variances: readonly number[], answers: readonly number[], start: number): number => {
    let centre = start;
    for (let iteration = 0; iteration < 100; iteration++) {
      let weighted = 0;
      let total = 0;
      variances.forEach((v, p) => {
        const n = answers[p]!;
        if (!Number.isFinite(v) || n < 2) return;
        const u = (v - centre) / (4.685 * centre * Math.sqrt(2 / (n - 1)));
        if (Math.abs(u) >= 1) return;
        const w = (n - 1) * (1 - u * u) ** 2;
        weighted += w * v;
        total += w;
      });
      const next = total > 0 ? weighted / total : centre;
      const done = Math.abs(next - centre) <= 1e-12 * centre;
      centre = next;
      if (done) break;
    }
    return centre;
  };
  // The start: the majority core of pairs, the ⌊P/2⌋ + 1 variances, consecutive when sorted, that agree best
  // relative to their size (least squared coefficient of variation), as the report's typical reviewer starts from
  // its majority core; its mean starts the biweight on the full data, whose result starts every replicate's.
  const fullVariances = pairVariances(null);
  const fullAnswers = answersOf(null);
  const start = ((): number => {
    const sorted = fullVariances.filter((v) => Number.isFinite(v)).sort((x, y) => x - y);
    const h = Math.floor(sorted.length / 2) + 1;
    let best = Number.POSITIVE_INFINITY;
    let chosen = Number.NaN;
    for (let first = 0; first + h <= sorted.length; first++) {
      const window = sorted.slice(first, first + h);
      const mean = window.reduce((total, v) => total + v, 0) / h;
      const spread = window.reduce((total, v) => total + (v - mean) ** 2, 0);
      const cv2 = mean > 0 ? spread / (h * mean * mean) : Number.POSITIVE_INFINITY;
      if (cv2 < best || Number.isNaN(chosen)) {
        best = cv2;
        chosen = mean;
      }
    }
    return chosen;
  })();
  const fullTypical = start > 0 ? typicalVariance(fullVariances, fullAnswers, start) : Number.NaN;

  /** [σ̂², ρ̄, n_eff, ρ per pair…] for one set of unit weights. */
  const statistic = (weights: Float64Array | null): Float64Array => {
    const out = new Float64Array(3 + keys.length).fill(Number.NaN);
    const variances = weights === null ? fullVariances : pairVariances(weights);
    const sigma2 =
      (weights === null || !(fullTypical > 0)
        ? fullTypical
        : typicalVariance(variances, answersOf(weights), fullTypical)) / 2;
    if (!(sigma2 > 0)) return out;
    let total = 0;
    let counted = 0;
    variances.forEach((v, p) => {
      if (!Number.isFinite(v)) return;
      const rho = Math.min(1, Math.max(-1, 1 - v / (2 * sigma2)));
      out[3 + p] = rho;
      total += rho;
      counted++;
    });
    const meanRho = total / counted;
    out[0] = sigma2;
    out[1] = meanRho;
    out[2] = Math.min(R, Math.max(1, R / (1 + (R - 1) * meanRho)));
    return out;
  };

  const full = statistic(null);
  const B = units >= 2 && keys.length > 0 ? resamples : 0;
  const replicates = Array.from({ length: 3 + keys.length }, () => new Float64Array(B));
  const random = createSeededSfc32(options.seed ?? 1);
  const weights = new Float64Array(units);
  for (let b = 0; b < B; b++) {
    weights.fill(0);
    for (let j = 0; j < units; j++) weights[random.integer(units)]! += 1;
    const value = statistic(weights);
    for (let a = 0; a < value.length; a++) replicates[a]![b] = value[a]!;
  }
  const figureOf = (estimate: number, values: Float64Array): CalibratedFigure => {
    if (B === 0 || !Number.isFinite(estimate)) return { estimate, lower: null, upper: null };
    const interval = bootstrapInterval({
      estimate,
      replicates: values,
      level,
      method: 'percentile',
      expansionSampleSize: units,
    });
    return interval.computable
      ? { estimate, lower: interval.lower, upper: interval.upper }
      : { estimate, lower: null, upper: null };
  };
  const pairs: JudgePair[] = keys.map((key, p) => {
    const pair = sums.get(key)!;
    let answers = 0;
    for (let u = 0; u < units; u++) answers += pair[u * 3]!;
    const rho = full[3 + p]!;
    const effectiveReplicates = replicates[3 + p]!.map((r) => 2 / (1 + r));
    return {
      reviewer: models[Math.floor(key / M)]!,
      other: models[key % M]!,
      answers,
      correlation: figureOf(rho, replicates[3 + p]!),
      effective: figureOf(2 / (1 + rho), effectiveReplicates),
    };
  });
  const effective = figureOf(full[2]!, replicates[2]!);
  const factor = Number.isFinite(full[2]!) ? Math.sqrt(R / full[2]!) : Number.NaN;
  return {
    reviewers: R,
    effective,
    meanCorrelation: figureOf(full[1]!, replicates[1]!),
    standardErrorFactor: factor,
    errorVariance: full[0]!,
    pairs,
    sessions: S,
    level,
    resamples: B,
    statement: Number.isFinite(full[2]!)
      ? `${R} judges, ${full[2]!.toFixed(1)} effective: their errors on the same answer correlate ${full[1]!.toFixed(2)} on average, so the reviewers' part of a leaderboard interval is ${factor.toFixed(2)} times as wide as ${R} independent judges would make it.`
      : `Not computable: needs pairs of reviewers that scored ${minAnswers} or more of the same answers.`,
  };
}
