import type { BiasColumns } from './bias-columns.js';
import type { BiasObservation } from './bias-observation.js';
import { BiasAuditError } from './bias-audit-error.js';
import { calibratedView } from './calibrated-view.js';
import type { CalibratedFigure } from './calibrated-view.js';
import { createSeededSfc32 } from './create-seeded-sfc32.js';
import { bootstrapTInterval, jackknifeStandardError } from './effective-judges-interval.js';
import { assertLevel } from './internal/assert.js';
import { bootstrapInterval } from './internal/bootstrap-interval.js';
import { observationsToColumns } from './observations-to-columns.js';
import { studentTQuantile } from './student-t-distribution.js';

/** Most resampling units: beyond this many sessions, contiguous groups of sessions are resampled. */
const MAX_UNITS = 4000;
/** Most groups the jackknife inside each bootstrap replicate deletes one at a time (beyond this many units, groups of them). */
const MAX_JACKKNIFE_GROUPS = 100;
/** Tukey's biweight constant: a pair this many of its own standard errors from the typical variance gets no weight. */
const BIWEIGHT_REACH = 4.685;
/** How many of its own standard errors every pair must sit from the biweight's reach for ρ̄ to count as smooth. */
const SETTLED_MARGIN = 2;
/** The least share of ρ̄'s jackknife variance the weights-held part must make up for ρ̄ to count as smooth. */
const SMOOTH_SHARE = 0.75;
/**
 * The fewest sessions at which n_eff's and the pairs' intervals are claimed to hold their level (issue 31's study);
 * below, the statement says the interval is less sure than its level (89.5% at 20 sessions with two blocks of alike judges).
 */
export const EFFECTIVE_JUDGES_CLAIMED_FROM = 50;

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
 * independent judges would give. Per pair, 2/(1 + ρ). Bounded to [1, R].
 *
 * Intervals, over sessions: ρ̄'s is a bootstrap-t interval (Efron and Tibshirani 1993, ch. 12), n_eff's its map,
 * except where ρ̄ is a smooth function of the pairs' variances (below). Each replicate recomputes σ̂² and every ρ, and
 * ρ̄'s own standard error SE* by the delete-one jackknife (over at most 100 groups: of contiguous sessions in the data,
 * of draws in a replicate); the interval is ρ̄ − t*₍₁₋α/₂₎·SE … ρ̄ − t*₍α/₂₎·SE, t* = (ρ̄* − ρ̄)/SE* and SE the data's
 * jackknife standard error. Each pair's ρ (and 2/(1 + ρ)) keeps the percentile interval (Hesterberg-expanded) from the
 * same replicates.
 *
 * Why ρ̄ is studentised: with σ̂² the weighted mean of the pairs' Var(d) under the biweight's weights w_p, ρ̄ = (1/P)·
 * Σ(1 − w_p)·ρ_p exactly (equal answers per pair). The discounted pairs' part is smooth; the typical pairs' part is
 * a biweight less a mean of nearly equal variances, of third order in their noise, with no first-order part at the
 * truth. Such a part's spread follows no standard rule: a percentile bootstrap's replicates scatter each distance
 * around the observed one, √2 as wide, and overstated n̂'s spread 2–3 times (covering 97.5–100%); the jackknife's SE
 * follows the store's own error (their correlation across stores was 0.8 with one correlated pair), so a t interval
 * on it covered 100% (Efron and Stein 1981: a delete-one jackknife counts an order-k part k times). Studentised by
 * that same SE, the error's ratio to it is what the bootstrap has to reproduce, and it does closely enough:
 * 95.5–96% with one correlated pair at 20, 50 and 300 sessions (the bias-audit README's issue-31 study). At 20
 * sessions with two blocks the biweight cannot yet tell the blocks' pairs from the typical ones (n̂ 3.9 on average
 * for 2.58, SD 0.7) and the interval covers 89.5%, every miss above the truth (how alike the judges err
 * understated): the intervals are claimed from `EFFECTIVE_JUDGES_CLAIMED_FROM` sessions, and below it the statement
 * says the interval is less sure than its level. Where every pair errs independently the truth is R, n_eff's bound:
 * the interval claims fewer than R in 2.5% of such councils at 20 sessions, none at 50 or 300.
 * A pair's ρ is smooth in the data (σ̂²'s third-order part is small beside its own Var(d)'s noise), so the percentile
 * suits it: studentised as ρ̄ is, the typical pairs' intervals covered 90–93% at 50 and 300 sessions against the
 * percentile's 93–97%.
 *
 * Where ρ̄ is smooth the interval is the jackknife's t interval instead, ρ̄ ± t₍₁₋α/₂; U−1₎·SE₁, SE₁ the delete-one
 * jackknife's standard error over the U resampling units themselves (the sessions, or beyond `MAX_UNITS` that many
 * contiguous groups of them) (Efron and Tibshirani 1993, ch. 11; Miller 1974). ρ̄ counts
 * as smooth when (1) every pair sits at least `SETTLED_MARGIN` (2) of its own standard errors from the biweight's reach
 * (its distance z from 2σ̂², counted as the biweight counts it, has |z| ≤ 2.685 or ≥ 6.685), so a resample is
 * unlikely to carry a pair across it, and (2) the same jackknife with every pair's weight held at the full data's (the
 * smooth part alone) has at least `SMOOTH_SHARE` (3/4) of its variance. As the jackknife counts the third-order part
 * three times, (2) keeps that part's variance below a ninth of the smooth part's, so SE₁ overstates the error's spread
 * by at most √((1 + 3/9)/(1 + 1/9)) = 1.095. There it is the bootstrap-t that errs: its replicates scatter the typical
 * pairs' variances √2 as widely as the data do, so their third-order part has several times its real variance, and
 * SE*, which counts it three times, follows each replicate's own distance. With two blocks at 300 sessions (400
 * stores) the replicates' spread was 0.0082 and SE* 0.0087 against a real spread of ρ̂ of 0.0069 and an SE of 0.0069;
 * t*'s 2.5% and 97.5% points came out at −1.76 and +1.80 on average where the real error's, in the data's SE, were
 * −2.0 and +2.1, and the interval covered 91.5% (over 800 stores 92.9%; this rule 95.4%, 94.6% with the 100 groups'
 * SE in place of SE₁). Two blocks at 300 sessions are smooth by this rule in about 85% of stores; one correlated
 * pair, whose third-order part is most of its error (the smooth part a fifth of the jackknife's variance at the
 * median), in about 3%; the stores at 20 and 50 sessions with two blocks, where the blocks' pairs sit near the reach,
 * and councils whose every pair is typical (third order only), in none of 400.
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

  const P = keys.length;
  const pairSums = keys.map((key) => sums.get(key)!);
  /** Adds unit u's (answers, Σd, Σd²) of every counted pair into `into` at pair-major offset `at` (P × 3 values). */
  const addUnit = (into: Float64Array, at: number, u: number): void => {
    for (let p = 0; p < P; p++) {
      const pair = pairSums[p]!;
      into[at + p * 3]! += pair[u * 3]!;
      into[at + p * 3 + 1]! += pair[u * 3 + 1]!;
      into[at + p * 3 + 2]! += pair[u * 3 + 2]!;
    }
  };
  /** Each counted pair's Var(d) from its totals (NaN below 2 answers), into `into`. */
  const variancesOf = (totals: Float64Array, into: Float64Array = new Float64Array(P)): Float64Array => {
    for (let p = 0; p < P; p++) {
      const n = totals[p * 3]!;
      const sum = totals[p * 3 + 1]!;
      into[p] = n >= 2 ? (totals[p * 3 + 2]! - (sum * sum) / n) / (n - 1) : Number.NaN;
    }
    return into;
  };
  /**
   * 2σ̂², the typical pairs' Var(d): Tukey's biweight location of the pairs' variances, each weighted by its
   * answers less one (a pooled variance) and its distance from the centre counted in its own standard error
   * (centre·√(2/(n − 1)), a variance's under normality), iterated from `start`. Pairs that err alike sit far below
   * the independent ones and get no weight, so a minority of them cannot move it; the weights change smoothly with
   * the data, so a bootstrap replicate recomputes them.
   */
  const typicalVariance = (variances: Float64Array, totals: Float64Array, start: number): number => {
    let centre = start;
    for (let iteration = 0; iteration < 100; iteration++) {
      let weighted = 0;
      let total = 0;
      for (let p = 0; p < P; p++) {
        const v = variances[p]!;
        const n = totals[p * 3]!;
        if (!Number.isFinite(v) || n < 2) continue;
        const u = (v - centre) / (BIWEIGHT_REACH * centre * Math.sqrt(2 / (n - 1)));
        if (Math.abs(u) >= 1) continue;
        const w = (n - 1) * (1 - u * u) ** 2;
        weighted += w * v;
        total += w;
      }
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
  const fullTotals = new Float64Array(P * 3);
  for (let u = 0; u < units; u++) addUnit(fullTotals, 0, u);
  const fullVariances = variancesOf(fullTotals);
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
  const fullTypical = start > 0 ? typicalVariance(fullVariances, fullTotals, start) : Number.NaN;
  // Each pair's distance from 2σ̂² in its own standard errors (as the biweight counts it), and its weight there.
  const distances = Float64Array.from({ length: P }, (_, p) =>
    fullTotals[p * 3]! >= 2
      ? (fullVariances[p]! - fullTypical) / (fullTypical * Math.sqrt(2 / (fullTotals[p * 3]! - 1)))
      : Number.NaN,
  );
  const fullWeights = distances.map((z, p) =>
    Number.isFinite(z) && Math.abs(z) < BIWEIGHT_REACH
      ? (fullTotals[p * 3]! - 1) * (1 - (z / BIWEIGHT_REACH) ** 2) ** 2
      : 0,
  );
  /** The pairs' variances averaged with the weights held at the full data's (the biweight's last step, weights fixed). */
  const heldMean = (variances: Float64Array, weights: Float64Array): number => {
    let weighted = 0;
    let total = 0;
    for (let p = 0; p < P; p++) {
      if (!Number.isFinite(variances[p]!) || weights[p] === 0) continue;
      weighted += weights[p]! * variances[p]!;
      total += weights[p]!;
    }
    return total > 0 ? weighted / total : Number.NaN;
  };

  /**
   * [σ̂², ρ̄, n_eff, ρ per pair…] from the pairs' totals: the full data's (`start` null) or a resample's, whose σ̂² the
   * biweight recomputes from `start` (2σ̂² of the full data for a replicate, of the replicate for its jackknife).
   */
  const scratch = new Float64Array(P);
  const statistic = (totals: Float64Array, start: number | null, held?: Float64Array): Float64Array => {
    const out = new Float64Array(3 + P).fill(Number.NaN);
    const variances = start === null ? fullVariances : variancesOf(totals, scratch);
    const sigma2 =
      (start === null || !(fullTypical > 0)
        ? fullTypical
        : held === undefined
          ? typicalVariance(variances, totals, start)
          : heldMean(variances, held)) / 2;
    if (!(sigma2 > 0)) return out;
    let total = 0;
    let counted = 0;
    for (let p = 0; p < P; p++) {
      const v = variances[p]!;
      if (!Number.isFinite(v)) continue;
      const rho = Math.min(1, Math.max(-1, 1 - v / (2 * sigma2)));
      out[3 + p] = rho;
      total += rho;
      counted++;
    }
    const meanRho = total / counted;
    out[0] = sigma2;
    out[1] = meanRho;
    out[2] = neffOf(meanRho);
    return out;
  };
  // R/(1 + (R − 1)·ρ̄) bounded to [1, R]; at ρ̄ ≤ 0 it is R (the formula passes through infinity to negative values
  // below −1/(R − 1), which must not read as 1).
  const neffOf = (meanRho: number): number =>
    meanRho <= 0 ? R : Math.min(R, Math.max(1, R / (1 + (R - 1) * meanRho)));

  /**
   * The delete-a-group jackknife standard error of ρ̄ from per-group totals (G × P × 3), each value refitted without
   * group g (its biweight started from `start`).
   */
  const jackknifeError = (groups: Float64Array, G: number, start: number): number => {
    const total = new Float64Array(P * 3);
    for (let g = 0; g < G; g++) for (let i = 0; i < P * 3; i++) total[i]! += groups[g * P * 3 + i]!;
    const left = new Float64Array(P * 3);
    const values = new Float64Array(G);
    for (let g = 0; g < G; g++) {
      for (let i = 0; i < P * 3; i++) left[i] = total[i]! - groups[g * P * 3 + i]!;
      values[g] = statistic(left, start)[1]!;
    }
    return jackknifeStandardError(values);
  };

  /** The delete-one jackknife standard error of ρ̄ over the units themselves (weights held at `held`'s, if given). */
  const unitJackknifeError = (held?: Float64Array): number => {
    const left = new Float64Array(P * 3);
    const values = new Float64Array(units);
    for (let u = 0; u < units; u++) {
      for (let p = 0; p < P; p++)
        for (let k = 0; k < 3; k++) left[p * 3 + k] = fullTotals[p * 3 + k]! - pairSums[p]![u * 3 + k]!;
      values[u] = statistic(left, fullTypical, held)[1]!;
    }
    return jackknifeStandardError(values);
  };

  // Groups of units the jackknife deletes one at a time: unit (or, in a replicate, draw) j is in group ⌊j·G/units⌋.
  const G = Math.min(units, MAX_JACKKNIFE_GROUPS);
  const groups = new Float64Array(G * P * 3);
  for (let u = 0; u < units; u++) addUnit(groups, Math.floor((u * G) / units) * P * 3, u);
  const full = statistic(fullTotals, null);
  const B = units >= 2 && keys.length > 0 ? resamples : 0;
  const standardError = B > 0 ? jackknifeError(groups, G, fullTypical) : Number.NaN;
  // Is ρ̄ a smooth function of the pairs' variances here? Every pair settled (no resample is likely to carry one across
  // the biweight's reach) and the weights-held jackknife's variance (the smooth part) most of the full one's.
  const settled = distances.every(
    (z) => Math.abs(z) <= BIWEIGHT_REACH - SETTLED_MARGIN || Math.abs(z) >= BIWEIGHT_REACH + SETTLED_MARGIN,
  );
  const unitError = B > 0 && settled ? unitJackknifeError() : Number.NaN;
  const smoothError = unitError > 0 ? unitJackknifeError(fullWeights) : Number.NaN;
  const smooth = unitError > 0 && smoothError ** 2 >= SMOOTH_SHARE * unitError ** 2;
  // ρ̄'s bootstrap-t pivots, (ρ̄* − ρ̄)/SE*, SE* the replicate's own jackknife standard error (0 where the replicate
  // equals the estimate exactly, as where two reviewers always agree), and every pair's ρ*.
  const pivots = new Float64Array(B);
  const pairReplicates = keys.map(() => new Float64Array(B));
  const random = createSeededSfc32(options.seed ?? 1);
  const replicateTotals = new Float64Array(P * 3);
  for (let b = 0; b < B; b++) {
    groups.fill(0);
    for (let j = 0; j < units; j++) addUnit(groups, Math.floor((j * G) / units) * P * 3, random.integer(units));
    replicateTotals.fill(0);
    for (let g = 0; g < G; g++) for (let i = 0; i < P * 3; i++) replicateTotals[i]! += groups[g * P * 3 + i]!;
    const value = statistic(replicateTotals, fullTypical);
    const distance = value[1]! - full[1]!;
    if (!smooth) pivots[b] = distance === 0 ? 0 : distance / jackknifeError(groups, G, 2 * value[0]!);
    for (let p = 0; p < P; p++) pairReplicates[p]![b] = value[3 + p]!;
  }
  const figureOf = (estimate: number, interval: [number, number] | null): CalibratedFigure =>
    interval === null || !Number.isFinite(estimate)
      ? { estimate, lower: null, upper: null }
      : { estimate, lower: interval[0], upper: interval[1] };
  const percentileOf = (estimate: number, values: Float64Array): [number, number] | null => {
    if (B === 0) return null;
    const interval = bootstrapInterval({
      estimate,
      replicates: values,
      level,
      method: 'percentile',
      expansionSampleSize: units,
    });
    return interval.computable ? [interval.lower, interval.upper] : null;
  };
  const pairs: JudgePair[] = keys.map((key, p) => {
    const rho = full[3 + p]!;
    return {
      reviewer: models[Math.floor(key / M)]!,
      other: models[key % M]!,
      answers: fullTotals[p * 3]!,
      correlation: figureOf(rho, percentileOf(rho, pairReplicates[p]!)),
      effective: figureOf(
        2 / (1 + rho),
        percentileOf(
          2 / (1 + rho),
          pairReplicates[p]!.map((r) => 2 / (1 + r)),
        ),
      ),
    };
  });
  const meanBootstrapT =
    B === 0
      ? null
      : smooth
        ? {
            lower: full[1]! - studentTQuantile(1 - (1 - level) / 2, units - 1) * unitError,
            upper: full[1]! + studentTQuantile(1 - (1 - level) / 2, units - 1) * unitError,
          }
        : bootstrapTInterval({ estimate: full[1]!, standardError, pivots, level });
  // Clamped to a correlation's [−1, 1].
  const meanInterval: [number, number] | null =
    meanBootstrapT === null
      ? null
      : [Math.min(1, Math.max(-1, meanBootstrapT.lower)), Math.min(1, Math.max(-1, meanBootstrapT.upper))];
  const effective = figureOf(
    full[2]!,
    meanInterval === null ? null : [neffOf(meanInterval[1]), neffOf(meanInterval[0])],
  );
  const factor = Number.isFinite(full[2]!) ? Math.sqrt(R / full[2]!) : Number.NaN;
  return {
    reviewers: R,
    effective,
    meanCorrelation: figureOf(full[1]!, meanInterval),
    standardErrorFactor: factor,
    errorVariance: full[0]!,
    pairs,
    sessions: S,
    level,
    resamples: B,
    statement: Number.isFinite(full[2]!)
      ? `${R} judges, ${full[2]!.toFixed(1)} effective: their errors on the same answer correlate ${full[1]!.toFixed(2)} on average, so the reviewers' part of a leaderboard interval is ${factor.toFixed(2)} times as wide as ${R} independent judges would make it.${
          S < EFFECTIVE_JUDGES_CLAIMED_FROM && effective.lower !== null
            ? ` With ${S} sessions (under ${EFFECTIVE_JUDGES_CLAIMED_FROM}) the interval is less sure than it says: in simulated 20-session councils where two groups of judges each err alike it held the true figure in 89.5% of them, and lay above it when it missed.`
            : ''
        }`
      : `Not computable: needs pairs of reviewers that scored ${minAnswers} or more of the same answers.`,
  };
}
