import type { BiasColumns } from '../bias-columns.js';

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
  const shown = new Set<number>();
  for (let i = 0; i < columns.length; i++) {
    if (Number.isNaN(columns.score[i]!)) continue;
    const reviewer = columns.reviewer[i]!;
    reviews[reviewer] = 1;
    if (reviewer === columns.candidate[i]) selfReviews[reviewer] = 1;
    shown.add(columns.position[i]!);
  }
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
  for (const p of [...shown].sort((a, b) => a - b)) positionColumn.set(p, k++);
  const selfColumn = new Int32Array(models).fill(-1);
  const selfModels: number[] = [];
  for (const m of byName) {
    if (selfReviews[m] === 0) continue;
    selfColumn[m] = k++;
    selfModels.push(m);
  }
  return { reviewerColumn, positionColumn, positionIndex: positionIndexOf(positionColumn), selfColumn, k, reviewerModels, selfModels };
}

/** `positionColumn` as an array indexed by position (positions are at most 65,535). */
export function positionIndexOf(positionColumn: ReadonlyMap<number, number>): Int32Array {
  const index = new Int32Array(Math.max(-1, ...positionColumn.keys()) + 1).fill(-1);
  for (const [p, c] of positionColumn) index[p] = c;
  return index;
}

/** The design columns a record sets to 1 (two or three of them). */
// eslint-disable-next-line max-params -- called once per record in both passes: no object per call
export function rowOf(columns: BiasColumns, layout: Layout, i: number, out: Int32Array): number {
  const reviewer = columns.reviewer[i]!;
  out[0] = layout.reviewerColumn[reviewer]!;
  out[1] = layout.positionIndex[columns.position[i]!]!;
  if (reviewer === columns.candidate[i] && layout.selfColumn[reviewer]! >= 0) {
    out[2] = layout.selfColumn[reviewer]!;
    return 3;
  }
  return 2;
}

/**
 * The scored records grouped by answer (one candidate of one session), session by session: `order` holds
 * record indices, answer j's from `answerStart[j]` to `answerStart[j + 1]`, session s's answers from
 * `sessionAnswerStart[s]` to `sessionAnswerStart[s + 1]`. Built once, read by both passes.
 */
export interface AnswerIndex {
  order: Int32Array;
  answerStart: Int32Array;
  sessionAnswerStart: Int32Array;
}

export function indexAnswers(columns: BiasColumns): AnswerIndex {
  const order = new Int32Array(columns.length);
  const starts = new Int32Array(columns.length + 1);
  let answers = 0;
  const sessionAnswerStart = new Int32Array(columns.sessionIds.length + 1);
  let n = 0;
  // Answers by their author's name, not by the order the reader met the members in: a session's sums then depend on
  // its own records alone (the same whichever store, or engine, they are summarised from).
  const nameRank = nameRanks(columns.models);
  for (let s = 0; s < columns.sessionIds.length; s++) {
    sessionAnswerStart[s] = answers;
    const first = n;
    for (let i = columns.sessionStart[s]!; i < columns.sessionStart[s + 1]!; i++) {
      if (Number.isNaN(columns.score[i]!)) continue;
      // Insertion by candidate, stable: sessions have tens of records.
      const c = nameRank[columns.candidate[i]!]!;
      let j = n++;
      while (j > first && nameRank[columns.candidate[order[j - 1]!]!]! > c) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    for (let j = first; j < n; j++) if (j === first || columns.candidate[order[j]!] !== columns.candidate[order[j - 1]!]) starts[answers++] = j;
  }
  sessionAnswerStart[columns.sessionIds.length] = answers;
  starts[answers] = n;
  return { order, answerStart: starts.subarray(0, answers + 1), sessionAnswerStart };
}

/** Each member's place in name order (as `<` orders strings), by member index. */
export function nameRanks(models: readonly string[]): Int32Array {
  const rank = new Int32Array(models.length);
  Array.from({ length: models.length }, (_, m) => m)
    .sort((a, b) => (models[a]! < models[b]! ? -1 : models[a]! > models[b]! ? 1 : 0))
    .forEach((m, r) => (rank[m] = r));
  return rank;
}

/** An answer's mean design row: `mean[c]` over the columns in `support` (the others are 0). */
export class AnswerMean {
  readonly mean: Float64Array;
  readonly support: Int32Array;
  size = 0;
  private readonly inSupport: Uint8Array;
  private readonly row = new Int32Array(3);

  constructor(k: number) {
    this.mean = new Float64Array(k);
    this.support = new Int32Array(k);
    this.inSupport = new Uint8Array(k);
  }

  /** Fills the mean row of the `count` records at `list[from…]`; returns their mean score. */
  fill(columns: BiasColumns, layout: Layout, records: { list: Int32Array; from: number; count: number }): number {
    for (let j = 0; j < this.size; j++) {
      const c = this.support[j]!;
      this.mean[c] = 0;
      this.inSupport[c] = 0;
    }
    this.size = 0;
    let y = 0;
    const share = 1 / records.count;
    for (let r = records.from; r < records.from + records.count; r++) {
      const i = records.list[r]!;
      const width = rowOf(columns, layout, i, this.row);
      for (let j = 0; j < width; j++) {
        const c = this.row[j]!;
        if (this.inSupport[c] === 0) {
          this.inSupport[c] = 1;
          this.support[this.size++] = c;
        }
        this.mean[c]! += share;
      }
      y += columns.score[i]!;
    }
    return y * share;
  }
}
