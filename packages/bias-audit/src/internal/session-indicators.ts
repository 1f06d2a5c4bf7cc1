import type { BiasColumns } from '../bias-columns.js';
import { noRank } from '../bias-columns.js';
import { pearsonR } from './pearson-r.js';

/** One session's length–score correlation: the raw per-session indicator of trends and anomalies. */
export interface LengthPoint {
  n: number;
  r: number;
}

/**
 * Values whose display position was randomised, block by block (a block is one reviewer's view of one
 * session), for the permutation test: `groups[b]` is the order block b was shown, so reviewers who saw one
 * order are relabelled together.
 */
export interface PositionBlocks {
  values: number[];
  labels: number[];
  starts: number[];
  groups: number[];
}

/** A reviewer's per-session sums (scores n, Σx, Σx²) accumulated as the cluster moments of its mean and SD. */
export interface ReviewerMoments {
  sessions: number;
  n: number;
  a: number;
  b: number;
  nn: number;
  na: number;
  nb: number;
  aa: number;
  ab: number;
  bb: number;
}

/**
 * Everything `aggregateBiasAudit` reads session by session, besides the score model: the design-based
 * position figures (within-reviewer centred scores and rank points), the per-session indicators of trends
 * and anomalies, anchoring, reviewers' score moments, and the keys of change points. Index = session.
 */
export interface SessionIndicators {
  /** Per position: per-session mean of within-reviewer centred scores (sessions where shown). */
  positionValues: Map<number, Float64Array>;
  /** Per position: those sessions' indices, in step with `positionValues`. */
  positionSessions: Map<number, Int32Array>;
  primacyValues: Float64Array;
  recencyValues: Float64Array;
  /** Per position: per-session mean centred rank points (1 = ranked first, 0 = last). */
  rankValues: Map<number, Float64Array>;
  rankSessions: Map<number, Int32Array>;
  scoreBlocks: PositionBlocks;
  rankBlocks: PositionBlocks;
  positionedScoreSessions: number;
  rankedSessions: number;
  /** Per session, NaN where not computable (typed arrays: at 100,000 sessions an object or a boxed number each adds up). */
  lengthR: Float64Array;
  /** Per session: the answers behind `lengthR`. */
  lengthN: Int32Array;
  positionSpread: Float64Array;
  meanScores: Float64Array;
  anchoringValues: Float64Array;
  /** Per model index: its moments as a reviewer (null when it never scored). */
  reviewerMoments: (ReviewerMoments | null)[];
  /**
   * Per session: its sorted model indices and its sorted config versions (`(none)` for none), each as an
   * index into `keys` (a store has a handful of distinct ones; a string per session would cost megabytes).
   */
  modelKey: Int32Array;
  configKey: Int32Array;
  keys: string[];
  scoredRecords: number;
}

/** Pearson r of the first n entries of two arrays, or null when n < 3 or a side is constant. */
function correlation(x: ArrayLike<number>, y: ArrayLike<number>, n: number): number | null {
  return n < 3 ? null : pearsonR(x, y, n).r;
}

/**
 * Per-session values, one at most per session, in typed arrays sized up front: growing 100,000-long JS
 * arrays leaves their old copies behind as garbage (tens of megabytes at that size).
 */
class SessionSeries {
  private readonly values: Float64Array;
  private readonly sessions: Int32Array;
  private count = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
    this.sessions = new Int32Array(capacity);
  }

  add(session: number, value: number): void {
    this.values[this.count] = value;
    this.sessions[this.count++] = session;
  }

  valuesSoFar(): Float64Array {
    return this.values.subarray(0, this.count);
  }

  sessionsSoFar(): Int32Array {
    return this.sessions.subarray(0, this.count);
  }
}

/** A series per display position, each sized by the sessions that show that position at all. */
class PositionSeries {
  private readonly series = new Map<number, SessionSeries>();

  constructor(private readonly sessionsAt: Int32Array) {}

  add(position: number, session: number, value: number): void {
    let series = this.series.get(position);
    if (series === undefined) this.series.set(position, (series = new SessionSeries(this.sessionsAt[position]!)));
    series.add(session, value);
  }

  values(): Map<number, Float64Array> {
    return new Map([...this.series].map(([p, series]) => [p, series.valuesSoFar()]));
  }

  sessions(): Map<number, Int32Array> {
    return new Map([...this.series].map(([p, series]) => [p, series.sessionsSoFar()]));
  }
}

/** Per display position: the sessions with a record shown there (an upper bound on any per-position series). */
function sessionsAtPosition(columns: BiasColumns): Int32Array {
  let maxPosition = -1;
  for (let i = 0; i < columns.length; i++) if (columns.position[i]! > maxPosition) maxPosition = columns.position[i]!;
  const counts = new Int32Array(maxPosition + 1);
  const lastSession = new Int32Array(maxPosition + 1).fill(-1);
  for (let i = 0; i < columns.length; i++) {
    const p = columns.position[i]!;
    if (lastSession[p] !== columns.session[i]) {
      lastSession[p] = columns.session[i]!;
      counts[p]!++;
    }
  }
  return counts;
}

/** Reusable per-session work arrays, grown when a session needs more. */
class Scratch {
  private readonly f64s = new Map<string, Float64Array>();
  private readonly i32s = new Map<string, Int32Array>();

  f64(name: string, size: number, value: number): Float64Array {
    let buffer = this.f64s.get(name);
    if (buffer === undefined || buffer.length < size) this.f64s.set(name, (buffer = new Float64Array(Math.max(size, 2 * (buffer?.length ?? 8)))));
    return buffer.fill(value, 0, size);
  }

  i32(name: string, size: number, value: number): Int32Array {
    let buffer = this.i32s.get(name);
    if (buffer === undefined || buffer.length < size) this.i32s.set(name, (buffer = new Int32Array(Math.max(size, 2 * (buffer?.length ?? 8)))));
    return buffer.fill(value, 0, size);
  }
}

/** One pass over the sessions of `columns` (see `SessionIndicators`). `blocks`: also keep the permutation test's blocks. */
export function collectSessionIndicators(columns: BiasColumns, options: { blocks: boolean }): SessionIndicators {
  const S = columns.sessionIds.length;
  const atPosition = sessionsAtPosition(columns);
  const positionSeries = new PositionSeries(atPosition);
  const rankSeries = new PositionSeries(atPosition);
  const primacy = new SessionSeries(S);
  const recency = new SessionSeries(S);
  const anchoring = new SessionSeries(S);
  const out: SessionIndicators = {
    positionValues: new Map(),
    positionSessions: new Map(),
    primacyValues: new Float64Array(0),
    recencyValues: new Float64Array(0),
    rankValues: new Map(),
    rankSessions: new Map(),
    scoreBlocks: { values: [], labels: [], starts: [], groups: [] },
    rankBlocks: { values: [], labels: [], starts: [], groups: [] },
    positionedScoreSessions: 0,
    rankedSessions: 0,
    lengthR: new Float64Array(columns.sessionIds.length).fill(Number.NaN),
    lengthN: new Int32Array(columns.sessionIds.length),
    positionSpread: new Float64Array(columns.sessionIds.length).fill(Number.NaN),
    meanScores: new Float64Array(columns.sessionIds.length).fill(Number.NaN),
    anchoringValues: new Float64Array(0),
    reviewerMoments: columns.models.map(() => null),
    modelKey: new Int32Array(columns.sessionIds.length),
    configKey: new Int32Array(columns.sessionIds.length),
    keys: [],
    scoredRecords: 0,
  };
  const scratch = new Scratch();
  const keyIndex = new Map<string, number>();
  const keyOf = (key: string): number => {
    let index = keyIndex.get(key);
    if (index === undefined) {
      index = out.keys.push(key) - 1;
      keyIndex.set(key, index);
    }
    return index;
  };
  let orderGroups = 0;
  const revIds: number[] = [];
  const candIds: number[] = [];
  for (let s = 0; s < columns.sessionIds.length; s++) {
    const start = columns.sessionStart[s]!;
    const n = columns.sessionStart[s + 1]! - start;
    const score = (i: number): number => columns.score[start + i]!;
    const position = (i: number): number => columns.position[start + i]!;
    // Local indices of reviewers and candidates (linear search: a council has a handful of members).
    revIds.length = 0;
    candIds.length = 0;
    const revOf = scratch.i32('revOf', n, 0);
    const candOf = scratch.i32('candOf', n, 0);
    let maxPosition = 0;
    for (let i = 0; i < n; i++) {
      const rid = columns.reviewer[start + i]!;
      const cid = columns.candidate[start + i]!;
      let r = revIds.indexOf(rid);
      if (r < 0) r = revIds.push(rid) - 1;
      let c = candIds.indexOf(cid);
      if (c < 0) c = candIds.push(cid) - 1;
      revOf[i] = r;
      candOf[i] = c;
      if (position(i) > maxPosition) maxPosition = position(i);
    }
    const R = revIds.length;
    const C = candIds.length;
    out.modelKey[s] = keyOf([...new Set([...revIds, ...candIds])].sort((x, y) => x - y).join(','));
    const configs = new Set<string>();
    for (let i = 0; i < n; i++) {
      const v = columns.configVersion[start + i]!;
      configs.add(v === 0 ? '(none)' : columns.configVersions[v - 1]!);
    }
    out.configKey[s] = keyOf([...configs].sort().join(','));

    // Which reviewers were shown the same order (the same position for every candidate).
    const orderGroupOf = scratch.i32('orderGroupOf', R, 0);
    if (options.blocks) {
      const shownAt = scratch.i32('shownAt', R * C, -1);
      for (let i = 0; i < n; i++) shownAt[revOf[i]! * C + candOf[i]!] = position(i);
      const groupOfOrder = new Map<string, number>();
      for (let b = 0; b < R; b++) {
        const key = shownAt.subarray(b * C, (b + 1) * C).join(',');
        let group = groupOfOrder.get(key);
        if (group === undefined) groupOfOrder.set(key, (group = orderGroups++));
        orderGroupOf[b] = group;
      }
    }

    // Length: a candidate's mean score against its response length.
    const candSum = scratch.f64('candSum', C, 0);
    const candCount = scratch.i32('candCount', C, 0);
    const candLength = scratch.f64('candLength', C, -1);
    let scoreSum = 0;
    let scoreCount = 0;
    for (let i = 0; i < n; i++) {
      const c = candOf[i]!;
      if (candLength[c]! < 0) candLength[c] = columns.responseLengthChars[start + i]!;
      const x = score(i);
      if (Number.isNaN(x)) continue;
      candSum[c]! += x;
      candCount[c]!++;
      scoreSum += x;
      scoreCount++;
    }
    out.scoredRecords += scoreCount;
    const sessionMean = scoreCount > 0 ? scoreSum / scoreCount : 0;
    if (scoreCount > 0) out.meanScores[s] = sessionMean;
    const lengths = scratch.f64('lengths', C, 0);
    const means = scratch.f64('means', C, 0);
    let scored = 0;
    for (let c = 0; c < C; c++) {
      if (candCount[c]! === 0) continue;
      lengths[scored] = candLength[c]!;
      means[scored++] = candSum[c]! / candCount[c]!;
    }
    const r = correlation(lengths, means, scored);
    if (r !== null) {
      out.lengthR[s] = r;
      out.lengthN[s] = scored;
    }

    // Position: block-centred scores and rank points, a block being one reviewer's view of the session.
    const revScoreSum = scratch.f64('revScoreSum', R, 0);
    const revScoreSq = scratch.f64('revScoreSq', R, 0);
    const revScoreCount = scratch.i32('revScoreCount', R, 0);
    const revRankCount = scratch.i32('revRankCount', R, 0);
    const revFirst = scratch.i32('revFirst', R, 2147483647);
    const revLast = scratch.i32('revLast', R, -1);
    for (let i = 0; i < n; i++) {
      const b = revOf[i]!;
      if (columns.rankPosition[start + i] !== noRank) revRankCount[b]!++;
      const x = score(i);
      if (Number.isNaN(x)) continue;
      revScoreSum[b]! += x;
      revScoreSq[b]! += x * x;
      revScoreCount[b]!++;
      if (position(i) < revFirst[b]!) revFirst[b] = position(i);
      if (position(i) > revLast[b]!) revLast[b] = position(i);
    }
    const posSum = scratch.f64('posSum', maxPosition + 1, 0);
    const posCount = scratch.i32('posCount', maxPosition + 1, 0);
    const rankSum = scratch.f64('rankSum', maxPosition + 1, 0);
    const rankCount = scratch.i32('rankCount', maxPosition + 1, 0);
    let primacySum = 0;
    let primacyCount = 0;
    let recencySum = 0;
    let recencyCount = 0;
    let hadScoreBlock = false;
    let hadRankBlock = false;
    for (let b = 0; b < R; b++) {
      if (revScoreCount[b]! > 0) addReviewerMoments(out.reviewerMoments, revIds[b]!, { n: revScoreCount[b]!, a: revScoreSum[b]!, b: revScoreSq[b]! });
      if (revScoreCount[b]! >= 2) {
        hadScoreBlock = true;
        const m = revScoreSum[b]! / revScoreCount[b]!;
        if (options.blocks) {
          out.scoreBlocks.starts.push(out.scoreBlocks.values.length);
          out.scoreBlocks.groups.push(orderGroupOf[b]!);
        }
        for (let i = 0; i < n; i++) {
          const x = score(i);
          if (revOf[i] !== b || Number.isNaN(x)) continue;
          const centred = x - m;
          const p = position(i);
          if (options.blocks) {
            out.scoreBlocks.values.push(centred);
            out.scoreBlocks.labels.push(p);
          }
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
      }
      const k = revRankCount[b]!;
      if (k >= 2) {
        // Rank points enter the rank effects for every ranking reviewer, but the rank permutation test
        // only for reviewers that ranked without scoring: the others are already in the score test.
        const rankOnly = revScoreCount[b]! < 2;
        if (rankOnly) {
          hadRankBlock = true;
          if (options.blocks) {
            out.rankBlocks.starts.push(out.rankBlocks.values.length);
            out.rankBlocks.groups.push(orderGroupOf[b]!);
          }
        }
        let pointSum = 0;
        for (let i = 0; i < n; i++) {
          const rank = columns.rankPosition[start + i]!;
          if (revOf[i] === b && rank !== noRank) pointSum += 1 - Math.min(rank, k - 1) / (k - 1);
        }
        const m = pointSum / k;
        for (let i = 0; i < n; i++) {
          const rank = columns.rankPosition[start + i]!;
          if (revOf[i] !== b || rank === noRank) continue;
          const centred = 1 - Math.min(rank, k - 1) / (k - 1) - m;
          if (rankOnly && options.blocks) {
            out.rankBlocks.values.push(centred);
            out.rankBlocks.labels.push(position(i));
          }
          rankSum[position(i)]! += centred;
          rankCount[position(i)]!++;
        }
      }
    }
    if (hadScoreBlock) out.positionedScoreSessions++;
    if (hadRankBlock) out.rankedSessions++;
    let spreadCount = 0;
    let spreadSum = 0;
    let spreadSq = 0;
    for (let p = 0; p <= maxPosition; p++) {
      if (posCount[p]! > 0) {
        const value = posSum[p]! / posCount[p]!;
        positionSeries.add(p, s, value);
        spreadCount++;
        spreadSum += value;
        spreadSq += value * value;
      }
      if (rankCount[p]! > 0) {
        rankSeries.add(p, s, rankSum[p]! / rankCount[p]!);
      }
    }
    if (spreadCount >= 2) out.positionSpread[s] = Math.max(0, spreadSq / spreadCount - (spreadSum / spreadCount) ** 2);
    if (primacyCount > 0) primacy.add(s, primacySum / primacyCount);
    if (recencyCount > 0) recency.add(s, recencySum / recencyCount);

    // Anchoring: display position against |score − session mean|.
    if (scoreCount >= 3) {
      const anchorPos = scratch.f64('anchorPos', scoreCount, 0);
      const anchorDev = scratch.f64('anchorDev', scoreCount, 0);
      let j = 0;
      for (let i = 0; i < n; i++) {
        const x = score(i);
        if (Number.isNaN(x)) continue;
        anchorPos[j] = position(i);
        anchorDev[j++] = Math.abs(x - sessionMean);
      }
      const anchor = correlation(anchorPos, anchorDev, j);
      if (anchor !== null) anchoring.add(s, anchor);
    }
  }
  out.positionValues = positionSeries.values();
  out.positionSessions = positionSeries.sessions();
  out.rankValues = rankSeries.values();
  out.rankSessions = rankSeries.sessions();
  out.primacyValues = primacy.valuesSoFar();
  out.recencyValues = recency.valuesSoFar();
  out.anchoringValues = anchoring.valuesSoFar();
  return out;
}

function addReviewerMoments(all: (ReviewerMoments | null)[], model: number, session: { n: number; a: number; b: number }): void {
  let m = all[model];
  if (m === null || m === undefined) all[model] = m = { sessions: 0, n: 0, a: 0, b: 0, nn: 0, na: 0, nb: 0, aa: 0, ab: 0, bb: 0 };
  const { n, a, b } = session;
  m.sessions++;
  m.n += n;
  m.a += a;
  m.b += b;
  m.nn += n * n;
  m.na += n * a;
  m.nb += n * b;
  m.aa += a * a;
  m.ab += a * b;
  m.bb += b * b;
}
