import type { SessionStats } from './score-session-stats.js';

/**
 * Many sessions' score sums (`SessionStats`) laid out in flat arrays, for the fit to loop over with plain
 * indices: no object per session, answer or pair (at 1,000 sessions that was 30,000 objects and half the
 * cold run's time in allocation and garbage collection). Session s's columns are
 * `colStart[s] … colStart[s + 1]` (m of them) in `columns`, `records`, `xty`; its m² entries of X̃'X̃ start at
 * `xtxStart[s]`; its answers are `answerStart[s] … answerStart[s + 1]`, answer j's mean row the m entries from
 * `answerRowStart[j]`; its pair records `pairStart[s] … pairStart[s + 1]`, each naming its reviewer's and
 * position's column (local to the session) and its answer (an index into the chunk's answers).
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

/** A typed array that grows by doubling. */
export class Growing<A extends Float64Array | Int32Array> {
  length = 0;
  constructor(private data: A) {}

  /** The buffer, with room for `count` more values from `length` on: write them there, then add `count` to `length`. */
  reserve(count: number): A {
    if (this.length + count > this.data.length) this.grow(this.length + count);
    return this.data;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = value;
  }

  pushFrom(values: ArrayLike<number>, count: number): void {
    if (this.length + count > this.data.length) this.grow(this.length + count);
    for (let i = 0; i < count; i++) this.data[this.length + i] = values[i]!;
    this.length += count;
  }

  /** The values so far: a view on the buffer, or (`copy`) an array of their own, without the spare room. */
  view(copy: boolean): A {
    return (copy ? this.data.slice(0, this.length) : this.data.subarray(0, this.length)) as A;
  }

  private grow(needed: number): void {
    const next = new (this.data.constructor as new (n: number) => A)(Math.max(needed, 2 * this.data.length, 64));
    next.set(this.data);
    this.data = next;
  }
}

/** A session's room when its bounds are not known: a 4-member council's columns, with spare answers and pairs. */
const defaultMost = { columns: 12, answers: 6, pairs: 24 };

const f64 = (capacity: number): Growing<Float64Array> => new Growing(new Float64Array(capacity));
const i32 = (capacity: number): Growing<Int32Array> => new Growing(new Int32Array(capacity));

/** Appends sessions' sums (copying them: `SessionStats` buffers are reused) and lays them out as a `ScoreChunk`. */
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

  /**
   * `sessions`: how many sessions to make room for at first (the arrays grow past it); `most`, when known, the most
   * columns, answers and pair records one session can have, so that the room made suffices and no array grows while
   * the chunk is built (a buffer growing halfway through the first chunk sent the optimised `append` back to the
   * interpreter: its growth path had never run when it was compiled).
   */
  constructor(sessions = 64, most: { columns: number; answers: number; pairs: number } = defaultMost) {
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
    this.answerRow = f64(perAnswer * (most === defaultMost ? 8 : most.columns));
    this.pairStart = i32(perSession);
    this.pairReviewer = i32(perPair);
    this.pairAuthor = i32(perPair);
    this.pairReviewerColumn = i32(perPair);
    this.pairPositionColumn = i32(perPair);
    this.pairAnswer = i32(perPair);
    this.pairDeviation = f64(perPair);
  }

  /** Empties the builder, keeping its buffers for the next chunk. */
  reset(): void {
    this.size = 0;
    for (const value of Object.values(this)) if (value instanceof Growing) value.length = 0;
  }

  get sessions(): number {
    return this.size;
  }

  /**
   * Starts a session whose sums the caller writes straight into the arrays (`reserve`, then add to `length`),
   * columns, X'X, y'y, answers and pairs as `append` lays them out.
   */
  beginSession(): void {
    this.size++;
    this.colStart.push(this.columns.length);
    this.xtxStart.push(this.xtx.length);
    this.answerStart.push(this.answerAuthor.length);
    this.pairStart.push(this.pairReviewer.length);
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
   * The chunk of everything appended. Its arrays are views on the builder's buffers unless `compact` (copies
   * without spare room, to keep): a view is valid until `reset`.
   */
  build(options: { compact: boolean }): ScoreChunk {
    const copy = options.compact;
    this.colStart.push(this.columns.length);
    this.xtxStart.push(this.xtx.length);
    this.answerStart.push(this.answerAuthor.length);
    this.pairStart.push(this.pairReviewer.length);
    return {
      size: this.size,
      colStart: this.colStart.view(copy),
      columns: this.columns.view(copy),
      records: this.records.view(copy),
      xty: this.xty.view(copy),
      xtxStart: this.xtxStart.view(copy),
      xtx: this.xtx.view(copy),
      yty: this.yty.view(copy),
      answerStart: this.answerStart.view(copy),
      answerAuthor: this.answerAuthor.view(copy),
      answerLength: this.answerLength.view(copy),
      answerCount: this.answerCount.view(copy),
      answerMean: this.answerMean.view(copy),
      answerRowStart: this.answerRowStart.view(copy),
      answerRow: this.answerRow.view(copy),
      pairStart: this.pairStart.view(copy),
      pairReviewer: this.pairReviewer.view(copy),
      pairAuthor: this.pairAuthor.view(copy),
      pairReviewerColumn: this.pairReviewerColumn.view(copy),
      pairPositionColumn: this.pairPositionColumn.view(copy),
      pairAnswer: this.pairAnswer.view(copy),
      pairDeviation: this.pairDeviation.view(copy),
    };
  }
}
