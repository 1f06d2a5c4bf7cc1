import { MemoryLayout, scoreKernels } from './score-kernels.js';
import type { ScoreModelSource } from './score-session-stats.js';

/** What the fit's first pass adds up over the sessions: the normal equations of the within-answer design and their counts. */
export interface NormalEquations {
  /** X̃'X̃ (k × k, row-major) and X̃'ỹ summed over sessions. */
  xtx: Float64Array;
  xty: Float64Array;
  /** Per design column: its scored records, and the sessions with at least one. */
  columnRecords: Float64Array;
  columnSessions: Uint32Array;
  /**
   * Per reviewer → author pair (`reviewer · models + author`, k entries each): the sum of its records' demeaned
   * design rows (its reviewer's and position's columns less its answer's mean row).
   */
  pairDesign: Float64Array;
  /** Per reviewer → author pair: its records (in answers scored twice or more), and the sum of their ỹ. */
  pairRecords: Float64Array;
  pairDeviation: Float64Array;
  /** Scored records in answers scored twice or more, and those answers. */
  observations: number;
  answers: number;
}

/**
 * The fit's pass 1: sums X̃'X̃ and X̃'ỹ over the sessions of `source`, with the counts and pair rows the figures need
 * (`sumNormalEquations` of assembly/score-kernels.ts, into sums laid out after the source's in the kernels' memory).
 */
export function sumNormalEquations(source: ScoreModelSource): NormalEquations {
  const { k } = source.layout;
  const models = source.models.length;
  const kernels = scoreKernels();
  const memory = new MemoryLayout(source.claim());
  const from = memory.end;
  const at = {
    xtx: memory.f64(k * k),
    xty: memory.f64(k),
    columnRecords: memory.f64(k),
    columnSessions: memory.i32(k),
    pairDesign: memory.f64(models * models * k),
    pairRecords: memory.f64(models * models),
    pairDeviation: memory.f64(models * models),
    counts: memory.f64(2),
  };
  kernels.reserve(memory.end);
  kernels.zero(from, memory.end);
  kernels.exports.setNormalEquations(
    k,
    models,
    at.xtx,
    at.xty,
    at.columnRecords,
    at.columnSessions,
    at.pairDesign,
    at.pairRecords,
    at.pairDeviation,
    at.counts,
  );
  source.forEachChunk((chunk) => kernels.exports.sumNormalEquations(chunk));
  const [observations, answers] = kernels.f64(at.counts, 2);
  return {
    xtx: kernels.f64(at.xtx, k * k).slice(),
    xty: kernels.f64(at.xty, k).slice(),
    columnRecords: kernels.f64(at.columnRecords, k).slice(),
    columnSessions: kernels.u32(at.columnSessions, k).slice(),
    pairDesign: kernels.f64(at.pairDesign, models * models * k).slice(),
    pairRecords: kernels.f64(at.pairRecords, models * models).slice(),
    pairDeviation: kernels.f64(at.pairDeviation, models * models).slice(),
    observations: observations!,
    answers: answers!,
  };
}
