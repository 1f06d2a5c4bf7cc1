import type { BiasColumns } from '../bias-columns.js';
import type { ChunkCapacity, PlacedChunk } from './score-chunk.js';
import { chunkByteWeights, noRoom, placeChunk, writeDescriptor } from './score-chunk.js';
import type { MemoryLayout, RecordRoom, ScoreKernels } from './score-kernels.js';
import { placeRecords } from './score-kernels.js';
import type { Layout } from './score-model-design.js';
import { nameRanks } from './score-model-design.js';

/** The most sessions in a chunk. */
const CHUNK_SESSIONS = 1000;
/** The most room a chunk takes for its sessions' bounds, unless one session needs more. */
const CHUNK_BYTES = 16 * 1024 * 1024;

/** A run of sessions whose sums form one chunk: the most room they can take, and their records. */
interface ChunkPlan {
  from: number;
  to: number;
  capacity: ChunkCapacity;
  records: number;
}

/**
 * Forms sessions' score-model sums (`SessionStats`) from their records, a chunk of sessions at a time, in the score
 * kernels' memory (`buildChunk` of assembly/score-kernels.ts): each chunk's records are copied in (never the whole
 * window's: 20 M records would be 480 MB more), grouped by answer session by session and summed into the chunk's
 * arrays, laid out as `ScoreChunk` describes. The chunks are planned up front from each session's records, so their
 * room is known before any is built and the memory grows once: a session of r records uses at most min(k, 3r)
 * columns (each record its reviewer's, its position's and its reviewer's self column), min(members, r) answers and
 * r pair records.
 */
export class ColumnScoreSums {
  readonly chunks: ChunkPlan[] = [];
  /** The room the chunks' sums take together (what keeping them between visits costs). */
  readonly bytes: number;
  /** The most records of a session and of a chunk, and the most room of a chunk, array by array. */
  private readonly mostRecords: number;
  private readonly mostChunkRecords: number;
  private readonly mostChunk: ChunkCapacity = noRoom();
  private at: (RecordRoom & { rooms: PlacedChunk[]; sessionsOut: number }) | null = null;

  constructor(
    private readonly columns: BiasColumns,
    private readonly layout: Layout,
  ) {
    const { k } = layout;
    const members = columns.models.length;
    const { sessionStart } = columns;
    const sessions = columns.sessionIds.length;
    const { chunks, mostChunk } = this;
    const w = chunkByteWeights;
    let bytes = 0;
    let mostRecords = 0;
    let mostChunkRecords = 0;
    // The chunk being planned: its first session, and its sessions', columns', … counts and bytes so far.
    let from = 0;
    let columnsIn = 0;
    let squaresIn = 0;
    let answersIn = 0;
    let answerRowsIn = 0;
    let pairsIn = 0;
    let bytesIn = w.fixed;
    const close = (to: number): void => {
      const records = sessionStart[to]! - sessionStart[from]!;
      const capacity: ChunkCapacity = {
        sessions: to - from,
        columns: columnsIn,
        squares: squaresIn,
        answers: answersIn,
        answerRows: answerRowsIn,
        pairs: pairsIn,
      };
      chunks.push({ from, to, capacity, records });
      bytes += bytesIn;
      mostChunkRecords = Math.max(mostChunkRecords, records);
      for (const key of Object.keys(capacity) as (keyof ChunkCapacity)[])
        mostChunk[key] = Math.max(mostChunk[key], capacity[key]);
      from = to;
      columnsIn = squaresIn = answersIn = answerRowsIn = pairsIn = 0;
      bytesIn = w.fixed;
    };
    for (let s = 0; s < sessions; s++) {
      const r = sessionStart[s + 1]! - sessionStart[s]!;
      const m = Math.min(k, 3 * r);
      const answers = Math.min(members, r);
      const sessionBytes =
        w.sessions + w.columns * m + w.squares * m * m + w.answers * answers + w.answerRows * answers * m + w.pairs * r;
      if (s > from && (s - from === CHUNK_SESSIONS || bytesIn + sessionBytes > CHUNK_BYTES)) close(s);
      columnsIn += m;
      squaresIn += m * m;
      answersIn += answers;
      answerRowsIn += answers * m;
      pairsIn += r;
      bytesIn += sessionBytes;
      mostRecords = Math.max(mostRecords, r);
    }
    if (sessions > from) close(sessions);
    this.bytes = bytes;
    this.mostRecords = mostRecords;
    this.mostChunkRecords = mostChunkRecords;
  }

  /**
   * Lays out the layout's tables, the builder's scratch, one chunk's records and room for the chunks' sums: one
   * chunk's, reused, or (`keep`) each chunk's own. Returns what fills the tables once the memory holds them.
   */
  place(memory: MemoryLayout, keep: boolean): (kernels: ScoreKernels) => void {
    const { columns, layout } = this;
    const { k, positionIndex, reviewerColumn, selfColumn } = layout;
    const members = columns.models.length;
    const n = this.mostChunkRecords;
    const mostSessions = this.mostChunk.sessions;
    const tables = {
      nameRank: memory.i32(members),
      reviewerColumn: memory.i32(members),
      positionIndex: memory.i32(positionIndex.length),
      selfColumn: memory.i32(members),
    };
    const scratch = {
      local: memory.i32(k),
      touched: memory.i32(k),
      mean: memory.f64(k),
      support: memory.i32(k),
      supportLocal: memory.i32(k),
      supportMean: memory.f64(k),
      inSupport: memory.take(k, 1),
      order: memory.i32(this.mostRecords),
      orderKey: memory.i32(this.mostRecords),
      answerFrom: memory.i32(this.mostRecords + 1),
    };
    const scratchEnd = memory.end;
    const at = {
      ...placeRecords(memory, { records: n, sessions: mostSessions }),
      sessionsOut: memory.i32(mostSessions),
      rooms: keep
        ? this.chunks.map((chunk) => placeChunk(memory, chunk.capacity))
        : [placeChunk(memory, this.mostChunk)],
    };
    this.at = at;
    return (kernels) => {
      kernels.i32(tables.nameRank, members).set(nameRanks(columns.models));
      kernels.i32(tables.reviewerColumn, members).set(reviewerColumn);
      kernels.i32(tables.positionIndex, positionIndex.length).set(positionIndex);
      kernels.i32(tables.selfColumn, members).set(selfColumn);
      kernels.zero(scratch.local, scratchEnd);
      kernels.i32(scratch.local, k).fill(-1);
      for (const room of at.rooms) writeDescriptor(kernels, room);
      const { exports } = kernels;
      exports.setLayout(tables.nameRank, tables.reviewerColumn, tables.positionIndex, tables.selfColumn);
      exports.setScratch(
        scratch.local,
        scratch.touched,
        scratch.mean,
        scratch.support,
        scratch.supportLocal,
        scratch.supportMean,
        scratch.inSupport,
        scratch.order,
        scratch.orderKey,
        scratch.answerFrom,
      );
      kernels.useRecords(at);
    };
  }

  /** Chunk `c`'s room (its own if kept, else the one shared). */
  descriptor(c: number): number {
    const rooms = this.at!.rooms;
    return rooms[rooms.length === 1 ? 0 : c]!.descriptor;
  }

  /**
   * Sums chunk `c`'s sessions into its room (after `place` and its filling): copies their records in and builds the
   * chunk, skipping sessions without a scored record. Returns the chunk's descriptor and its sessions' indices (a
   * view on the memory).
   */
  build(kernels: ScoreKernels, c: number): { descriptor: number; sessions: Int32Array } {
    const { from, to } = this.chunks[c]!;
    const at = this.at!;
    kernels.copyRecords(at, this.columns, { from, to });
    const descriptor = this.descriptor(c);
    const size = kernels.exports.buildChunk(descriptor, to - from, from, at.sessionsOut);
    return { descriptor, sessions: kernels.i32(at.sessionsOut, size) };
  }
}
