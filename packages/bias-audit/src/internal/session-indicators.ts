import type { BiasColumns } from '../bias-columns.js';
import { noRank } from '../bias-columns.js';
import { pearsonR } from './pearson-r.js';
import { addSessionPositionFigures } from './session-position-figures.js';

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
  /** Which session each value is from, where the caller asks for it (`keepSessions`). */
  private readonly sessions: Int32Array;
  private count = 0;

  constructor(capacity: number, keepSessions = true) {
    this.values = new Float64Array(capacity);
    this.sessions = new Int32Array(keepSessions ? capacity : 0);
  }

  add(session: number, value: number): void {
    this.values[this.count] = value;
    if (this.sessions.length > 0) this.sessions[this.count] = session;
    this.count++;
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
  /** In the order positions were first met (the maps below keep it). */
  private readonly series = new Map<number, SessionSeries>();
  /** The same by position, for the lookup per value. */
  private readonly byPosition: (SessionSeries | undefined)[] = [];

  constructor(private readonly sessionsAt: Int32Array) {}

  add(position: number, session: number, value: number): void {
    let series = this.byPosition[position];
    if (series === undefined) {
      series = new SessionSeries(this.sessionsAt[position]!);
      this.series.set(position, series);
      this.byPosition[position] = series;
    }
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
export function sessionsAtPosition(columns: BiasColumns): Int32Array {
  const { position, sessionStart } = columns;
  let maxPosition = -1;
  for (let i = 0; i < columns.length; i++) if (position[i]! > maxPosition) maxPosition = position[i]!;
  const counts = new Int32Array(maxPosition + 1);
  const lastSession = new Int32Array(maxPosition + 1).fill(-1);
  // Session by session (sessionStart), not through the per-record session column: one column fewer to read.
  for (let s = 0; s + 1 < sessionStart.length; s++) {
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) {
      const p = position[i]!;
      if (lastSession[p] !== s) {
        lastSession[p] = s;
        counts[p]!++;
      }
    }
  }
  return counts;
}

/**
 * What one session contributes to `SessionIndicators` (the published form is `IndicatorSessionSummary`). NaN
 * where a value is not computable. Blocks are one reviewer's view: its within-reviewer centred scores (or rank
 * points) and the positions they were shown at; `group` numbers the distinct orders shown in the session.
 */
export interface IndicatorSessionStats {
  session: number;
  /** Model indices of its reviewers and candidates, ascending. */
  members: number[];
  /** Its config versions (`(none)` for none), sorted. */
  configVersions: string[];
  scoredRecords: number;
  meanScore: number;
  lengthR: number;
  lengthN: number;
  positionSpread: number;
  primacy: number;
  recency: number;
  anchoring: number;
  /** Per position shown: the mean centred score and the mean centred rank points there (NaN where none). */
  positions: { position: number; score: number; rank: number }[];
  /** Per reviewer with a score: scores, their sum and sum of squares. */
  reviewers: { reviewer: number; n: number; sum: number; sumOfSquares: number }[];
  /** A reviewer scored 2 answers or more (the session enters the score position test). */
  positionedScores: boolean;
  /** A reviewer ranked 2 answers or more without scoring them (the session enters the rank position test). */
  rankOnly: boolean;
  scoreBlocks: { group: number; values: number[]; positions: number[] }[];
  rankBlocks: { group: number; values: number[]; positions: number[] }[];
}

type PositionValue = IndicatorSessionStats['positions'][number];
type ReviewerSums = IndicatorSessionStats['reviewers'][number];
type Block = IndicatorSessionStats['scoreBlocks'][number];

/** What `indicatorSessionStats` found in a session's records, for `addSessionPositionFigures` (reused: `Scratch.scan`). */
export interface SessionScan {
  /** The session's first record in the columns, and its records. */
  start: number;
  records: number;
  /** Distinct reviewers (their local indices run 0 … reviewers − 1). */
  reviewers: number;
  /** The largest display position shown (0 when none is larger). */
  maxPosition: number;
}

/**
 * Reusable per-session work arrays (grown when a session needs more) and the reused result of
 * `indicatorSessionStats`: a million sessions must not cost a million result objects, Sets and closures.
 */
export class Scratch {
  revOf: Int32Array = new Int32Array(0);
  candOf: Int32Array = new Int32Array(0);
  anchorPos: Float64Array = new Float64Array(0);
  anchorDev: Float64Array = new Float64Array(0);
  /** Per reviewer or candidate (at most one per record). */
  orderGroupOf: Int32Array = new Int32Array(0);
  candSum: Float64Array = new Float64Array(0);
  candCount: Int32Array = new Int32Array(0);
  candLength: Float64Array = new Float64Array(0);
  lengths: Float64Array = new Float64Array(0);
  means: Float64Array = new Float64Array(0);
  revScoreSum: Float64Array = new Float64Array(0);
  revScoreSq: Float64Array = new Float64Array(0);
  revScoreCount: Int32Array = new Int32Array(0);
  revRankCount: Int32Array = new Int32Array(0);
  revFirst: Int32Array = new Int32Array(0);
  revLast: Int32Array = new Int32Array(0);
  revStart: Int32Array = new Int32Array(0);
  revNext: Int32Array = new Int32Array(0);
  byRev: Int32Array = new Int32Array(0);
  /** Per display position. */
  posSum: Float64Array = new Float64Array(0);
  posCount: Int32Array = new Int32Array(0);
  rankSum: Float64Array = new Float64Array(0);
  rankCount: Int32Array = new Int32Array(0);
  shownAt: Int32Array = new Int32Array(0);
  /** A session's reviewers and candidates (model indices, in the order met), its members sorted, its config codes. */
  revIds: Int32Array = new Int32Array(0);
  candIds: Int32Array = new Int32Array(0);
  memberIds: Int32Array = new Int32Array(0);
  configCodes: Int32Array = new Int32Array(0);

  /** What `indicatorSessionStats` found in the current session's records. */
  readonly scan: SessionScan = { start: 0, records: 0, reviewers: 0, maxPosition: 0 };
  readonly stats: IndicatorSessionStats = {
    session: 0,
    members: [],
    configVersions: [],
    scoredRecords: 0,
    meanScore: Number.NaN,
    lengthR: Number.NaN,
    lengthN: 0,
    positionSpread: Number.NaN,
    primacy: Number.NaN,
    recency: Number.NaN,
    anchoring: Number.NaN,
    positions: [],
    reviewers: [],
    positionedScores: false,
    rankOnly: false,
    scoreBlocks: [],
    rankBlocks: [],
  };
  private readonly positionPool: PositionValue[] = [];
  private readonly reviewerPool: ReviewerSums[] = [];
  private readonly blockPool: Block[] = [];
  private blocksUsed: number = 0;
  private positionsUsed: number = 0;
  private reviewersUsed: number = 0;

  /** Room for a session of `records` records shown at positions up to `positions − 1`. */
  ensure(records: number, positions: number): void {
    if (this.revOf.length < records) {
      const n = Math.max(records, 2 * this.revOf.length, 8);
      this.revOf = new Int32Array(n);
      this.revIds = new Int32Array(n);
      this.candIds = new Int32Array(n);
      this.memberIds = new Int32Array(2 * n);
      this.configCodes = new Int32Array(n);
      this.candOf = new Int32Array(n);
      this.anchorPos = new Float64Array(n);
      this.anchorDev = new Float64Array(n);
      this.orderGroupOf = new Int32Array(n);
      this.candSum = new Float64Array(n);
      this.candCount = new Int32Array(n);
      this.candLength = new Float64Array(n);
      this.lengths = new Float64Array(n);
      this.means = new Float64Array(n);
      this.revScoreSum = new Float64Array(n);
      this.revScoreSq = new Float64Array(n);
      this.revScoreCount = new Int32Array(n);
      this.revRankCount = new Int32Array(n);
      this.revFirst = new Int32Array(n);
      this.revLast = new Int32Array(n);
      this.revStart = new Int32Array(n + 1);
      this.revNext = new Int32Array(n);
      this.byRev = new Int32Array(n);
    }
    if (this.posSum.length < positions) {
      const n = Math.max(positions, 2 * this.posSum.length, 8);
      this.posSum = new Float64Array(n);
      this.posCount = new Int32Array(n);
      this.rankSum = new Float64Array(n);
      this.rankCount = new Int32Array(n);
    }
  }

  /** `shownAt` with room for `size` entries, filled with −1. */
  shownAtOf(size: number): Int32Array {
    if (this.shownAt.length < size) this.shownAt = new Int32Array(Math.max(size, 2 * this.shownAt.length));
    return this.shownAt.fill(-1, 0, size);
  }

  /** Empties the reused result for the next session. */
  reset(): IndicatorSessionStats {
    const out = this.stats;
    out.scoredRecords = 0;
    out.meanScore = Number.NaN;
    out.lengthR = Number.NaN;
    out.lengthN = 0;
    out.positionSpread = Number.NaN;
    out.primacy = Number.NaN;
    out.recency = Number.NaN;
    out.anchoring = Number.NaN;
    out.positionedScores = false;
    out.rankOnly = false;
    // Lists are overwritten in place and cut to size by `finish` (setting an array's length is a call into the
    // runtime, a third of a second at a million sessions when done for every list of every session).
    this.positionsUsed = 0;
    this.reviewersUsed = 0;
    if (out.scoreBlocks.length > 0) out.scoreBlocks.length = 0;
    if (out.rankBlocks.length > 0) out.rankBlocks.length = 0;
    this.blocksUsed = 0;
    return out;
  }

  /** Cuts the result's lists to what this session added. */
  finish(): IndicatorSessionStats {
    const out = this.stats;
    if (out.positions.length !== this.positionsUsed) out.positions.length = this.positionsUsed;
    if (out.reviewers.length !== this.reviewersUsed) out.reviewers.length = this.reviewersUsed;
    return out;
  }

  addPosition(position: number, score: number, rank: number): void {
    const at = this.positionsUsed++;
    const entry = this.positionPool[at] ?? (this.positionPool[at] = { position: 0, score: 0, rank: 0 });
    entry.position = position;
    entry.score = score;
    entry.rank = rank;
    this.stats.positions[at] = entry;
  }

  addReviewer(reviewer: number, sums: { n: number; sum: number; sumOfSquares: number }): void {
    const at = this.reviewersUsed++;
    const entry = this.reviewerPool[at] ?? (this.reviewerPool[at] = { reviewer: 0, n: 0, sum: 0, sumOfSquares: 0 });
    entry.reviewer = reviewer;
    entry.n = sums.n;
    entry.sum = sums.sum;
    entry.sumOfSquares = sums.sumOfSquares;
    this.stats.reviewers[at] = entry;
  }

  /** An empty block of order group `group` (not yet in a list). */
  block(group: number): Block {
    const block =
      this.blockPool[this.blocksUsed] ?? (this.blockPool[this.blocksUsed] = { group: 0, values: [], positions: [] });
    this.blocksUsed++;
    block.group = group;
    if (block.values.length > 0) block.values.length = 0;
    if (block.positions.length > 0) block.positions.length = 0;
    return block;
  }
}

/** One pass over the sessions of `columns` (see `SessionIndicators`). `blocks`: also keep the permutation test's blocks. */
export function collectSessionIndicators(columns: BiasColumns, options: { blocks: boolean }): SessionIndicators {
  const scratch = new Scratch();
  const forEachSession = (visit: (stats: IndicatorSessionStats) => void): void => {
    for (let s = 0; s < columns.sessionIds.length; s++)
      visit(indicatorSessionStats(columns, { s, scratch, blocks: options.blocks }));
  };
  return foldSessionIndicators(
    {
      sessions: columns.sessionIds.length,
      models: columns.models.length,
      sessionsAtPosition: sessionsAtPosition(columns),
      blocks: options.blocks,
    },
    forEachSession,
  );
}

/**
 * The indicators of one session of `columns`. The result, its arrays and their entries belong to `scratch`
 * and are reused by its next call: copy what you keep.
 */
export function indicatorSessionStats(
  columns: BiasColumns,
  at: { s: number; scratch: Scratch; blocks: boolean },
): IndicatorSessionStats {
  const { s, scratch } = at;
  const start = columns.sessionStart[s]!;
  const n = columns.sessionStart[s + 1]! - start;
  const scores = columns.score;
  const shown = columns.position;
  const ranks = columns.rankPosition;
  const { reviewer: reviewers, candidate: candidates, configVersion, responseLengthChars } = columns;
  scratch.ensure(n, 1);
  // One pass over the records: local indices of reviewers and candidates (linear search: a council has a handful
  // of members, each one's sums set to 0 when first met), the config codes, and the candidates' and reviewers'
  // sums — each sum adding its records in record order.
  const {
    revIds,
    candIds,
    revOf,
    candOf,
    memberIds,
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
  scratch.ensure(n, maxPosition + 1);
  const out = scratch.reset();
  out.session = s;
  let members = 0;
  for (let r = 0; r < R; r++) members = insertSorted(memberIds, { count: members, value: revIds[r]! });
  for (let c = 0; c < C; c++) members = insertSorted(memberIds, { count: members, value: candIds[c]! });
  setList(out.members, memberIds, members);
  const configs = out.configVersions;
  let configCount = 0;
  for (let j = 0; j < codeCount; j++) {
    const v = codes[j]!;
    const name = v === 0 ? '(none)' : columns.configVersions[v - 1]!;
    let at = 0;
    while (at < configCount && configs[at] !== name) at++;
    if (at === configCount) configs[configCount++] = name;
  }
  if (configs.length !== configCount) configs.length = configCount;
  if (configCount > 1) configs.sort();

  // Which reviewers were shown the same order (the same position for every candidate).
  const orderGroupOf = scratch.orderGroupOf.fill(0, 0, R);
  if (at.blocks) {
    const shownAt = scratch.shownAtOf(R * C);
    for (let i = 0; i < n; i++) shownAt[revOf[i]! * C + candOf[i]!] = shown[start + i]!;
    const groupOfOrder = new Map<string, number>();
    for (let b = 0; b < R; b++) {
      const key = shownAt.subarray(b * C, (b + 1) * C).join(',');
      let group = groupOfOrder.get(key);
      if (group === undefined) groupOfOrder.set(key, (group = groupOfOrder.size));
      orderGroupOf[b] = group;
    }
  }

  out.scoredRecords = scoreCount;
  const sessionMean = scoreCount > 0 ? scoreSum / scoreCount : 0;
  if (scoreCount > 0) out.meanScore = sessionMean;
  const lengths = scratch.lengths.fill(0, 0, C);
  const means = scratch.means.fill(0, 0, C);
  let scored = 0;
  for (let c = 0; c < C; c++) {
    if (candCount[c]! === 0) continue;
    lengths[scored] = candLength[c]!;
    means[scored++] = candSum[c]! / candCount[c]!;
  }
  const r = correlation(lengths, means, scored);
  if (r !== null) {
    out.lengthR = r;
    out.lengthN = scored;
  }

  // Position: per reviewer its centred scores and rank points, then the positions' means, spread, primacy and
  // recency (its own file: the largest step). The other steps stay in this function: as functions of their own
  // (the pass over the records, members, config versions, order groups, length, anchoring) they made
  // collectSessionIndicators 5–10% slower at 1,000 sessions (ABBA-interleaved runs against this layout).
  const scan = scratch.scan;
  scan.start = start;
  scan.records = n;
  scan.reviewers = R;
  scan.maxPosition = maxPosition;
  addSessionPositionFigures(columns, scratch, at.blocks);

  // Anchoring: display position against |score − session mean|.
  if (scoreCount >= 3) {
    const { anchorPos, anchorDev } = scratch;
    let j = 0;
    for (let i = start; i < start + n; i++) {
      const x = scores[i]!;
      if (Number.isNaN(x)) continue;
      anchorPos[j] = shown[i]!;
      anchorDev[j++] = Math.abs(x - sessionMean);
    }
    const anchor = correlation(anchorPos, anchorDev, j);
    if (anchor !== null) out.anchoring = anchor;
  }
  return scratch.finish();
}

/** Inserts `value` into the ascending first `count` entries of `list` unless it is there already; returns the new count. */
function insertSorted(list: Int32Array, at: { count: number; value: number }): number {
  const { count, value } = at;
  let j = count;
  while (j > 0 && list[j - 1]! > value) j--;
  if (j > 0 && list[j - 1] === value) return count;
  for (let i = count; i > j; i--) list[i] = list[i - 1]!;
  list[j] = value;
  return count + 1;
}

/** Makes `list` the first `count` entries of `values`, overwriting in place (its length set only when it changes). */
function setList(list: number[], values: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) list[i] = values[i]!;
  if (list.length !== count) list.length = count;
}

/**
 * Adds up sessions' indicators, in session order, into `SessionIndicators`. `sessionsAtPosition[p]` bounds the
 * sessions showing position p (it sizes the per-position series); `blocks`: keep the permutation test's blocks.
 */
export function foldSessionIndicators(
  spec: { sessions: number; models: number; sessionsAtPosition: Int32Array; blocks: boolean },
  forEachSession: (visit: (stats: IndicatorSessionStats) => void) => void,
): SessionIndicators {
  const S = spec.sessions;
  const positionSeries = new PositionSeries(spec.sessionsAtPosition);
  const rankSeries = new PositionSeries(spec.sessionsAtPosition);
  // Only their values are read (a t across sessions).
  const primacy = new SessionSeries(S, false);
  const recency = new SessionSeries(S, false);
  const anchoring = new SessionSeries(S, false);
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
    lengthR: new Float64Array(S).fill(Number.NaN),
    lengthN: new Int32Array(S),
    positionSpread: new Float64Array(S).fill(Number.NaN),
    meanScores: new Float64Array(S).fill(Number.NaN),
    anchoringValues: new Float64Array(0),
    reviewerMoments: Array.from({ length: spec.models }, () => null),
    modelKey: new Int32Array(S),
    configKey: new Int32Array(S),
    keys: [],
    scoredRecords: 0,
  };
  const keys = new ListKeys(out.keys);
  let orderGroups = 0;
  const addBlocks = (into: PositionBlocks, blocks: IndicatorSessionStats['scoreBlocks']): number => {
    let groups = 0;
    for (const block of blocks) {
      into.starts.push(into.values.length);
      into.groups.push(orderGroups + block.group);
      groups = Math.max(groups, block.group + 1);
      for (let j = 0; j < block.values.length; j++) {
        into.values.push(block.values[j]!);
        into.labels.push(block.positions[j]!);
      }
    }
    return groups;
  };
  forEachSession((x) => {
    const s = x.session;
    out.modelKey[s] = keys.indexOf(x.members);
    out.configKey[s] = keys.indexOf(x.configVersions);
    out.scoredRecords += x.scoredRecords;
    out.meanScores[s] = x.meanScore;
    out.lengthR[s] = x.lengthR;
    out.lengthN[s] = x.lengthN;
    out.positionSpread[s] = x.positionSpread;
    for (const r of x.reviewers)
      addReviewerMoments(out.reviewerMoments, r.reviewer, { n: r.n, a: r.sum, b: r.sumOfSquares });
    if (spec.blocks)
      orderGroups += Math.max(addBlocks(out.scoreBlocks, x.scoreBlocks), addBlocks(out.rankBlocks, x.rankBlocks));
    if (x.positionedScores) out.positionedScoreSessions++;
    if (x.rankOnly) out.rankedSessions++;
    for (const p of x.positions) {
      if (!Number.isNaN(p.score)) positionSeries.add(p.position, s, p.score);
      if (!Number.isNaN(p.rank)) rankSeries.add(p.position, s, p.rank);
    }
    if (!Number.isNaN(x.primacy)) primacy.add(s, x.primacy);
    if (!Number.isNaN(x.recency)) recency.add(s, x.recency);
    if (!Number.isNaN(x.anchoring)) anchoring.add(s, x.anchoring);
  });
  out.positionValues = positionSeries.values();
  out.positionSessions = positionSeries.sessions();
  out.rankValues = rankSeries.values();
  out.rankSessions = rankSeries.sessions();
  out.primacyValues = primacy.valuesSoFar();
  out.recencyValues = recency.valuesSoFar();
  out.anchoringValues = anchoring.valuesSoFar();
  return out;
}

interface ListNode {
  /** Index in `keys` of the list that ends here (−1: none yet). */
  index: number;
  next: Map<number | string, ListNode>;
}

/**
 * Interns lists by their comma-joined form (`keys[index]`, equal joined forms one index) without joining a list
 * met before: a walk down a tree of the lists seen, so a million sessions do not cost two million strings.
 */
class ListKeys {
  private readonly root: ListNode = { index: -1, next: new Map() };
  private readonly byKey = new Map<string, number>();

  constructor(private readonly keys: string[]) {}

  indexOf(list: readonly (number | string)[]): number {
    let node = this.root;
    for (const item of list) {
      let next = node.next.get(item);
      if (next === undefined) node.next.set(item, (next = { index: -1, next: new Map() }));
      node = next;
    }
    if (node.index === -1) {
      const key = list.join(',');
      let index = this.byKey.get(key);
      if (index === undefined) {
        index = this.keys.push(key) - 1;
        this.byKey.set(key, index);
      }
      node.index = index;
    }
    return node.index;
  }
}

function addReviewerMoments(
  all: (ReviewerMoments | null)[],
  model: number,
  session: { n: number; a: number; b: number },
): void {
  let m = all[model];
  if (m === null || m === undefined)
    all[model] = m = { sessions: 0, n: 0, a: 0, b: 0, nn: 0, na: 0, nb: 0, aa: 0, ab: 0, bb: 0 };
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
