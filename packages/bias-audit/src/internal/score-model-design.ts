import type { BiasColumns } from '../bias-columns.js';
import { MAX_POSITION } from './window-observations.js';

/** A record's columns in the model: reviewer offset, display position, and the reviewer's own answer. */
export interface Layout {
  reviewerColumn: Int32Array; // model index → column, or -1
  positionColumn: Map<number, number>; // position shown → column
  positionIndex: Int32Array; // the same as an array (position → column, or −1): read once per record
  selfColumn: Int32Array; // model index → column of "scores its own answer", or -1
  k: number;
  reviewerModels: number[];
  selfModels: number[];
}

export function layoutOf(columns: BiasColumns): Layout {
  const models = columns.models.length;
  const reviews = new Uint8Array(models);
  const selfReviews = new Uint8Array(models);
  // Positions shown, as flags (a Set's add per record cost half a second at 20 M records); one beyond MAX_POSITION
  // (which the report refuses before fitting) goes to a Set.
  let shownFlags = new Uint8Array(64);
  const shownBeyond = new Set<number>();
  const { score, reviewer: reviewers, candidate, position } = columns;
  for (let i = 0; i < columns.length; i++) {
    if (Number.isNaN(score[i]!)) continue;
    const reviewer = reviewers[i]!;
    reviews[reviewer] = 1;
    if (reviewer === candidate[i]) selfReviews[reviewer] = 1;
    const p = position[i]!;
    if (p < shownFlags.length) shownFlags[p] = 1;
    else if (p <= MAX_POSITION) {
      const grown = new Uint8Array(Math.min(MAX_POSITION + 1, Math.max(p + 1, 2 * shownFlags.length)));
      grown.set(shownFlags);
      shownFlags = grown;
      shownFlags[p] = 1;
    } else shownBeyond.add(p);
  }
  const shown: number[] = [];
  shownFlags.forEach((flag, p) => {
    if (flag === 1) shown.push(p);
  });
  shown.push(...[...shownBeyond].sort((a, b) => a - b));
  // Members in name order, whatever order the reader met them in: the columns (and so every sum of the fit) are laid
  // out as they are for the same records' summaries (`sourceFromSummaries`), so both give the same report to the bit.
  const rank = nameRanks(columns.models);
  const byName = Array.from({ length: models }, (_, m) => m).sort((a, b) => rank[a]! - rank[b]!);
  let k = 0;
  const reviewerColumn = new Int32Array(models).fill(-1);
  const reviewerModels: number[] = [];
  for (const m of byName) {
    if (reviews[m] === 0) continue;
    reviewerColumn[m] = k++;
    reviewerModels.push(m);
  }
  // Only positions shown get a column: a stray position 30,000 must not size the matrices.
  const positionColumn = new Map<number, number>();
  for (const p of shown) positionColumn.set(p, k++);
  const selfColumn = new Int32Array(models).fill(-1);
  const selfModels: number[] = [];
  for (const m of byName) {
    if (selfReviews[m] === 0) continue;
    selfColumn[m] = k++;
    selfModels.push(m);
  }
  return withPositionIndex({ reviewerColumn, positionColumn, selfColumn, k, reviewerModels, selfModels });
}

/** A layout whose `positionIndex` is its `positionColumn` as an array (`positionIndexOf`). */
export function withPositionIndex(layout: Omit<Layout, 'positionIndex'>): Layout {
  return { ...layout, positionIndex: positionIndexOf(layout.positionColumn) };
}

/** `positionColumn` as an array indexed by position (positions are at most 65,535). */
export function positionIndexOf(positionColumn: ReadonlyMap<number, number>): Int32Array {
  const index = new Int32Array(Math.max(-1, ...positionColumn.keys()) + 1).fill(-1);
  for (const [p, c] of positionColumn) index[p] = c;
  return index;
}

/** Each member's place in name order (as `<` orders strings), by member index. */
export function nameRanks(models: readonly string[]): Int32Array {
  const rank = new Int32Array(models.length);
  Array.from({ length: models.length }, (_, m) => m)
    .sort((a, b) => (models[a]! < models[b]! ? -1 : models[a]! > models[b]! ? 1 : 0))
    .forEach((m, r) => (rank[m] = r));
  return rank;
}
