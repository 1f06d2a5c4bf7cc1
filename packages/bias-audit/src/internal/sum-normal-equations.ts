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

/** The fit's pass 1: sums X̃'X̃ and X̃'ỹ over the sessions of `source`, with the counts and pair rows the figures need. */
export function sumNormalEquations(source: ScoreModelSource): NormalEquations {
  const { k } = source.layout;
  const models = source.models.length;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  const columnRecords = new Float64Array(k);
  const columnSessions = new Uint32Array(k);
  const pairDesign = new Float64Array(models * models * k);
  const pairRecords = new Float64Array(models * models);
  const pairDeviation = new Float64Array(models * models);
  let observations = 0;
  let answers = 0;

  source.forEachChunk((chunk) => {
    const c = chunk.columns;
    const { answerRow, xtx: sessionXtx } = chunk;
    for (let s = 0; s < chunk.size; s++) {
      const c0 = chunk.colStart[s]!;
      const m = chunk.colStart[s + 1]! - c0;
      const x0 = chunk.xtxStart[s]!;
      for (let a = 0; a < m; a++) {
        const column = c[c0 + a]!;
        const ga = column * k;
        xty[column]! += chunk.xty[c0 + a]!;
        columnRecords[column]! += chunk.records[c0 + a]!;
        if (chunk.records[c0 + a]! > 0) columnSessions[column]!++;
        const row = x0 + a * m;
        for (let b = 0; b < m; b++) xtx[ga + c[c0 + b]!]! += sessionXtx[row + b]!;
      }
      for (let j = chunk.answerStart[s]!; j < chunk.answerStart[s + 1]!; j++) {
        if (chunk.answerCount[j]! < 2) continue;
        observations += chunk.answerCount[j]!;
        answers++;
      }
      // A pair record's demeaned row: its reviewer's and position's columns less its answer's mean row.
      for (let j = chunk.pairStart[s]!; j < chunk.pairStart[s + 1]!; j++) {
        const pair = chunk.pairReviewer[j]! * models + chunk.pairAuthor[j]!;
        pairRecords[pair]!++;
        pairDeviation[pair]! += chunk.pairDeviation[j]!;
        const base = pair * k;
        pairDesign[base + c[c0 + chunk.pairReviewerColumn[j]!]!]! += 1;
        pairDesign[base + c[c0 + chunk.pairPositionColumn[j]!]!]! += 1;
        const r0 = chunk.answerRowStart[chunk.pairAnswer[j]!]!;
        for (let a = 0; a < m; a++) pairDesign[base + c[c0 + a]!]! -= answerRow[r0 + a]!;
      }
    }
  });
  return { xtx, xty, columnRecords, columnSessions, pairDesign, pairRecords, pairDeviation, observations, answers };
}
