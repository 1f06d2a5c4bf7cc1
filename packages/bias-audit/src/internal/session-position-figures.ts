import { BiasAuditError } from '../bias-audit-error.js';
import type { BiasColumns } from '../bias-columns.js';
import { noRank } from '../bias-columns.js';
import type { Scratch } from './session-indicators.js';

/**
 * The position figures of the session `scratch.scan` describes, into `scratch.stats`: per reviewer its score
 * sums, its within-reviewer centred scores and centred rank points by display position (and, with `blocks`,
 * as permutation blocks of its order group `scratch.orderGroupOf`), then per position their means, the spread
 * of the score means, primacy and recency. Reads what the pass over the session's records left in `scratch`.
 * A reviewer's `k` ranks are places 0 to k − 1: a rank beyond them is an invalid record, which the store's readers
 * drop and report (bias-store's `dropOutOfRangeRanks`), so one here is the caller's error (INVALID_INPUT), never clamped.
 */
export function addSessionPositionFigures(columns: BiasColumns, scratch: Scratch, blocks: boolean): void {
  const { start, records: n, reviewers: R, maxPosition } = scratch.scan;
  const scores = columns.score;
  const shown = columns.position;
  const ranks = columns.rankPosition;
  const { revIds, revOf, revScoreSum, revScoreSq, revScoreCount, revRankCount, revFirst, revLast, revStart } = scratch;
  const out = scratch.stats;
  const orderGroupOf = scratch.orderGroupOf;
  const posSum = scratch.posSum.fill(0, 0, maxPosition + 1);
  const posCount = scratch.posCount.fill(0, 0, maxPosition + 1);
  const rankSum = scratch.rankSum.fill(0, 0, maxPosition + 1);
  const rankCount = scratch.rankCount.fill(0, 0, maxPosition + 1);
  // Each reviewer's records (in record order), so a reviewer's loops visit its own records only.
  for (let b = 0; b < R; b++) revStart[b + 1]! += revStart[b]!;
  const revNext = scratch.revNext;
  for (let b = 0; b < R; b++) revNext[b] = revStart[b]!;
  const byRev = scratch.byRev;
  for (let i = 0; i < n; i++) byRev[revNext[revOf[i]!]!++] = i;
  let primacySum = 0;
  let primacyCount = 0;
  let recencySum = 0;
  let recencyCount = 0;
  for (let b = 0; b < R; b++) {
    const first = revStart[b]!;
    const end = revStart[b + 1]!;
    if (revScoreCount[b]! > 0)
      scratch.addReviewer(revIds[b]!, { n: revScoreCount[b]!, sum: revScoreSum[b]!, sumOfSquares: revScoreSq[b]! });
    if (revScoreCount[b]! >= 2) {
      out.positionedScores = true;
      const m = revScoreSum[b]! / revScoreCount[b]!;
      const block = blocks ? scratch.block(orderGroupOf[b]!) : null;
      for (let j = first; j < end; j++) {
        const i = byRev[j]!;
        const x = scores[start + i]!;
        if (Number.isNaN(x)) continue;
        const centred = x - m;
        const p = shown[start + i]!;
        block?.values.push(centred);
        block?.positions.push(p);
        posSum[p]! += centred;
        posCount[p]!++;
        if (p === revFirst[b]) {
          primacySum += centred;
          primacyCount++;
        }
        if (p === revLast[b]) {
          recencySum += centred;
          recencyCount++;
        }
      }
      if (block !== null) out.scoreBlocks.push(block);
    }
    const k = revRankCount[b]!;
    if (k >= 2) {
      // Rank points enter the rank effects for every ranking reviewer, but the rank permutation test
      // only for reviewers that ranked without scoring: the others are already in the score test.
      const rankOnly = revScoreCount[b]! < 2;
      if (rankOnly) out.rankOnly = true;
      const block = rankOnly && blocks ? scratch.block(orderGroupOf[b]!) : null;
      let pointSum = 0;
      for (let j = first; j < end; j++) {
        const rank = ranks[start + byRev[j]!]!;
        if (rank === noRank) continue;
        if (rank >= k) throw rankOutOfRange(columns, { session: out.session, reviewer: revIds[b]!, rank, k });
        pointSum += 1 - rank / (k - 1);
      }
      const m = pointSum / k;
      for (let j = first; j < end; j++) {
        const i = byRev[j]!;
        const rank = ranks[start + i]!;
        if (rank === noRank) continue;
        const centred = 1 - rank / (k - 1) - m;
        const p = shown[start + i]!;
        block?.values.push(centred);
        block?.positions.push(p);
        rankSum[p]! += centred;
        rankCount[p]!++;
      }
      if (block !== null) out.rankBlocks.push(block);
    }
  }
  let spreadCount = 0;
  let spreadSum = 0;
  let spreadSq = 0;
  for (let p = 0; p <= maxPosition; p++) {
    const hasScore = posCount[p]! > 0;
    const hasRank = rankCount[p]! > 0;
    if (!hasScore && !hasRank) continue;
    const value = hasScore ? posSum[p]! / posCount[p]! : Number.NaN;
    scratch.addPosition(p, value, hasRank ? rankSum[p]! / rankCount[p]! : Number.NaN);
    if (!hasScore) continue;
    spreadCount++;
    spreadSum += value;
    spreadSq += value * value;
  }
  if (spreadCount >= 2) out.positionSpread = Math.max(0, spreadSq / spreadCount - (spreadSum / spreadCount) ** 2);
  if (primacyCount > 0) out.primacy = primacySum / primacyCount;
  if (recencyCount > 0) out.recency = recencySum / recencyCount;
}

/** The error for a rank that is no place in its reviewer's ranking of the session (observations or columns not read by the store). */
function rankOutOfRange(
  columns: BiasColumns,
  at: { session: number; reviewer: number; rank: number; k: number },
): BiasAuditError {
  const { session, reviewer, rank, k } = at;
  return new BiasAuditError({
    code: 'INVALID_INPUT',
    message: `Session ${columns.sessionIds[session]!}: reviewer ${columns.models[reviewer]!} has rankPosition ${rank} but ranked ${k} answers in the session: ranks are 0-based, 0–${k - 1}. Fix or drop that record before aggregating (@council/bias-store's readers drop it as an invalid record).`,
  });
}
