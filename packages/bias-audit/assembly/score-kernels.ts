// The score model's per-session loops, in AssemblyScript (compiled to WebAssembly by `pnpm build:wasm`; the bytes
// are inlined into src/internal/score-kernels-wasm.ts). A cold report runs each of these loops once, over every
// record of the window: as JavaScript they ran in V8's interpreter until on-stack replacement reached them, on
// boxed doubles; as WebAssembly they run compiled from the first call, on unboxed f64s.
//
// Every sum is formed in the same order and with the same operations as the TypeScript it replaced (f64 arithmetic
// is IEEE in both; no fused multiply-add, no reassociation: binaryen keeps float expressions unless fast-math is
// asked, and it is not), so the report is the same to the last bit.
//
// Memory is laid out by the TypeScript side (src/internal/score-kernels.ts): arrays are byte addresses, set once
// per fit by the `set…` functions, and a chunk of sessions is a descriptor of `CHUNK_WORDS` u32 words (the address of
// each array of `ScoreChunk`, in the order of `chunkArrays` in src/internal/score-chunk.ts, then the chunk's size
// and the length of its answer rows).

// ---- The chunk descriptor's words (src/internal/score-chunk.ts's `chunkArrays`, in order).
const COL_START = 0;
const COLUMNS = 1;
const RECORDS = 2;
const XTY = 3;
const XTX_START = 4;
const XTX = 5;
const YTY = 6;
const ANSWER_START = 7;
const ANSWER_AUTHOR = 8;
const ANSWER_LENGTH = 9;
const ANSWER_COUNT = 10;
const ANSWER_MEAN = 11;
const ANSWER_ROW_START = 12;
const ANSWER_ROW = 13;
const PAIR_START = 14;
const PAIR_REVIEWER = 15;
const PAIR_AUTHOR = 16;
const PAIR_REVIEWER_COLUMN = 17;
const PAIR_POSITION_COLUMN = 18;
const PAIR_ANSWER = 19;
const PAIR_DEVIATION = 20;
const SIZE = 21;
const ANSWER_ROW_LENGTH = 22;

function word(chunk: usize, field: i32): usize {
  return <usize>load<u32>(chunk + ((<usize>field) << 2));
}

function getI(array: usize, i: i32): i32 {
  return load<i32>(array + ((<usize>i) << 2));
}

function setI(array: usize, i: i32, value: i32): void {
  store<i32>(array + ((<usize>i) << 2), value);
}

function getF(array: usize, i: i32): f64 {
  return load<f64>(array + ((<usize>i) << 3));
}

function setF(array: usize, i: i32, value: f64): void {
  store<f64>(array + ((<usize>i) << 3), value);
}

function addF(array: usize, i: i32, value: f64): void {
  const at = array + ((<usize>i) << 3);
  store<f64>(at, load<f64>(at) + value);
}

function subF(array: usize, i: i32, value: f64): void {
  const at = array + ((<usize>i) << 3);
  store<f64>(at, load<f64>(at) - value);
}

/** The first byte the TypeScript side may lay its arrays out from. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

// ---- Building a chunk from the records (was ColumnScoreSums.append).

// The records of the chunk's sessions: score (f64; NaN unscored), reviewer, candidate (i32), position, length (u32),
// record r of the window at index r − sessionStart[0]; sessionStart holds the chunk's sessions' starts (u32), plus one.
let score: usize = 0;
let reviewer: usize = 0;
let candidate: usize = 0;
let position: usize = 0;
let lengthChars: usize = 0;
let sessionStart: usize = 0;
// The design's layout (i32): name rank by member, column by reviewer, by position, self column by member (−1: none).
let nameRank: usize = 0;
let reviewerColumn: usize = 0;
let positionIndex: usize = 0;
let selfColumn: usize = 0;
// Scratch, k entries each (local starts at −1, mean and inSupport at 0, and each session leaves them so), and
// order, orderKey (the most records of a session) and answerFrom (one more).
let local: usize = 0;
let touched: usize = 0;
let mean: usize = 0;
let support: usize = 0;
let supportLocal: usize = 0;
let supportMean: usize = 0;
let inSupport: usize = 0;
let order: usize = 0;
let orderKey: usize = 0;
let answerFrom: usize = 0;

export function setRecords(
  scoreAt: usize,
  reviewerAt: usize,
  candidateAt: usize,
  positionAt: usize,
  lengthCharsAt: usize,
  sessionStartAt: usize,
): void {
  score = scoreAt;
  reviewer = reviewerAt;
  candidate = candidateAt;
  position = positionAt;
  lengthChars = lengthCharsAt;
  sessionStart = sessionStartAt;
}

export function setLayout(
  nameRankAt: usize,
  reviewerColumnAt: usize,
  positionIndexAt: usize,
  selfColumnAt: usize,
): void {
  nameRank = nameRankAt;
  reviewerColumn = reviewerColumnAt;
  positionIndex = positionIndexAt;
  selfColumn = selfColumnAt;
}

export function setScratch(
  localAt: usize,
  touchedAt: usize,
  meanAt: usize,
  supportAt: usize,
  supportLocalAt: usize,
  supportMeanAt: usize,
  inSupportAt: usize,
  orderAt: usize,
  orderKeyAt: usize,
  answerFromAt: usize,
): void {
  local = localAt;
  touched = touchedAt;
  mean = meanAt;
  support = supportAt;
  supportLocal = supportLocalAt;
  supportMean = supportMeanAt;
  inSupport = inSupportAt;
  order = orderAt;
  orderKey = orderKeyAt;
  answerFrom = answerFromAt;
}

/**
 * Groups session `s`'s scored records by answer into `order` (insertion by the author's name rank, stable:
 * sessions have tens of records), answer j from `answerFrom[j]`; returns the answers. Record indices are relative
 * to the chunk's first record.
 */
function groupAnswers(s: i32, first: i32): i32 {
  const from = <i32>load<u32>(sessionStart + ((<usize>s) << 2)) - first;
  const to = <i32>load<u32>(sessionStart + ((<usize>(s + 1)) << 2)) - first;
  let n = 0;
  for (let i = from; i < to; i++) {
    if (isNaN<f64>(getF(score, i))) continue;
    const c = getI(nameRank, getI(candidate, i));
    let j = n++;
    while (j > 0 && getI(orderKey, j - 1) > c) {
      setI(order, j, getI(order, j - 1));
      setI(orderKey, j, getI(orderKey, j - 1));
      j--;
    }
    setI(order, j, i);
    setI(orderKey, j, c);
  }
  let answers = 0;
  for (let j = 0; j < n; j++) if (j == 0 || getI(orderKey, j) != getI(orderKey, j - 1)) setI(answerFrom, answers++, j);
  setI(answerFrom, answers, n);
  return answers;
}

/** Column `a` (global) of the session: its local index, numbering it `m` if new; returns the new `m`. */
function useColumn(a: i32, m: i32): i32 {
  if (getI(local, a) == -1) {
    setI(local, a, m);
    setI(touched, m, a);
    return m + 1;
  }
  return m;
}

/** Adds global column `a` to the answer's support (its columns in the order its records use them); returns the size. */
function useSupport(a: i32, size: i32, share: f64): i32 {
  let grown = size;
  if (load<u8>(inSupport + <usize>a) == 0) {
    store<u8>(inSupport + <usize>a, 1);
    setI(support, grown++, a);
  }
  addF(mean, a, share);
  return grown;
}

/**
 * Forms the score-model sums of sessions `from … to` (of the chunk's `sessionStart`, whose records are in the record
 * arrays) and lays them out in the chunk `chunk`, skipping sessions without a scored record; writes each kept session's
 * index (`from`-relative, plus `firstSession`) to `sessionsOut`. Returns the sessions kept.
 */
export function buildChunk(chunk: usize, sessions: i32, firstSession: i32, sessionsOut: usize): i32 {
  const colStart = word(chunk, COL_START);
  const columnsOut = word(chunk, COLUMNS);
  const recordsOut = word(chunk, RECORDS);
  const xtyOut = word(chunk, XTY);
  const xtxStart = word(chunk, XTX_START);
  const xtxOut = word(chunk, XTX);
  const ytyOut = word(chunk, YTY);
  const answerStart = word(chunk, ANSWER_START);
  const authorOut = word(chunk, ANSWER_AUTHOR);
  const lengthOut = word(chunk, ANSWER_LENGTH);
  const countOut = word(chunk, ANSWER_COUNT);
  const meanOut = word(chunk, ANSWER_MEAN);
  const rowStartOut = word(chunk, ANSWER_ROW_START);
  const rowOut = word(chunk, ANSWER_ROW);
  const pairStart = word(chunk, PAIR_START);
  const pairReviewerOut = word(chunk, PAIR_REVIEWER);
  const pairAuthorOut = word(chunk, PAIR_AUTHOR);
  const pairReviewerColumnOut = word(chunk, PAIR_REVIEWER_COLUMN);
  const pairPositionColumnOut = word(chunk, PAIR_POSITION_COLUMN);
  const pairAnswerOut = word(chunk, PAIR_ANSWER);
  const pairDeviationOut = word(chunk, PAIR_DEVIATION);
  const first = <i32>load<u32>(sessionStart);
  let kept = 0;
  let c0 = 0;
  let x0 = 0;
  let firstAnswer = 0;
  let r0 = 0;
  let pairs = 0;
  for (let s = 0; s < sessions; s++) {
    const answers = groupAnswers(s, first);
    if (answers == 0) continue;
    const scored = getI(answerFrom, answers);
    // The session's columns, in the order its records (by answer) first use them: reviewer, position, self.
    let m = 0;
    for (let r = 0; r < scored; r++) {
      const i = getI(order, r);
      const who = getI(reviewer, i);
      m = useColumn(getI(reviewerColumn, who), m);
      m = useColumn(getI(positionIndex, <i32>load<u32>(position + ((<usize>i) << 2))), m);
      if (who == getI(candidate, i) && getI(selfColumn, who) >= 0) m = useColumn(getI(selfColumn, who), m);
    }
    setI(sessionsOut, kept, firstSession + s);
    setI(colStart, kept, c0);
    setI(xtxStart, kept, x0);
    setI(answerStart, kept, firstAnswer);
    setI(pairStart, kept, pairs);
    for (let a = 0; a < m; a++) {
      setI(columnsOut, c0 + a, getI(touched, a));
      setF(recordsOut, c0 + a, 0);
      setF(xtyOut, c0 + a, 0);
    }
    memory.fill(xtxOut + ((<usize>x0) << 3), 0, (<usize>(m * m)) << 3);
    memory.fill(rowOut + ((<usize>r0) << 3), 0, (<usize>(answers * m)) << 3);
    let size = 0;
    let yty: f64 = 0;
    for (let answer = 0; answer < answers; answer++) {
      const from = getI(answerFrom, answer);
      const count = getI(answerFrom, answer + 1) - from;
      // The answer's mean row and mean score, its columns in the order its records use them.
      for (let j = 0; j < size; j++) {
        const a = getI(support, j);
        setF(mean, a, 0);
        store<u8>(inSupport + <usize>a, 0);
      }
      size = 0;
      let y: f64 = 0;
      const share: f64 = 1 / <f64>count;
      for (let r = from; r < from + count; r++) {
        const i = getI(order, r);
        const who = getI(reviewer, i);
        size = useSupport(getI(reviewerColumn, who), size, share);
        size = useSupport(getI(positionIndex, <i32>load<u32>(position + ((<usize>i) << 2))), size, share);
        if (who == getI(candidate, i) && getI(selfColumn, who) >= 0)
          size = useSupport(getI(selfColumn, who), size, share);
        y += getF(score, i);
      }
      const yBar = y * share;
      const row = r0 + answer * m;
      for (let j = 0; j < size; j++) {
        setI(supportLocal, j, getI(local, getI(support, j)));
        setF(supportMean, j, getF(mean, getI(support, j)));
        setF(rowOut, row + getI(supportLocal, j), getF(supportMean, j));
      }
      const head = getI(order, from);
      const author = getI(candidate, head);
      const at = firstAnswer + answer;
      setI(authorOut, at, author);
      setF(lengthOut, at, <f64>load<u32>(lengthChars + ((<usize>head) << 2)));
      setF(countOut, at, <f64>count);
      setF(meanOut, at, yBar);
      setI(rowStartOut, at, row);
      if (count < 2) continue;
      // Σ(x − x̄)(x − x̄)' = Σxx' − m·x̄x̄', over the answer's own columns.
      for (let ja = 0; ja < size; ja++) {
        const ma = <f64>count * getF(supportMean, ja);
        const rowAt = x0 + getI(supportLocal, ja) * m;
        for (let jb = 0; jb < size; jb++) subF(xtxOut, rowAt + getI(supportLocal, jb), ma * getF(supportMean, jb));
      }
      for (let r = from; r < from + count; r++) {
        const i = getI(order, r);
        const who = getI(reviewer, i);
        const yi = getF(score, i) - yBar;
        yty += yi * yi;
        const la = getI(local, getI(reviewerColumn, who));
        const lb = getI(local, getI(positionIndex, <i32>load<u32>(position + ((<usize>i) << 2))));
        const self = who == getI(candidate, i) && getI(selfColumn, who) >= 0;
        const lc = self ? getI(local, getI(selfColumn, who)) : -1;
        addF(recordsOut, c0 + la, 1);
        addF(xtyOut, c0 + la, yi);
        addF(xtxOut, x0 + la * m + la, 1);
        addF(xtxOut, x0 + la * m + lb, 1);
        if (self) addF(xtxOut, x0 + la * m + lc, 1);
        addF(recordsOut, c0 + lb, 1);
        addF(xtyOut, c0 + lb, yi);
        addF(xtxOut, x0 + lb * m + la, 1);
        addF(xtxOut, x0 + lb * m + lb, 1);
        if (self) {
          addF(xtxOut, x0 + lb * m + lc, 1);
          addF(recordsOut, c0 + lc, 1);
          addF(xtyOut, c0 + lc, yi);
          addF(xtxOut, x0 + lc * m + la, 1);
          addF(xtxOut, x0 + lc * m + lb, 1);
          addF(xtxOut, x0 + lc * m + lc, 1);
        }
        if (who == author) continue;
        setI(pairReviewerOut, pairs, who);
        setI(pairAuthorOut, pairs, author);
        setI(pairReviewerColumnOut, pairs, la);
        setI(pairPositionColumnOut, pairs, lb);
        setI(pairAnswerOut, pairs, firstAnswer + answer);
        setF(pairDeviationOut, pairs++, yi);
      }
    }
    for (let j = 0; j < size; j++) {
      const a = getI(support, j);
      setF(mean, a, 0);
      store<u8>(inSupport + <usize>a, 0);
    }
    for (let j = 0; j < m; j++) setI(local, getI(touched, j), -1);
    setF(ytyOut, kept, yty);
    kept++;
    c0 += m;
    x0 += m * m;
    firstAnswer += answers;
    r0 += answers * m;
  }
  setI(colStart, kept, c0);
  setI(xtxStart, kept, x0);
  setI(answerStart, kept, firstAnswer);
  setI(pairStart, kept, pairs);
  store<u32>(chunk + ((<usize>SIZE) << 2), kept);
  store<u32>(chunk + ((<usize>ANSWER_ROW_LENGTH) << 2), r0);
  return kept;
}

// ---- Pass 1 (was sumNormalEquations): the normal equations of the within-answer design and their counts.

let k: i32 = 0;
let models: i32 = 0;
let xtx: usize = 0;
let xty: usize = 0;
let columnRecords: usize = 0;
let columnSessions: usize = 0;
let pairDesign: usize = 0;
let pairRecords: usize = 0;
let pairDeviation: usize = 0;
/** observations, answers (f64 each). */
let normalCounts: usize = 0;

export function setNormalEquations(
  columnsK: i32,
  modelsM: i32,
  xtxAt: usize,
  xtyAt: usize,
  columnRecordsAt: usize,
  columnSessionsAt: usize,
  pairDesignAt: usize,
  pairRecordsAt: usize,
  pairDeviationAt: usize,
  countsAt: usize,
): void {
  k = columnsK;
  models = modelsM;
  xtx = xtxAt;
  xty = xtyAt;
  columnRecords = columnRecordsAt;
  columnSessions = columnSessionsAt;
  pairDesign = pairDesignAt;
  pairRecords = pairRecordsAt;
  pairDeviation = pairDeviationAt;
  normalCounts = countsAt;
}

export function sumNormalEquations(chunk: usize): void {
  const c = word(chunk, COLUMNS);
  const colStart = word(chunk, COL_START);
  const xtxStart = word(chunk, XTX_START);
  const sessionXtx = word(chunk, XTX);
  const sessionXty = word(chunk, XTY);
  const records = word(chunk, RECORDS);
  const answerStart = word(chunk, ANSWER_START);
  const answerCount = word(chunk, ANSWER_COUNT);
  const answerRowStart = word(chunk, ANSWER_ROW_START);
  const answerRow = word(chunk, ANSWER_ROW);
  const pairStart = word(chunk, PAIR_START);
  const pairReviewer = word(chunk, PAIR_REVIEWER);
  const pairAuthor = word(chunk, PAIR_AUTHOR);
  const pairReviewerColumn = word(chunk, PAIR_REVIEWER_COLUMN);
  const pairPositionColumn = word(chunk, PAIR_POSITION_COLUMN);
  const pairAnswer = word(chunk, PAIR_ANSWER);
  const pairDeviationIn = word(chunk, PAIR_DEVIATION);
  const size = <i32>word(chunk, SIZE);
  let observations = getF(normalCounts, 0);
  let answers = getF(normalCounts, 1);
  for (let s = 0; s < size; s++) {
    const c0 = getI(colStart, s);
    const m = getI(colStart, s + 1) - c0;
    const x0 = getI(xtxStart, s);
    for (let a = 0; a < m; a++) {
      const column = getI(c, c0 + a);
      const ga = column * k;
      addF(xty, column, getF(sessionXty, c0 + a));
      addF(columnRecords, column, getF(records, c0 + a));
      if (getF(records, c0 + a) > 0) setI(columnSessions, column, getI(columnSessions, column) + 1);
      const row = x0 + a * m;
      for (let b = 0; b < m; b++) addF(xtx, ga + getI(c, c0 + b), getF(sessionXtx, row + b));
    }
    for (let j = getI(answerStart, s); j < getI(answerStart, s + 1); j++) {
      if (getF(answerCount, j) < 2) continue;
      observations += getF(answerCount, j);
      answers += 1;
    }
    // A pair record's demeaned row: its reviewer's and position's columns less its answer's mean row.
    for (let j = getI(pairStart, s); j < getI(pairStart, s + 1); j++) {
      const pair = getI(pairReviewer, j) * models + getI(pairAuthor, j);
      addF(pairRecords, pair, 1);
      addF(pairDeviation, pair, getF(pairDeviationIn, j));
      const base = pair * k;
      addF(pairDesign, base + getI(c, c0 + getI(pairReviewerColumn, j)), 1);
      addF(pairDesign, base + getI(c, c0 + getI(pairPositionColumn, j)), 1);
      const r0 = getI(answerRowStart, getI(pairAnswer, j));
      for (let a = 0; a < m; a++) subF(pairDesign, base + getI(c, c0 + a), getF(answerRow, r0 + a));
    }
  }
  setF(normalCounts, 0, observations);
  setF(normalCounts, 1, answers);
}

// ---- Pass 2 (was sumScoreResiduals' loop, with addLengthSession): each session's score X̃_s'ẽ_s into the meat, its
// residual sum of squares, its pairs' residuals and its answers' adjusted levels.

let beta: usize = 0;
let lengthBeta: usize = 0;
let meat: usize = 0;
let pairSum: usize = 0;
let pairN: usize = 0;
let pairSessions: usize = 0;
let eScore: usize = 0;
let nScore: usize = 0;
let pairIndex: usize = 0;
let centre: usize = 0;
let usedPairs: i32 = 0;
let cross: usize = 0;
let perSession: usize = 0;
let points: usize = 0;
/**
 * The pass's numbers (f64 each): the within sums' sessions, sxx, sxy, syy, answers; the between sums' n, sx, sy,
 * sxx; informative sessions, Σe², Σỹ².
 */
let residualCounts: usize = 0;
// Scratch: localBeta, localLengthBeta, sessionScore (k each); answerFitted, sessionX, sessionY (one per member);
// sessionPairSum, sessionPairN (f64), sessionPairs (i32), one per pair of members, the first two at 0 between
// sessions; sessionA, sessionAt, one per used pair.
let localBeta: usize = 0;
let localLengthBeta: usize = 0;
let sessionScore: usize = 0;
let answerFitted: usize = 0;
let sessionX: usize = 0;
let sessionY: usize = 0;
let sessionPairSum: usize = 0;
let sessionPairN: usize = 0;
let sessionPairs: usize = 0;
let sessionA: usize = 0;
let sessionAt: usize = 0;

const WITHIN_SESSIONS = 0;
const WITHIN_SXX = 1;
const WITHIN_SXY = 2;
const WITHIN_SYY = 3;
const WITHIN_ANSWERS = 4;
const BETWEEN_N = 5;
const BETWEEN_SX = 6;
const BETWEEN_SY = 7;
const BETWEEN_SXX = 8;
const INFORMATIVE_SESSIONS = 9;
const RESIDUAL_SQUARES = 10;
const TOTAL_SQUARES = 11;

export function setResidualFit(
  columnsK: i32,
  modelsM: i32,
  betaAt: usize,
  lengthBetaAt: usize,
  pairIndexAt: usize,
  centreAt: usize,
  used: i32,
): void {
  k = columnsK;
  models = modelsM;
  beta = betaAt;
  lengthBeta = lengthBetaAt;
  pairIndex = pairIndexAt;
  centre = centreAt;
  usedPairs = used;
}

export function setResidualSums(
  meatAt: usize,
  pairSumAt: usize,
  pairNAt: usize,
  pairSessionsAt: usize,
  eScoreAt: usize,
  nScoreAt: usize,
  crossAt: usize,
  perSessionAt: usize,
  pointsAt: usize,
  countsAt: usize,
): void {
  meat = meatAt;
  pairSum = pairSumAt;
  pairN = pairNAt;
  pairSessions = pairSessionsAt;
  eScore = eScoreAt;
  nScore = nScoreAt;
  cross = crossAt;
  perSession = perSessionAt;
  points = pointsAt;
  residualCounts = countsAt;
}

export function setResidualScratch(
  localBetaAt: usize,
  localLengthBetaAt: usize,
  sessionScoreAt: usize,
  answerFittedAt: usize,
  sessionXAt: usize,
  sessionYAt: usize,
  sessionPairSumAt: usize,
  sessionPairNAt: usize,
  sessionPairsAt: usize,
  sessionAAt: usize,
  sessionAtAt: usize,
): void {
  localBeta = localBetaAt;
  localLengthBeta = localLengthBetaAt;
  sessionScore = sessionScoreAt;
  answerFitted = answerFittedAt;
  sessionX = sessionXAt;
  sessionY = sessionYAt;
  sessionPairSum = sessionPairSumAt;
  sessionPairN = sessionPairNAt;
  sessionPairs = sessionPairsAt;
  sessionA = sessionAAt;
  sessionAt = sessionAtAt;
}

/**
 * A level's deviation from a mean, or 0 where it is rounding (see length-figures.ts's `settled`, which the
 * between-session figures use): a billionth of a point, relative to the level's size, is no variation.
 */
function settled(deviation: f64, level: f64): f64 {
  return abs<f64>(deviation) <= 1e-9 * max<f64>(1, abs<f64>(level)) ? 0 : deviation;
}

/** Adds one session's answers (length in thousands of characters, adjusted level) to the within and between sums. */
function addLengthSession(count: i32): void {
  if (count == 0) return;
  const n = <f64>count;
  let mx: f64 = 0;
  let my: f64 = 0;
  for (let j = 0; j < count; j++) {
    mx += getF(sessionX, j) / n;
    my += getF(sessionY, j) / n;
  }
  const b = <i32>getF(residualCounts, BETWEEN_N);
  setF(points, 2 * b, mx);
  setF(points, 2 * b + 1, my);
  addF(residualCounts, BETWEEN_N, 1);
  addF(residualCounts, BETWEEN_SX, mx);
  addF(residualCounts, BETWEEN_SY, my);
  addF(residualCounts, BETWEEN_SXX, mx * mx);
  if (count < 2) return;
  let sxx: f64 = 0;
  let sxy: f64 = 0;
  let syy: f64 = 0;
  for (let j = 0; j < count; j++) {
    const dx = getF(sessionX, j) - mx;
    const dy = settled(getF(sessionY, j) - my, my);
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx == 0) return;
  const w = <i32>getF(residualCounts, WITHIN_SESSIONS);
  setF(perSession, 3 * w, sxx);
  setF(perSession, 3 * w + 1, sxy);
  setF(perSession, 3 * w + 2, syy);
  addF(residualCounts, WITHIN_SESSIONS, 1);
  addF(residualCounts, WITHIN_ANSWERS, n);
  addF(residualCounts, WITHIN_SXX, sxx);
  addF(residualCounts, WITHIN_SXY, sxy);
  addF(residualCounts, WITHIN_SYY, syy);
}

export function sumScoreResiduals(chunk: usize): void {
  const c = word(chunk, COLUMNS);
  const colStart = word(chunk, COL_START);
  const xtxStart = word(chunk, XTX_START);
  const sessionXtx = word(chunk, XTX);
  const sessionXty = word(chunk, XTY);
  const sessionYty = word(chunk, YTY);
  const records = word(chunk, RECORDS);
  const answerStart = word(chunk, ANSWER_START);
  const answerLength = word(chunk, ANSWER_LENGTH);
  const answerMean = word(chunk, ANSWER_MEAN);
  const answerRowStart = word(chunk, ANSWER_ROW_START);
  const answerRow = word(chunk, ANSWER_ROW);
  const pairStart = word(chunk, PAIR_START);
  const pairReviewer = word(chunk, PAIR_REVIEWER);
  const pairAuthor = word(chunk, PAIR_AUTHOR);
  const pairReviewerColumn = word(chunk, PAIR_REVIEWER_COLUMN);
  const pairPositionColumn = word(chunk, PAIR_POSITION_COLUMN);
  const pairAnswer = word(chunk, PAIR_ANSWER);
  const pairDeviationIn = word(chunk, PAIR_DEVIATION);
  const size = <i32>word(chunk, SIZE);
  const P = usedPairs;
  let informativeSessions = getF(residualCounts, INFORMATIVE_SESSIONS);
  let residualSquares = getF(residualCounts, RESIDUAL_SQUARES);
  let totalSquares = getF(residualCounts, TOTAL_SQUARES);
  for (let s = 0; s < size; s++) {
    const c0 = getI(colStart, s);
    const m = getI(colStart, s + 1) - c0;
    const x0 = getI(xtxStart, s);
    for (let a = 0; a < m; a++) {
      setF(localBeta, a, getF(beta, getI(c, c0 + a)));
      setF(localLengthBeta, a, getF(lengthBeta, getI(c, c0 + a)));
    }
    const firstAnswer = getI(answerStart, s);
    const answers = getI(answerStart, s + 1) - firstAnswer;
    // score = X̃'ỹ − X̃'X̃β̂; Σe² = ỹ'ỹ − 2β̂'X̃'ỹ + β̂'X̃'X̃β̂ = ỹ'ỹ − β̂'(X̃'ỹ + score).
    let informative = false;
    for (let a = 0; a < m; a++) {
      let fitted: f64 = 0;
      const row = x0 + a * m;
      for (let b = 0; b < m; b++) fitted += getF(sessionXtx, row + b) * getF(localBeta, b);
      setF(sessionScore, a, getF(sessionXty, c0 + a) - fitted);
      if (getF(records, c0 + a) > 0) informative = true;
    }
    let explained: f64 = 0;
    for (let a = 0; a < m; a++) explained += getF(localBeta, a) * (getF(sessionXty, c0 + a) + getF(sessionScore, a));
    // A difference of sums: clamp the rounding of an (almost) exact fit at 0, never below (f64.max, like
    // JavaScript's Math.max, gives NaN for NaN and +0 for ±0).
    residualSquares += max<f64>(0, getF(sessionYty, s) - explained);
    totalSquares += getF(sessionYty, s);
    if (informative) {
      informativeSessions += 1;
      for (let a = 0; a < m; a++) {
        const sa = getF(sessionScore, a);
        if (sa == 0) continue;
        const ga = getI(c, c0 + a) * k;
        for (let b = 0; b < m; b++) addF(meat, ga + getI(c, c0 + b), sa * getF(sessionScore, b));
      }
    }
    // Each answer's adjusted level: its mean score less the mean of its reviewers' offsets, positions and self-preference.
    for (let j = firstAnswer; j < firstAnswer + answers; j++) {
      const r0 = getI(answerRowStart, j);
      let fitted: f64 = 0;
      let lengthFitted: f64 = 0;
      for (let a = 0; a < m; a++) {
        fitted += getF(answerRow, r0 + a) * getF(localBeta, a);
        lengthFitted += getF(answerRow, r0 + a) * getF(localLengthBeta, a);
      }
      setF(answerFitted, j - firstAnswer, fitted);
      setF(sessionX, j - firstAnswer, getF(answerLength, j) / 1000);
      setF(sessionY, j - firstAnswer, getF(answerMean, j) - lengthFitted);
    }
    // Each pair's residual sum and records in this session, from its records' residuals.
    let pairsInSession = 0;
    for (let j = getI(pairStart, s); j < getI(pairStart, s + 1); j++) {
      const p = getI(pairReviewer, j) * models + getI(pairAuthor, j);
      const predicted =
        getF(localBeta, getI(pairReviewerColumn, j)) +
        getF(localBeta, getI(pairPositionColumn, j)) -
        getF(answerFitted, getI(pairAnswer, j) - firstAnswer);
      if (getF(sessionPairN, p) == 0) setI(sessionPairs, pairsInSession++, p);
      addF(sessionPairSum, p, getF(pairDeviationIn, j) - predicted);
      addF(sessionPairN, p, 1);
    }
    for (let q = 0; q < pairsInSession; q++) {
      const p = getI(sessionPairs, q);
      const e = getF(sessionPairSum, p);
      const n = getF(sessionPairN, p);
      const used = getI(pairIndex, p);
      setI(sessionAt, q, used);
      setF(sessionA, q, e - getF(centre, used) * n);
      addF(pairSum, p, e);
      addF(pairN, p, n);
      setI(pairSessions, p, getI(pairSessions, p) + 1);
      const base = p * k;
      for (let a = 0; a < m; a++) {
        const at = base + getI(c, c0 + a);
        addF(eScore, at, e * getF(sessionScore, a));
        addF(nScore, at, n * getF(sessionScore, a));
      }
      setF(sessionPairSum, p, 0);
      setF(sessionPairN, p, 0);
    }
    // Σ_s a_s^p a_s^q over the pairs of this session (their joint influence): each unordered couple once here,
    // mirrored when the pass ends.
    for (let q = 0; q < pairsInSession; q++) {
      const p = getI(sessionAt, q);
      const a = getF(sessionA, q);
      for (let r = q; r < pairsInSession; r++) {
        const o = getI(sessionAt, r);
        addF(cross, p <= o ? p * P + o : o * P + p, a * getF(sessionA, r));
      }
    }
    addLengthSession(answers);
  }
  setF(residualCounts, INFORMATIVE_SESSIONS, informativeSessions);
  setF(residualCounts, RESIDUAL_SQUARES, residualSquares);
  setF(residualCounts, TOTAL_SQUARES, totalSquares);
}

// ---- The position design (was positionDesignFromColumns' loop and PositionDesignSums.addSession, position-design.ts):
// how display positions were assigned, from each session's answers (author name rank, length, and their scored
// records' positions: count, Σp, Σp²).

let designModels: i32 = 0;
/** The within-session Gram matrix of (author indicators…, length rank, position), (m + 2)². */
let gram: usize = 0;
/** before[a·m + b]: sessions that showed author a before author b. */
let before: usize = 0;
/** Each session's authors and their mean positions (`answersKept` of them), and where each session's end. */
let sessionAuthors: usize = 0;
let sessionMeans: usize = 0;
let sessionEnds: usize = 0;
/** The design's counts (f64 each), in `DESIGN_…` order. */
let designCounts: usize = 0;
// Per member (by name rank): a session's scored records' count, Σp, Σp², its answer's length; the authors met.
let rankOf: usize = 0;
let byCount: usize = 0;
let bySum: usize = 0;
let bySquares: usize = 0;
let byLength: usize = 0;
let seen: usize = 0;
// A session's answers in author-name order (the caller's, for `addDesignSession`), and their length ranks.
let designAuthor: usize = 0;
let designLength: usize = 0;
let designCount: usize = 0;
let designSum: usize = 0;
let designSquares: usize = 0;
let designRank: usize = 0;

const DESIGN_SESSIONS = 0;
const DESIGN_VARYING = 1;
const DESIGN_LENGTH_SESSIONS = 2;
const DESIGN_LONGEST_FIRST = 3;
const DESIGN_SHORTEST_FIRST = 4;
const DESIGN_ANSWERS_KEPT = 5;
const DESIGN_SESSIONS_KEPT = 6;
const DESIGN_ORDERED = 7;
const DESIGN_AUTHOR_ORDER = 8;

export function setDesign(
  modelsM: i32,
  gramAt: usize,
  beforeAt: usize,
  sessionAuthorsAt: usize,
  sessionMeansAt: usize,
  sessionEndsAt: usize,
  countsAt: usize,
): void {
  designModels = modelsM;
  gram = gramAt;
  before = beforeAt;
  sessionAuthors = sessionAuthorsAt;
  sessionMeans = sessionMeansAt;
  sessionEnds = sessionEndsAt;
  designCounts = countsAt;
}

export function setDesignScratch(
  rankOfAt: usize,
  byCountAt: usize,
  bySumAt: usize,
  bySquaresAt: usize,
  byLengthAt: usize,
  seenAt: usize,
  answersAt: usize,
): void {
  rankOf = rankOfAt;
  byCount = byCountAt;
  bySum = bySumAt;
  bySquares = bySquaresAt;
  byLength = byLengthAt;
  seen = seenAt;
  // The answers' six arrays, one after another, `designModels` entries each (8 bytes an entry).
  const stride = (<usize>designModels) << 3;
  designAuthor = answersAt;
  designLength = answersAt + stride;
  designCount = answersAt + 2 * stride;
  designSum = answersAt + 3 * stride;
  designSquares = answersAt + 4 * stride;
  designRank = answersAt + 5 * stride;
}

/**
 * Adds the sessions of the record arrays (`setRecords`; reviewer unused) to the design: each session's scored records
 * by author (in name order), then `addDesignSession`.
 */
export function addDesignSessions(sessions: i32): void {
  const first = <i32>load<u32>(sessionStart);
  for (let s = 0; s < sessions; s++) {
    const from = <i32>load<u32>(sessionStart + ((<usize>s) << 2)) - first;
    const to = <i32>load<u32>(sessionStart + ((<usize>(s + 1)) << 2)) - first;
    let authors = 0;
    for (let i = from; i < to; i++) {
      if (isNaN<f64>(getF(score, i))) continue;
      const a = getI(rankOf, getI(candidate, i));
      if (getF(byCount, a) == 0) {
        setI(seen, authors++, a);
        setF(byLength, a, <f64>load<u32>(lengthChars + ((<usize>i) << 2)));
      }
      const p = <f64>load<u32>(position + ((<usize>i) << 2));
      addF(byCount, a, 1);
      addF(bySum, a, p);
      addF(bySquares, a, p * p);
    }
    // The authors in name order (insertion: a handful).
    for (let j = 1; j < authors; j++) {
      const a = getI(seen, j);
      let k = j;
      while (k > 0 && getI(seen, k - 1) > a) {
        setI(seen, k, getI(seen, k - 1));
        k--;
      }
      setI(seen, k, a);
    }
    for (let j = 0; j < authors; j++) {
      const a = getI(seen, j);
      setI(designAuthor, j, a);
      setF(designLength, j, getF(byLength, a));
      setF(designCount, j, getF(byCount, a));
      setF(designSum, j, getF(bySum, a));
      setF(designSquares, j, getF(bySquares, a));
      setF(byCount, a, 0);
      setF(bySum, a, 0);
      setF(bySquares, a, 0);
    }
    addDesignSession(authors);
  }
}

/** Adds one session's `q` answers (in the design's answer arrays, in author-name order) to the design's sums. */
export function addDesignSession(q: i32): void {
  if (q == 0) return;
  addF(designCounts, DESIGN_SESSIONS, 1);
  const m = designModels;
  const d = m + 2;
  const L = m;
  const X = m + 1;
  let n: f64 = 0;
  let sumX: f64 = 0;
  let sumXX: f64 = 0;
  let sumL: f64 = 0;
  let sumLL: f64 = 0;
  let sumLX: f64 = 0;
  for (let j = 0; j < q; j++) {
    // Length rank within the session (0 = shortest, ties averaged).
    let below = 0;
    let same = 0;
    for (let k = 0; k < q; k++) {
      if (getF(designLength, k) < getF(designLength, j)) below++;
      else if (getF(designLength, k) == getF(designLength, j)) same++;
    }
    const r = <f64>below + <f64>(same - 1) / 2;
    setF(designRank, j, r);
    n += getF(designCount, j);
    sumX += getF(designSum, j);
    sumXX += getF(designSquares, j);
    sumL += getF(designCount, j) * r;
    sumLL += getF(designCount, j) * r * r;
    sumLX += r * getF(designSum, j);
  }
  if (n == 0) return;
  if (sumXX - (sumX * sumX) / n > 1e-9 * max<f64>(1, sumXX)) addF(designCounts, DESIGN_VARYING, 1);
  for (let j = 0; j < q; j++) {
    const a = getI(designAuthor, j);
    const c = getF(designCount, j);
    for (let k = 0; k < q; k++)
      addF(gram, a * d + getI(designAuthor, k), (j == k ? c : 0) - (c * getF(designCount, k)) / n);
    const al = c * getF(designRank, j) - (c * sumL) / n;
    const ax = getF(designSum, j) - (c * sumX) / n;
    addF(gram, a * d + L, al);
    addF(gram, L * d + a, al);
    addF(gram, a * d + X, ax);
    addF(gram, X * d + a, ax);
  }
  const lx = sumLX - (sumL * sumX) / n;
  addF(gram, L * d + L, sumLL - (sumL * sumL) / n);
  addF(gram, L * d + X, lx);
  addF(gram, X * d + L, lx);
  addF(gram, X * d + X, sumXX - (sumX * sumX) / n);
  // The order the session showed its authors and its lengths in, by their records' mean positions (NaN: none).
  let longest = true;
  let shortest = true;
  let lengths = false;
  let kept = <i32>getF(designCounts, DESIGN_ANSWERS_KEPT);
  for (let j = 0; j < q; j++) {
    const mj = getF(designSum, j) / getF(designCount, j);
    setI(sessionAuthors, kept, getI(designAuthor, j));
    setF(sessionMeans, kept++, mj);
    for (let k = 0; k < q; k++) {
      const mk = getF(designSum, k) / getF(designCount, k);
      if (mj < mk) addF(before, getI(designAuthor, j) * m + getI(designAuthor, k), 1);
      if (getF(designLength, j) <= getF(designLength, k)) continue;
      lengths = true;
      if (!(mj < mk)) longest = false;
      if (!(mj > mk)) shortest = false;
    }
  }
  setF(designCounts, DESIGN_ANSWERS_KEPT, <f64>kept);
  const sessionsKept = <i32>getF(designCounts, DESIGN_SESSIONS_KEPT);
  setI(sessionEnds, sessionsKept, kept);
  setF(designCounts, DESIGN_SESSIONS_KEPT, <f64>(sessionsKept + 1));
  if (lengths) {
    addF(designCounts, DESIGN_LENGTH_SESSIONS, 1);
    if (longest) addF(designCounts, DESIGN_LONGEST_FIRST, 1);
    else if (shortest) addF(designCounts, DESIGN_SHORTEST_FIRST, 1);
  }
}

/**
 * The second look at the authors' order, once every session is in: the window's usual order (a before b where more
 * sessions showed a first), the sessions with two authors or more, and those among them that agree with it.
 */
export function designAuthorOrder(): void {
  const m = designModels;
  const sessions = <i32>getF(designCounts, DESIGN_SESSIONS_KEPT);
  let ordered = 0;
  let agreeing = 0;
  let start = 0;
  for (let s = 0; s < sessions; s++) {
    const end = getI(sessionEnds, s);
    if (end - start >= 2) {
      ordered++;
      let agrees = true;
      for (let j = start; j < end && agrees; j++)
        for (let k = start; k < end; k++) {
          const a = getI(sessionAuthors, j);
          const b = getI(sessionAuthors, k);
          if (getF(before, a * m + b) > getF(before, b * m + a) && !(getF(sessionMeans, j) < getF(sessionMeans, k))) {
            agrees = false;
            break;
          }
        }
      if (agrees) agreeing++;
    }
    start = end;
  }
  setF(designCounts, DESIGN_ORDERED, <f64>ordered);
  setF(designCounts, DESIGN_AUTHOR_ORDER, <f64>agreeing);
}
