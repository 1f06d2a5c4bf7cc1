import type { PairSums } from './affinity-figures.js';
import type { BetweenSums, LengthSums } from './length-figures.js';
import { MemoryLayout, scoreKernels } from './score-kernels.js';
import { nameRanks } from './score-model-design.js';
import type { ScoreModelSource } from './score-session-stats.js';

/** What the fit's second pass adds up over the sessions, given β̂. */
export interface ResidualSums {
  /** Σ over informative sessions of score_s score_s' (k × k), score_s = X̃_s'ẽ_s: the sandwich's meat. */
  meat: Float64Array;
  /** Per reviewer → author pair: its residuals' sums and their cross-products with the sessions' scores. */
  pairs: PairSums;
  /** The answers' lengths against their adjusted levels, within and between sessions. */
  length: LengthSums;
  between: BetweenSums;
  /** Sessions with a scored record in a column of the design (they enter the meat). */
  informativeSessions: number;
  /** Σe² and Σỹ² over all sessions. */
  residualSquares: number;
  totalSquares: number;
}

/**
 * The fit's pass 2: each session's score X̃_s'ẽ_s = X̃_s'ỹ_s − X̃_s'X̃_s β̂ into the meat, its residual sum of
 * squares, its pairs' residuals and its answers' adjusted levels. `pairDesign` is pass 1's (it becomes
 * `pairs.design`).
 */
export function sumScoreResiduals(
  source: ScoreModelSource,
  fit: { beta: Float64Array; pairDesign: Float64Array; pairRecords: Float64Array; pairDeviation: Float64Array },
  options: { lengthWithoutPosition?: boolean } = {},
): ResidualSums {
  const { beta } = fit;
  const { k } = source.layout;
  // The answers' levels for length are adjusted for position unless position is not estimable (`lengthWithoutPosition`):
  // there β̂'s position effects rest on the few reviewers whose own answer moved the others by a place, and their
  // error, shared by every session and tied to length order, is not in the slope's session-clustered error.
  const lengthBeta = new Float64Array(beta);
  if (options.lengthWithoutPosition === true) for (const c of source.layout.positionColumn.values()) lengthBeta[c] = 0;
  const models = source.models.length;
  const pairCount = models * models;
  // The pairs with records, numbered densely in the members' name order (reviewer, then author), as the same
  // records' summaries number them: their sessions' cross-products are P × P (P ≤ m(m − 1)).
  const rank = nameRanks(source.models);
  const key = (p: number): number => rank[Math.floor(p / models)]! * models + rank[p % models]!;
  const usedPairs: number[] = [];
  fit.pairRecords.forEach((n, p) => {
    if (n > 0) usedPairs.push(p);
  });
  usedPairs.sort((a, b) => key(a) - key(b));
  const index = new Int32Array(pairCount).fill(-1);
  usedPairs.forEach((p, i) => (index[p] = i));
  const P = usedPairs.length;
  // Each pair's mean residual, known before this pass from pass 1's sums: ē_p = (Σỹ − g_p'β̂)/N_p. The sessions'
  // pair residual sums are centred on it (a_s^p = e_s^p − ē_p·n_s^p), so their cross-products are one sum, not three.
  const centre = new Float64Array(P);
  usedPairs.forEach((p, i) => {
    let fitted = 0;
    for (let a = 0; a < k; a++) fitted += fit.pairDesign[p * k + a]! * beta[a]!;
    centre[i] = (fit.pairDeviation[p]! - fitted) / fit.pairRecords[p]!;
  });
  // The pass's sums and scratch, after the source's sums in the kernels' memory (see assembly/score-kernels.ts).
  const kernels = scoreKernels();
  const memory = new MemoryLayout(source.claim());
  const from = memory.end;
  const fitAt = {
    beta: memory.f64(k),
    lengthBeta: memory.f64(k),
    pairIndex: memory.i32(pairCount),
    centre: memory.f64(P),
  };
  const sumsAt = {
    meat: memory.f64(k * k),
    pairSum: memory.f64(pairCount),
    pairN: memory.f64(pairCount),
    pairSessions: memory.i32(pairCount),
    eScore: memory.f64(pairCount * k),
    nScore: memory.f64(pairCount * k),
    cross: memory.f64(P * P),
    perSession: memory.f64(3 * source.sessions),
    points: memory.f64(2 * source.sessions),
    counts: memory.f64(12),
  };
  const scratchAt = {
    localBeta: memory.f64(k),
    localLengthBeta: memory.f64(k),
    sessionScore: memory.f64(k),
    answerFitted: memory.f64(models),
    sessionX: memory.f64(models),
    sessionY: memory.f64(models),
    sessionPairSum: memory.f64(pairCount),
    sessionPairN: memory.f64(pairCount),
    sessionPairs: memory.i32(pairCount),
    sessionA: memory.f64(P),
    sessionAt: memory.i32(P),
  };
  kernels.reserve(memory.end);
  kernels.zero(from, memory.end);
  kernels.f64(fitAt.beta, k).set(beta);
  kernels.f64(fitAt.lengthBeta, k).set(lengthBeta);
  kernels.i32(fitAt.pairIndex, pairCount).set(index);
  kernels.f64(fitAt.centre, P).set(centre);
  const { exports } = kernels;
  exports.setResidualFit(k, models, fitAt.beta, fitAt.lengthBeta, fitAt.pairIndex, fitAt.centre, P);
  exports.setResidualSums(
    sumsAt.meat,
    sumsAt.pairSum,
    sumsAt.pairN,
    sumsAt.pairSessions,
    sumsAt.eScore,
    sumsAt.nScore,
    sumsAt.cross,
    sumsAt.perSession,
    sumsAt.points,
    sumsAt.counts,
  );
  exports.setResidualScratch(
    scratchAt.localBeta,
    scratchAt.localLengthBeta,
    scratchAt.sessionScore,
    scratchAt.answerFitted,
    scratchAt.sessionX,
    scratchAt.sessionY,
    scratchAt.sessionPairSum,
    scratchAt.sessionPairN,
    scratchAt.sessionPairs,
    scratchAt.sessionA,
    scratchAt.sessionAt,
  );
  source.forEachChunk((chunk) => exports.sumScoreResiduals(chunk));

  // The counts, in assembly/score-kernels.ts's order (WITHIN_SESSIONS …).
  const [withinSessions, sxx, sxy, syy, withinAnswers, betweenN, sx, sy, betweenSxx, informative, residual, total] =
    Array.from(kernels.f64(sumsAt.counts, 12));
  const cross = kernels.f64(sumsAt.cross, P * P).slice();
  for (let p = 0; p < P; p++) for (let o = p + 1; o < P; o++) cross[o * P + p] = cross[p * P + o]!;
  const pairs: PairSums = {
    sum: kernels.f64(sumsAt.pairSum, pairCount).slice(),
    n: kernels.f64(sumsAt.pairN, pairCount).slice(),
    sessions: kernels.u32(sumsAt.pairSessions, pairCount).slice(),
    design: fit.pairDesign,
    eScore: kernels.f64(sumsAt.eScore, pairCount * k).slice(),
    nScore: kernels.f64(sumsAt.nScore, pairCount * k).slice(),
    index,
    used: Int32Array.from(usedPairs),
    cross,
  };
  const length: LengthSums = {
    sessions: withinSessions!,
    sxx: sxx!,
    sxy: sxy!,
    syy: syy!,
    answers: withinAnswers!,
    perSession: kernels.f64(sumsAt.perSession, 3 * withinSessions!).slice(),
  };
  const between: BetweenSums = {
    n: betweenN!,
    sx: sx!,
    sy: sy!,
    sxx: betweenSxx!,
    points: kernels.f64(sumsAt.points, 2 * betweenN!).slice(),
  };
  return {
    meat: kernels.f64(sumsAt.meat, k * k).slice(),
    pairs,
    length,
    between,
    informativeSessions: informative!,
    residualSquares: residual!,
    totalSquares: total!,
  };
}
