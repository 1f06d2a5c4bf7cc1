import type { Ballot } from './ballot.js';
import { ballotRanks } from './ballot-ranks.js';
import { chiSquaredSf } from './chi-squared-distribution.js';
import { withCandidates } from './condorcet-options.js';
import { prepareBallots } from './prepare-ballots.js';
import { ScoringError } from './scoring-error.js';

/** Options of {@link kendallW}. */
export interface KendallWOptions {
  /** Default: every id the ballots name. */
  candidates?: readonly string[];
}

/** Kendall's coefficient of concordance with its large-sample test. */
export interface KendallWResult {
  /** 0 (no agreement) … 1 (identical rankings), tie-corrected. */
  w: number;
  /** Friedman's statistic `m (n − 1) W`. */
  chiSquare: number;
  /** n − 1. */
  degreesOfFreedom: number;
  /** P(χ²(n − 1) ≥ chiSquare): small values mean the agreement is unlikely to be chance. */
  pValue: number;
  /** m: ballots counted. */
  raters: number;
  /** n: candidates ranked. */
  candidates: number;
}

/**
 * Kendall's W over the non-abstaining ballots that rank at least one candidate (weights are ignored:
 * agreement is a diagnostic, advisory ballots included). W needs every cell, so self-votes are kept;
 * candidates a ballot leaves unranked share the mean of the remaining ranks, and ties (equal scores
 * in a ranking derived from scores) share their mean rank; the tie correction
 * `W = 12 S / (m² (n³ − n) − m Σ T)`, `T = Σ (t³ − t)` per ballot, accounts for both.
 * Throws `INSUFFICIENT_DATA` with fewer than 2 ballots or candidates, or when every ballot ties everything.
 */
export function kendallW(ballots: readonly Ballot[], options: KendallWOptions = {}): KendallWResult {
  const where = 'kendallW';
  if (typeof options !== 'object' || options === null) {
    throw new ScoringError({ code: 'INVALID_OPTION', message: `${where}: options must be an object (or left out).` });
  }
  const { candidates, ballots: prepared } = prepareBallots(
    ballots,
    { ...withCandidates(ballots, { candidates: options.candidates }, where), excludeSelfVotes: false },
    where,
  );
  const n = candidates.length;
  const raters = prepared.filter((b) => b.order.length > 0);
  const m = raters.length;
  if (m < 2 || n < 2) {
    throw new ScoringError({
      code: 'INSUFFICIENT_DATA',
      message: `${where}: agreement needs at least 2 ballots that rank something and 2 candidates; got ${m} and ${n}.`,
    });
  }
  const rankSums = new Float64Array(n);
  let tieCorrection = 0;
  for (const ballot of raters) {
    const { ranks, groupSizes } = ballotRanks(ballot);
    const ranked = ballot.order.length;
    const unrankedRank = (ranked + 1 + n) / 2;
    const seen = new Uint8Array(n);
    ballot.order.forEach((c, k) => {
      rankSums[c]! += ranks[k]!;
      seen[c] = 1;
    });
    for (let c = 0; c < n; c++) if (!seen[c]) rankSums[c]! += unrankedRank;
    for (const t of [...groupSizes, n - ranked]) tieCorrection += t * t * t - t;
  }
  const meanRankSum = (m * (n + 1)) / 2;
  let s = 0;
  for (let c = 0; c < n; c++) s += (rankSums[c]! - meanRankSum) ** 2;
  const denominator = m * m * (n * n * n - n) - m * tieCorrection;
  if (!(denominator > 0)) {
    throw new ScoringError({
      code: 'INSUFFICIENT_DATA',
      message: `${where}: every ballot ties every candidate, so agreement is undefined; W needs ballots that order candidates.`,
    });
  }
  const w = Math.min(1, Math.max(0, (12 * s) / denominator));
  const chiSquare = m * (n - 1) * w;
  return { w, chiSquare, degreesOfFreedom: n - 1, pValue: chiSquaredSf(chiSquare, n - 1), raters: m, candidates: n };
}
