import type { BiasColumns } from '../bias-columns.js';
import { scoreKernelsWasm } from './score-kernels-wasm.js';

// What the kernels need of the runtime, which Node (20+) and browsers provide: the package's lib is ES2023 alone.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};
declare function atob(data: string): string;

/** A WebAssembly memory: its bytes (a new buffer after each growth), grown by whole 64 KiB pages. */
interface Memory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The functions of assembly/score-kernels.ts (addresses are byte offsets in `memory`; see that file). */
export interface ScoreKernelExports {
  memory: Memory;
  heapBase(): number;
  setRecords(
    score: number,
    reviewer: number,
    candidate: number,
    position: number,
    lengthChars: number,
    sessionStart: number,
  ): void;
  setLayout(nameRank: number, reviewerColumn: number, positionIndex: number, selfColumn: number): void;
  setScratch(
    local: number,
    touched: number,
    mean: number,
    support: number,
    supportLocal: number,
    supportMean: number,
    inSupport: number,
    order: number,
    orderKey: number,
    answerFrom: number,
  ): void;
  buildChunk(chunk: number, sessions: number, firstSession: number, sessionsOut: number): number;
  setNormalEquations(
    k: number,
    models: number,
    xtx: number,
    xty: number,
    columnRecords: number,
    columnSessions: number,
    pairDesign: number,
    pairRecords: number,
    pairDeviation: number,
    counts: number,
  ): void;
  sumNormalEquations(chunk: number): void;
  setResidualFit(
    k: number,
    models: number,
    beta: number,
    lengthBeta: number,
    pairIndex: number,
    centre: number,
    usedPairs: number,
  ): void;
  setResidualSums(
    meat: number,
    pairSum: number,
    pairN: number,
    pairSessions: number,
    eScore: number,
    nScore: number,
    cross: number,
    perSession: number,
    points: number,
    counts: number,
  ): void;
  setResidualScratch(
    localBeta: number,
    localLengthBeta: number,
    sessionScore: number,
    answerFitted: number,
    sessionX: number,
    sessionY: number,
    sessionPairSum: number,
    sessionPairN: number,
    sessionPairs: number,
    sessionA: number,
    sessionAt: number,
  ): void;
  sumScoreResiduals(chunk: number): void;
  setDesign(
    models: number,
    gram: number,
    before: number,
    sessionAuthors: number,
    sessionMeans: number,
    sessionEnds: number,
    counts: number,
  ): void;
  setDesignScratch(
    rankOf: number,
    byCount: number,
    bySum: number,
    bySquares: number,
    byLength: number,
    seen: number,
    answers: number,
  ): void;
  addDesignSessions(sessions: number): void;
  addDesignSession(answers: number): void;
  designAuthorOrder(): void;
}

const PAGE = 65536;

/**
 * The score model's and the position design's per-session loops as one WebAssembly instance
 * (assembly/score-kernels.ts): compiled by Liftoff in a millisecond or two and fast from its first call, where the
 * same loops in JavaScript ran a cold report in V8's interpreter. Its memory holds one owner's arrays at a time
 * (`claim`: a fit's source, see `ScoreModelSource.claim`, with the sums of the pass running above them; or a position
 * design's sums), laid out by `MemoryLayout`; an owner displaced re-places its arrays when it next claims the memory.
 * The memory only grows (to the largest run so far): views on it are made afresh after each `reserve`, which
 * replaces the buffer.
 */
export class ScoreKernels {
  readonly exports: ScoreKernelExports;
  /** The first byte free for arrays. */
  readonly base: number;
  /** The owner whose arrays the memory holds, and the first byte after them. */
  private owner: object | null = null;
  private ownerEnd = 0;

  constructor() {
    // Node started with --jitless has no WebAssembly at all: say so rather than fail on `WebAssembly.Instance`.
    if (typeof WebAssembly === 'undefined')
      throw new Error(
        "This Node.js runs without WebAssembly (started with --jitless, or with WebAssembly turned off), and Council's bias statistics run in it: start node without --jitless.",
      );
    this.exports = new WebAssembly.Instance(compiledKernels(), {}).exports as ScoreKernelExports;
    this.base = this.exports.heapBase();
  }

  /**
   * Makes `owner`'s sums the memory's, unless they are: `place` lays out its arrays and returns what fills them once
   * the memory holds them (it is called again if another owner took the memory since). Returns the first byte
   * after them, where a pass lays out its own sums.
   */
  claim(owner: object, place: (layout: MemoryLayout) => (kernels: ScoreKernels) => void): number {
    if (this.owner !== owner) {
      const layout = new MemoryLayout(this.base);
      const fill = place(layout);
      this.reserve(layout.end);
      fill(this);
      this.owner = owner;
      this.ownerEnd = layout.end;
    }
    return this.ownerEnd;
  }

  /** Grows the memory to at least `bytes`. */
  reserve(bytes: number): void {
    const { memory } = this.exports;
    const have = memory.buffer.byteLength;
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
  }

  f64(at: number, length: number): Float64Array {
    return new Float64Array(this.exports.memory.buffer, at, length);
  }

  i32(at: number, length: number): Int32Array {
    return new Int32Array(this.exports.memory.buffer, at, length);
  }

  u32(at: number, length: number): Uint32Array {
    return new Uint32Array(this.exports.memory.buffer, at, length);
  }

  /** Points the kernels' record arrays (`setRecords`) at `room`. */
  useRecords(room: RecordRoom): void {
    this.exports.setRecords(
      room.score,
      room.reviewer,
      room.candidate,
      room.position,
      room.lengthChars,
      room.sessionStart,
    );
  }

  /** Copies the records of sessions `run.from … run.to` of `columns` into `room` (made for that many). */
  copyRecords(room: RecordRoom, columns: BiasColumns, run: { from: number; to: number }): void {
    const { from, to } = run;
    const first = columns.sessionStart[from]!;
    const last = columns.sessionStart[to]!;
    const n = last - first;
    this.f64(room.score, n).set(columns.score.subarray(first, last));
    this.i32(room.reviewer, n).set(columns.reviewer.subarray(first, last));
    this.i32(room.candidate, n).set(columns.candidate.subarray(first, last));
    this.u32(room.position, n).set(columns.position.subarray(first, last));
    this.u32(room.lengthChars, n).set(columns.responseLengthChars.subarray(first, last));
    this.u32(room.sessionStart, to - from + 1).set(columns.sessionStart.subarray(from, to + 1));
  }

  /** Sets bytes `from … to` to 0. */
  zero(from: number, to: number): void {
    new Uint8Array(this.exports.memory.buffer, from, to - from).fill(0);
  }
}

let compiled: object | undefined;
let instance: ScoreKernels | undefined;

/** The module, compiled once (synchronously: it is a few kilobytes). */
function compiledKernels(): object {
  if (compiled === undefined) {
    const text = atob(scoreKernelsWasm);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

/** The kernels, instantiated on first use. */
export function scoreKernels(): ScoreKernels {
  return (instance ??= new ScoreKernels());
}

/** Memory the kernels keep once its owner is done; beyond it the instance is let go (see `releaseScoreKernels`). */
const KEEP_BYTES = 32 * 1024 * 1024;

/**
 * Called when an owner is done with the kernels: a memory grown past `KEEP_BYTES` (a position design over a million
 * sessions holds 90 MB) is let go with its instance, and the next user gets a fresh one that starts small. A
 * WebAssembly memory cannot shrink, so without this the largest owner's room stayed in the process to its end, on
 * top of what later steps allocate (the 1M-session report's peak RSS rose by that much). An owner displaced this way
 * re-places its arrays when it next claims the kernels, as after any other owner.
 */
export function releaseScoreKernels(): void {
  if (instance !== undefined && instance.exports.memory.buffer.byteLength > KEEP_BYTES) instance = undefined;
}

/** Lays arrays out one after another from a byte address, each at a multiple of 8 bytes. */
export class MemoryLayout {
  constructor(public end: number) {}

  /** The address of `count` values of `bytes` bytes each. */
  take(count: number, bytes: 1 | 4 | 8): number {
    const at = this.end;
    this.end += Math.ceil((count * bytes) / 8) * 8;
    return at;
  }

  f64(count: number): number {
    return this.take(count, 8);
  }

  i32(count: number): number {
    return this.take(count, 4);
  }
}

/**
 * Room in the kernels' memory for a run of sessions' records, as the kernels read them (`setRecords`): score (f64,
 * NaN unscored), reviewer and candidate (i32), position and length (u32), and the sessions' starts (u32, one more).
 */
export interface RecordRoom {
  score: number;
  reviewer: number;
  candidate: number;
  position: number;
  lengthChars: number;
  sessionStart: number;
}

/** Lays out room for runs of at most `most.records` records and `most.sessions` sessions. */
export function placeRecords(memory: MemoryLayout, most: { records: number; sessions: number }): RecordRoom {
  return {
    score: memory.f64(most.records),
    reviewer: memory.i32(most.records),
    candidate: memory.i32(most.records),
    position: memory.i32(most.records),
    lengthChars: memory.i32(most.records),
    sessionStart: memory.i32(most.sessions + 1),
  };
}
