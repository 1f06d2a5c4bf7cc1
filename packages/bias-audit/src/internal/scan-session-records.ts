import type { BiasColumns } from '../bias-columns.js';
import { noRank } from '../bias-columns.js';
import type { Scratch } from './session-indicators.js';

/** What `scanSessionRecords` found in one session (reused: `Scratch.scan`). */
export interface SessionScan {
  /** The session's first record in the columns, and its records. */
  start: number;
  records: number;
  /** Distinct reviewers and candidates (the local indices run 0 … count − 1) and config codes. */
  reviewers: number;
  candidates: number;
  configCodes: number;
  /** The largest display position shown (0 when none is larger). */
  maxPosition: number;
  /** The sum and count of the session's scores (NaN scores left out). */
  scoreSum: number;
  scoreCount: number;
}

/**
 * One pass over the records of session `s` into `scratch`: local indices of reviewers and candidates (linear
 * search: a council has a handful of members, each one's sums set to 0 when first met), the config codes, and
 * the candidates' and reviewers' sums — each sum adding its records in record order. `scratch` must have room
 * for the session's records (`ensure`). Returns `scratch.scan`.
 */
export function scanSessionRecords(columns: BiasColumns, s: number, scratch: Scratch): SessionScan {
  const start = columns.sessionStart[s]!;
  const n = columns.sessionStart[s + 1]! - start;
  const scores = columns.score;
  const shown = columns.position;
  const ranks = columns.rankPosition;
  const { reviewer: reviewers, candidate: candidates, configVersion, responseLengthChars } = columns;
  const {
    revIds,
    candIds,
    revOf,
    candOf,
    candSum,
    candCount,
    candLength,
    revScoreSum,
    revScoreSq,
    revScoreCount,
    revRankCount,
    revFirst,
    revLast,
    revStart,
  } = scratch;
  const codes = scratch.configCodes;
  let codeCount = 0;
  let lastCode = -1;
  let maxPosition = 0;
  let R = 0;
  let C = 0;
  let scoreSum = 0;
  let scoreCount = 0;
  revStart[0] = 0;
  for (let i = 0; i < n; i++) {
    const rid = reviewers[start + i]!;
    const cid = candidates[start + i]!;
    const p = shown[start + i]!;
    if (p > maxPosition) maxPosition = p;
    let b = 0;
    while (b < R && revIds[b] !== rid) b++;
    if (b === R) {
      revIds[R] = rid;
      revScoreSum[R] = 0;
      revScoreSq[R] = 0;
      revScoreCount[R] = 0;
      revRankCount[R] = 0;
      revFirst[R] = 2147483647;
      revLast[R] = -1;
      revStart[++R] = 0;
    }
    let c = 0;
    while (c < C && candIds[c] !== cid) c++;
    if (c === C) {
      candIds[C] = cid;
      candSum[C] = 0;
      candCount[C] = 0;
      candLength[C++] = responseLengthChars[start + i]!;
    }
    revOf[i] = b;
    candOf[i] = c;
    revStart[b + 1]!++;
    const v = configVersion[start + i]!;
    if (v !== lastCode) {
      lastCode = v;
      let j = 0;
      while (j < codeCount && codes[j] !== v) j++;
      if (j === codeCount) codes[codeCount++] = v;
    }
    if (ranks[start + i] !== noRank) revRankCount[b]!++;
    const x = scores[start + i]!;
    if (Number.isNaN(x)) continue;
    // Length: a candidate's mean score against its response length.
    candSum[c]! += x;
    candCount[c]!++;
    scoreSum += x;
    scoreCount++;
    // Position: block-centred scores and rank points, a block being one reviewer's view of the session.
    revScoreSum[b]! += x;
    revScoreSq[b]! += x * x;
    revScoreCount[b]!++;
    if (p < revFirst[b]!) revFirst[b] = p;
    if (p > revLast[b]!) revLast[b] = p;
  }
  const scan = scratch.scan;
  scan.start = start;
  scan.records = n;
  scan.reviewers = R;
  scan.candidates = C;
  scan.configCodes = codeCount;
  scan.maxPosition = maxPosition;
  scan.scoreSum = scoreSum;
  scan.scoreCount = scoreCount;
  return scan;
}
