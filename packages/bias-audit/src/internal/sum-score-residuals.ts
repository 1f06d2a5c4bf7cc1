import type { PairSums } from './affinity-figures.js';
import { addLengthSession } from './length-figures.js';
import type { BetweenSums, LengthSums } from './length-figures.js';
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
  const meat = new Float64Array(k * k);
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
  const pairs: PairSums = {
    sum: new Float64Array(pairCount),
    n: new Float64Array(pairCount),
    sessions: new Uint32Array(pairCount),
    design: fit.pairDesign,
    eScore: new Float64Array(pairCount * k),
    nScore: new Float64Array(pairCount * k),
    index,
    used: Int32Array.from(usedPairs),
    cross: new Float64Array(P * P),
  };
  const { cross } = pairs;
  const sessionA = new Float64Array(P);
  const sessionAt = new Int32Array(P);
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
  let localLengthBeta = new Float64Array(0);
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
        localLengthBeta = new Float64Array(m);
        score = new Float64Array(m);
      }
      for (let a = 0; a < m; a++) {
        localBeta[a] = beta[c[c0 + a]!]!;
        localLengthBeta[a] = lengthBeta[c[c0 + a]!]!;
      }
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
        let lengthFitted = 0;
        for (let a = 0; a < m; a++) {
          fitted += answerRow[r0 + a]! * localBeta[a]!;
          lengthFitted += answerRow[r0 + a]! * localLengthBeta[a]!;
        }
        answerFitted[j - firstAnswer] = fitted;
        sessionX[j - firstAnswer] = chunk.answerLength[j]! / 1000;
        sessionY[j - firstAnswer] = chunk.answerMean[j]! - lengthFitted;
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
        sessionAt[q] = index[p]!;
        sessionA[q] = e - centre[index[p]!]! * n;
        pairs.sum[p]! += e;
        pairs.n[p]! += n;
        pairs.sessions[p]!++;
        const base = p * k;
        for (let a = 0; a < m; a++) {
          const at = base + c[c0 + a]!;
          eScore[at]! += e * score[a]!;
          nScore[at]! += n * score[a]!;
        }
        sessionPairSum[p] = 0;
        sessionPairN[p] = 0;
      }
      // Σ_s a_s^p a_s^q over the pairs of this session (their joint influence): each unordered couple once here,
      // mirrored when the pass ends.
      for (let q = 0; q < pairsInSession; q++) {
        const p = sessionAt[q]!;
        const a = sessionA[q]!;
        for (let r = q; r < pairsInSession; r++) {
          const o = sessionAt[r]!;
          cross[p <= o ? p * P + o : o * P + p]! += a * sessionA[r]!;
        }
      }
      addLengthSession({ x: sessionX, y: sessionY, count: answers }, length, between);
    }
  });
  for (let p = 0; p < P; p++) for (let o = p + 1; o < P; o++) cross[o * P + p] = cross[p * P + o]!;
  return { meat, pairs, length, between, informativeSessions, residualSquares, totalSquares };
}
