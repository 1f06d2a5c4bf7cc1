import type { SessionStats } from './score-session-stats.js';
import type { MemoryLayout, ScoreKernels } from './score-kernels.js';

/**
 * Many sessions' score sums (`SessionStats`) laid out in flat arrays, for the fit to loop over with plain
 * indices: no object per session, answer or pair (at 1,000 sessions that was 30,000 objects and half the
 * cold run's time in allocation and garbage collection). Session s's columns are
 * `colStart[s] … colStart[s + 1]` (m of them) in `columns`, `records`, `xty`; its m² entries of X̃'X̃ start at
 * `xtxStart[s]`; its answers are `answerStart[s] … answerStart[s + 1]`, answer j's mean row the m entries from
 * `answerRowStart[j]`; its pair records `pairStart[s] … pairStart[s + 1]`, each naming its reviewer's and
 * position's column (local to the session) and its answer (an index into the chunk's answers).
 *
 * The kernels (assembly/score-kernels.ts) read and write a chunk in their memory through its descriptor: the address
 * of each array in the order of `chunkArrays`, then its size and the length of `answerRow` (u32 words each).
 */
export interface ScoreChunk {
  size: number;
  colStart: Int32Array;
  columns: Int32Array;
  records: Float64Array;
  xty: Float64Array;
  xtxStart: Int32Array;
  xtx: Float64Array;
  yty: Float64Array;
  answerStart: Int32Array;
  answerAuthor: Int32Array;
  answerLength: Float64Array;
  answerCount: Float64Array;
  answerMean: Float64Array;
  answerRowStart: Int32Array;
  answerRow: Float64Array;
  pairStart: Int32Array;
  pairReviewer: Int32Array;
  pairAuthor: Int32Array;
  pairReviewerColumn: Int32Array;
  pairPositionColumn: Int32Array;
  pairAnswer: Int32Array;
  pairDeviation: Float64Array;
}

/**
 * How many values each array of a chunk holds, by what it has one per: session (or one more), column, X̃'X̃ entry,
 * answer, answer-row entry, pair record.
 */
export interface ChunkCapacity {
  sessions: number;
  columns: number;
  squares: number;
  answers: number;
  answerRows: number;
  pairs: number;
}

/** A capacity of nothing. */
export function noRoom(): ChunkCapacity {
  return { sessions: 0, columns: 0, squares: 0, answers: 0, answerRows: 0, pairs: 0 };
}

type ChunkArray = Exclude<keyof ScoreChunk, 'size'>;

/** The chunk's arrays in the descriptor's order (assembly/score-kernels.ts's word constants), each's type and count. */
const chunkArrays: readonly (readonly [ChunkArray, 'i32' | 'f64', keyof ChunkCapacity | 'sessionsPlusOne'])[] = [
  ['colStart', 'i32', 'sessionsPlusOne'],
  ['columns', 'i32', 'columns'],
  ['records', 'f64', 'columns'],
  ['xty', 'f64', 'columns'],
  ['xtxStart', 'i32', 'sessionsPlusOne'],
  ['xtx', 'f64', 'squares'],
  ['yty', 'f64', 'sessions'],
  ['answerStart', 'i32', 'sessionsPlusOne'],
  ['answerAuthor', 'i32', 'answers'],
  ['answerLength', 'f64', 'answers'],
  ['answerCount', 'f64', 'answers'],
  ['answerMean', 'f64', 'answers'],
  ['answerRowStart', 'i32', 'answers'],
  ['answerRow', 'f64', 'answerRows'],
  ['pairStart', 'i32', 'sessionsPlusOne'],
  ['pairReviewer', 'i32', 'pairs'],
  ['pairAuthor', 'i32', 'pairs'],
  ['pairReviewerColumn', 'i32', 'pairs'],
  ['pairPositionColumn', 'i32', 'pairs'],
  ['pairAnswer', 'i32', 'pairs'],
  ['pairDeviation', 'f64', 'pairs'],
];
const SIZE_WORD = chunkArrays.length;
const ANSWER_ROW_WORD = chunkArrays.length + 1;
const DESCRIPTOR_WORDS = chunkArrays.length + 2;

const countOf = (capacity: ChunkCapacity, of: keyof ChunkCapacity | 'sessionsPlusOne'): number =>
  of === 'sessionsPlusOne' ? capacity.sessions + 1 : capacity[of];

/** A chunk's room in the kernels' memory: its descriptor's address and its arrays'. */
export interface PlacedChunk {
  descriptor: number;
  arrays: number[];
}

/** Lays out room for a chunk of `capacity` (write its descriptor once the memory holds it: `writeDescriptor`). */
export function placeChunk(layout: MemoryLayout, capacity: ChunkCapacity): PlacedChunk {
  const descriptor = layout.i32(DESCRIPTOR_WORDS);
  const arrays = chunkArrays.map(([, type, of]) => layout.take(countOf(capacity, of), type === 'i32' ? 4 : 8));
  return { descriptor, arrays };
}

/** Writes the descriptor of a placed chunk (its size and answer rows 0 until it is built or copied in). */
export function writeDescriptor(kernels: ScoreKernels, placed: PlacedChunk): void {
  const words = kernels.u32(placed.descriptor, DESCRIPTOR_WORDS);
  words.set(placed.arrays);
  words[SIZE_WORD] = 0;
  words[ANSWER_ROW_WORD] = 0;
}

/** The chunk at `descriptor` as views on the kernels' memory (valid until the memory next grows). */
export function chunkViews(kernels: ScoreKernels, descriptor: number): ScoreChunk {
  const words = kernels.u32(descriptor, DESCRIPTOR_WORDS);
  const size = words[SIZE_WORD]!;
  // Each per-session start array ends with the chunk's total.
  const totalOf = (name: ChunkArray): number =>
    kernels.i32(words[chunkArrays.findIndex(([array]) => array === name)]!, size + 1)[size]!;
  const capacity: ChunkCapacity = {
    sessions: size,
    columns: totalOf('colStart'),
    squares: totalOf('xtxStart'),
    answers: totalOf('answerStart'),
    answerRows: words[ANSWER_ROW_WORD]!,
    pairs: totalOf('pairStart'),
  };
  const chunk: Partial<Record<ChunkArray, Int32Array | Float64Array>> = {};
  chunkArrays.forEach(([name, type, of], word) => {
    const count = countOf(capacity, of);
    chunk[name] = type === 'i32' ? kernels.i32(words[word]!, count) : kernels.f64(words[word]!, count);
  });
  return { size, ...chunk } as ScoreChunk;
}

/**
 * The bytes a chunk takes in the kernels' memory, with its descriptor: `fixed` plus, for each count of its
 * `ChunkCapacity`, so many bytes per unit.
 */
export const chunkByteWeights: ChunkCapacity & { fixed: number } = (() => {
  const weights = {
    fixed: DESCRIPTOR_WORDS * 4,
    sessions: 0,
    columns: 0,
    squares: 0,
    answers: 0,
    answerRows: 0,
    pairs: 0,
  };
  for (const [, type, of] of chunkArrays) {
    const bytes = type === 'i32' ? 4 : 8;
    if (of === 'sessionsPlusOne') {
      weights.fixed += bytes;
      weights.sessions += bytes;
    } else weights[of] += bytes;
  }
  return weights;
})();

/** What a chunk built in JavaScript holds, to place it. */
export function capacityOf(chunk: ScoreChunk): ChunkCapacity {
  return {
    sessions: chunk.size,
    columns: chunk.columns.length,
    squares: chunk.xtx.length,
    answers: chunk.answerAuthor.length,
    answerRows: chunk.answerRow.length,
    pairs: chunk.pairReviewer.length,
  };
}

/** Copies a chunk built in JavaScript into its room (placed with `capacityOf` it, descriptor written). */
export function copyChunkIn(kernels: ScoreKernels, chunk: ScoreChunk, placed: PlacedChunk): void {
  chunkArrays.forEach(([name, type], word) => {
    const values = chunk[name];
    const at = placed.arrays[word]!;
    if (type === 'i32') kernels.i32(at, values.length).set(values);
    else kernels.f64(at, values.length).set(values);
  });
  const words = kernels.u32(placed.descriptor, DESCRIPTOR_WORDS);
  words[SIZE_WORD] = chunk.size;
  words[ANSWER_ROW_WORD] = chunk.answerRow.length;
}

/** A typed array that grows by doubling. */
export class Growing<A extends Float64Array | Int32Array> {
  length = 0;
  constructor(private data: A) {}

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  pushFrom(values: ArrayLike<number>, count: number): void {
    if (this.length + count > this.data.length) this.grow(this.length + count);
    for (let i = 0; i < count; i++) this.data[this.length + i] = values[i]!;
    this.length += count;
  }

  /** The values so far: a view on the buffer, without the spare room. */
  view(): A {
    return this.data.subarray(0, this.length) as A;
  }

  private grow(needed: number): void {
    const next = new (this.data.constructor as new (n: number) => A)(Math.max(needed, 2 * this.data.length, 64));
    next.set(this.data);
    this.data = next;
  }
}

/** A session's room at first: a 4-member council's columns, with spare answers and pairs. */
const most = { columns: 12, answers: 6, pairs: 24 };

const f64 = (capacity: number): Growing<Float64Array> => new Growing(new Float64Array(capacity));
const i32 = (capacity: number): Growing<Int32Array> => new Growing(new Int32Array(capacity));

/**
 * Appends sessions' sums (copying them) and lays them out as a `ScoreChunk` in JavaScript's memory: published
 * summaries' sums, which the fit copies into the kernels' memory (a store's records are summed there, by `buildChunk`).
 */
export class ScoreChunkBuilder {
  private size = 0;
  readonly colStart: Growing<Int32Array>;
  readonly columns: Growing<Int32Array>;
  readonly records: Growing<Float64Array>;
  readonly xty: Growing<Float64Array>;
  readonly xtxStart: Growing<Int32Array>;
  readonly xtx: Growing<Float64Array>;
  readonly yty: Growing<Float64Array>;
  readonly answerStart: Growing<Int32Array>;
  readonly answerAuthor: Growing<Int32Array>;
  readonly answerLength: Growing<Float64Array>;
  readonly answerCount: Growing<Float64Array>;
  readonly answerMean: Growing<Float64Array>;
  readonly answerRowStart: Growing<Int32Array>;
  readonly answerRow: Growing<Float64Array>;
  readonly pairStart: Growing<Int32Array>;
  readonly pairReviewer: Growing<Int32Array>;
  readonly pairAuthor: Growing<Int32Array>;
  readonly pairReviewerColumn: Growing<Int32Array>;
  readonly pairPositionColumn: Growing<Int32Array>;
  readonly pairAnswer: Growing<Int32Array>;
  readonly pairDeviation: Growing<Float64Array>;

  /** `sessions`: how many sessions to make room for at first (the arrays grow past it). */
  constructor(sessions = 64) {
    const perSession = sessions + 1;
    const perColumn = sessions * most.columns;
    const perSquare = sessions * most.columns * most.columns;
    const perAnswer = sessions * most.answers;
    const perPair = sessions * most.pairs;
    this.colStart = i32(perSession);
    this.columns = i32(perColumn);
    this.records = f64(perColumn);
    this.xty = f64(perColumn);
    this.xtxStart = i32(perSession);
    this.xtx = f64(perSquare);
    this.yty = f64(perSession);
    this.answerStart = i32(perSession);
    this.answerAuthor = i32(perAnswer);
    this.answerLength = f64(perAnswer);
    this.answerCount = f64(perAnswer);
    this.answerMean = f64(perAnswer);
    this.answerRowStart = i32(perAnswer);
    this.answerRow = f64(perAnswer * 8);
    this.pairStart = i32(perSession);
    this.pairReviewer = i32(perPair);
    this.pairAuthor = i32(perPair);
    this.pairReviewerColumn = i32(perPair);
    this.pairPositionColumn = i32(perPair);
    this.pairAnswer = i32(perPair);
    this.pairDeviation = f64(perPair);
  }

  append(stats: SessionStats): void {
    const m = stats.columns.length;
    this.size++;
    this.colStart.push(this.columns.length);
    this.columns.pushFrom(stats.columns, m);
    this.records.pushFrom(stats.records, m);
    this.xty.pushFrom(stats.xty, m);
    this.xtxStart.push(this.xtx.length);
    this.xtx.pushFrom(stats.xtx, m * m);
    this.yty.push(stats.yty);
    const firstAnswer = this.answerAuthor.length;
    this.answerStart.push(firstAnswer);
    for (const a of stats.answers) {
      this.answerAuthor.push(a.author);
      this.answerLength.push(a.lengthChars);
      this.answerCount.push(a.count);
      this.answerMean.push(a.meanScore);
      this.answerRowStart.push(this.answerRow.length);
      this.answerRow.pushFrom(a.meanRow, m);
    }
    this.pairStart.push(this.pairReviewer.length);
    for (const p of stats.pairs) {
      this.pairReviewer.push(p.reviewer);
      this.pairAuthor.push(p.author);
      this.pairReviewerColumn.push(p.reviewerColumn);
      this.pairPositionColumn.push(p.positionColumn);
      this.pairAnswer.push(firstAnswer + p.answer);
      this.pairDeviation.push(p.deviation);
    }
  }

  /**
   * The chunk of everything appended, its arrays views on the builder's buffers (append nothing more).
   */
  build(): ScoreChunk {
    this.colStart.push(this.columns.length);
    this.xtxStart.push(this.xtx.length);
    this.answerStart.push(this.answerAuthor.length);
    this.pairStart.push(this.pairReviewer.length);
    return {
      size: this.size,
      colStart: this.colStart.view(),
      columns: this.columns.view(),
      records: this.records.view(),
      xty: this.xty.view(),
      xtxStart: this.xtxStart.view(),
      xtx: this.xtx.view(),
      yty: this.yty.view(),
      answerStart: this.answerStart.view(),
      answerAuthor: this.answerAuthor.view(),
      answerLength: this.answerLength.view(),
      answerCount: this.answerCount.view(),
      answerMean: this.answerMean.view(),
      answerRowStart: this.answerRowStart.view(),
      answerRow: this.answerRow.view(),
      pairStart: this.pairStart.view(),
      pairReviewer: this.pairReviewer.view(),
      pairAuthor: this.pairAuthor.view(),
      pairReviewerColumn: this.pairReviewerColumn.view(),
      pairPositionColumn: this.pairPositionColumn.view(),
      pairAnswer: this.pairAnswer.view(),
      pairDeviation: this.pairDeviation.view(),
    };
  }
}
