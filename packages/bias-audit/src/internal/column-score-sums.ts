import type { BiasColumns } from '../bias-columns.js';
import type { ScoreChunkBuilder } from './score-chunk.js';
import type { Layout } from './score-model-design.js';
import { nameRanks } from './score-model-design.js';

/**
 * Forms one session's score-model sums (`SessionStats`) from its records and writes them straight into a
 * `ScoreChunkBuilder`: no object per answer or pair, no copy between them, and no index of the whole window
 * (the scored records are grouped by answer session by session, in buffers reused across sessions — the
 * window-wide index cost 8 bytes a record, 160 MB at 20 M records). The fit visits every session twice.
 */
export class ColumnScoreSums {
  private readonly nameRank: Int32Array;
  /** The session's scored records, by answer (author in name order), each answer in record order. */
  private order = new Int32Array(64);
  /** The name rank of each entry's author, in step with `order`. */
  private orderKey = new Int32Array(64);
  private answerFrom = new Int32Array(65);
  /** Global column → local (−1 when the session has not used it), and local → global. */
  private readonly local: Int32Array;
  private readonly touched: Int32Array;
  /** An answer's mean design row over its support (the columns its records use), by global column. */
  private readonly mean: Float64Array;
  private readonly support: Int32Array;
  private readonly supportLocal: Int32Array;
  /** The answer's mean row over its support, densely (`supportMean[j]` of column `supportLocal[j]`). */
  private readonly supportMean: Float64Array;
  private readonly inSupport: Uint8Array;

  constructor(
    private readonly columns: BiasColumns,
    private readonly layout: Layout,
  ) {
    const { k } = layout;
    this.nameRank = nameRanks(columns.models);
    this.local = new Int32Array(k).fill(-1);
    this.touched = new Int32Array(k);
    this.mean = new Float64Array(k);
    this.support = new Int32Array(k);
    this.supportLocal = new Int32Array(k);
    this.supportMean = new Float64Array(k);
    this.inSupport = new Uint8Array(k);
  }

  /** Appends session `s`'s sums to `into`; false (nothing appended) when it has no scored record. */
  append(s: number, into: ScoreChunkBuilder): boolean {
    const { columns, layout, local, touched, mean, support, supportLocal, supportMean, inSupport } = this;
    const { score, reviewer, candidate, position } = columns;
    const { reviewerColumn, positionIndex, selfColumn } = layout;
    const answers = this.groupAnswers(s);
    if (answers === 0) return false;
    const { order, answerFrom } = this;
    const scored = answerFrom[answers]!;
    // The session's columns, in the order its records (by answer) first use them: reviewer, position, self.
    let m = 0;
    for (let r = 0; r < scored; r++) {
      const i = order[r]!;
      const who = reviewer[i]!;
      const a = reviewerColumn[who]!;
      if (local[a] === -1) {
        local[a] = m;
        touched[m++] = a;
      }
      const b = positionIndex[position[i]!]!;
      if (local[b] === -1) {
        local[b] = m;
        touched[m++] = b;
      }
      if (who === candidate[i] && selfColumn[who]! >= 0) {
        const c = selfColumn[who]!;
        if (local[c] === -1) {
          local[c] = m;
          touched[m++] = c;
        }
      }
    }
    into.beginSession();
    const columnsOut = into.columns.reserve(m);
    const recordsOut = into.records.reserve(m);
    const xtyOut = into.xty.reserve(m);
    const xtxOut = into.xtx.reserve(m * m);
    const c0 = into.columns.length;
    const x0 = into.xtx.length;
    for (let a = 0; a < m; a++) {
      columnsOut[c0 + a] = touched[a]!;
      recordsOut[c0 + a] = 0;
      xtyOut[c0 + a] = 0;
    }
    xtxOut.fill(0, x0, x0 + m * m);
    const authorOut = into.answerAuthor.reserve(answers);
    const lengthOut = into.answerLength.reserve(answers);
    const countOut = into.answerCount.reserve(answers);
    const meanOut = into.answerMean.reserve(answers);
    const rowStartOut = into.answerRowStart.reserve(answers);
    const rowOut = into.answerRow.reserve(answers * m);
    const firstAnswer = into.answerAuthor.length;
    const r0 = into.answerRow.length;
    rowOut.fill(0, r0, r0 + answers * m);
    const pairReviewerOut = into.pairReviewer.reserve(scored);
    const pairAuthorOut = into.pairAuthor.reserve(scored);
    const pairReviewerColumnOut = into.pairReviewerColumn.reserve(scored);
    const pairPositionColumnOut = into.pairPositionColumn.reserve(scored);
    const pairAnswerOut = into.pairAnswer.reserve(scored);
    const pairDeviationOut = into.pairDeviation.reserve(scored);
    let pairs = into.pairReviewer.length;
    let size = 0;
    let yty = 0;
    for (let answer = 0; answer < answers; answer++) {
      const from = answerFrom[answer]!;
      const count = answerFrom[answer + 1]! - from;
      // The answer's mean row and mean score, its columns in the order its records use them.
      for (let j = 0; j < size; j++) {
        mean[support[j]!] = 0;
        inSupport[support[j]!] = 0;
      }
      size = 0;
      let y = 0;
      const share = 1 / count;
      for (let r = from; r < from + count; r++) {
        const i = order[r]!;
        const who = reviewer[i]!;
        const a = reviewerColumn[who]!;
        if (inSupport[a] === 0) {
          inSupport[a] = 1;
          support[size++] = a;
        }
        mean[a]! += share;
        const b = positionIndex[position[i]!]!;
        if (inSupport[b] === 0) {
          inSupport[b] = 1;
          support[size++] = b;
        }
        mean[b]! += share;
        if (who === candidate[i] && selfColumn[who]! >= 0) {
          const c = selfColumn[who]!;
          if (inSupport[c] === 0) {
            inSupport[c] = 1;
            support[size++] = c;
          }
          mean[c]! += share;
        }
        y += score[i]!;
      }
      const yBar = y * share;
      const row = r0 + answer * m;
      for (let j = 0; j < size; j++) {
        supportLocal[j] = local[support[j]!]!;
        supportMean[j] = mean[support[j]!]!;
        rowOut[row + supportLocal[j]!] = supportMean[j]!;
      }
      const author = candidate[order[from]!]!;
      authorOut[firstAnswer + answer] = author;
      lengthOut[firstAnswer + answer] = columns.responseLengthChars[order[from]!]!;
      countOut[firstAnswer + answer] = count;
      meanOut[firstAnswer + answer] = yBar;
      rowStartOut[firstAnswer + answer] = row;
      if (count < 2) continue;
      // Σ(x − x̄)(x − x̄)' = Σxx' − m·x̄x̄', over the answer's own columns.
      for (let ja = 0; ja < size; ja++) {
        const ma = count * supportMean[ja]!;
        const at = x0 + supportLocal[ja]! * m;
        for (let jb = 0; jb < size; jb++) xtxOut[at + supportLocal[jb]!]! -= ma * supportMean[jb]!;
      }
      for (let r = from; r < from + count; r++) {
        const i = order[r]!;
        const who = reviewer[i]!;
        const yi = score[i]! - yBar;
        yty += yi * yi;
        const la = local[reviewerColumn[who]!]!;
        const lb = local[positionIndex[position[i]!]!]!;
        const self = who === candidate[i] && selfColumn[who]! >= 0;
        const lc = self ? local[selfColumn[who]!]! : -1;
        recordsOut[c0 + la]!++;
        xtyOut[c0 + la]! += yi;
        xtxOut[x0 + la * m + la]! += 1;
        xtxOut[x0 + la * m + lb]! += 1;
        if (self) xtxOut[x0 + la * m + lc]! += 1;
        recordsOut[c0 + lb]!++;
        xtyOut[c0 + lb]! += yi;
        xtxOut[x0 + lb * m + la]! += 1;
        xtxOut[x0 + lb * m + lb]! += 1;
        if (self) {
          xtxOut[x0 + lb * m + lc]! += 1;
          recordsOut[c0 + lc]!++;
          xtyOut[c0 + lc]! += yi;
          xtxOut[x0 + lc * m + la]! += 1;
          xtxOut[x0 + lc * m + lb]! += 1;
          xtxOut[x0 + lc * m + lc]! += 1;
        }
        if (who === author) continue;
        pairReviewerOut[pairs] = who;
        pairAuthorOut[pairs] = author;
        pairReviewerColumnOut[pairs] = la;
        pairPositionColumnOut[pairs] = lb;
        pairAnswerOut[pairs] = firstAnswer + answer;
        pairDeviationOut[pairs++] = yi;
      }
    }
    for (let j = 0; j < size; j++) {
      mean[support[j]!] = 0;
      inSupport[support[j]!] = 0;
    }
    for (let j = 0; j < m; j++) local[touched[j]!] = -1;
    into.columns.length += m;
    into.records.length += m;
    into.xty.length += m;
    into.xtx.length += m * m;
    into.yty.push(yty);
    into.answerAuthor.length += answers;
    into.answerLength.length += answers;
    into.answerCount.length += answers;
    into.answerMean.length += answers;
    into.answerRowStart.length += answers;
    into.answerRow.length += answers * m;
    const added = pairs - into.pairReviewer.length;
    into.pairReviewer.length += added;
    into.pairAuthor.length += added;
    into.pairReviewerColumn.length += added;
    into.pairPositionColumn.length += added;
    into.pairAnswer.length += added;
    into.pairDeviation.length += added;
    return true;
  }

  /**
   * Groups session `s`'s scored records by answer into `order` (insertion by the author's name rank, stable:
   * sessions have tens of records), answer j from `answerFrom[j]`; returns the answers.
   */
  private groupAnswers(s: number): number {
    const { columns, nameRank } = this;
    const from = columns.sessionStart[s]!;
    const to = columns.sessionStart[s + 1]!;
    if (this.order.length < to - from) {
      this.order = new Int32Array(2 * (to - from));
      this.orderKey = new Int32Array(2 * (to - from));
      this.answerFrom = new Int32Array(2 * (to - from) + 1);
    }
    const { order, orderKey, answerFrom } = this;
    const { score, candidate } = columns;
    let n = 0;
    for (let i = from; i < to; i++) {
      if (Number.isNaN(score[i]!)) continue;
      const c = nameRank[candidate[i]!]!;
      let j = n++;
      while (j > 0 && orderKey[j - 1]! > c) {
        order[j] = order[j - 1]!;
        orderKey[j] = orderKey[j - 1]!;
        j--;
      }
      order[j] = i;
      orderKey[j] = c;
    }
    let answers = 0;
    for (let j = 0; j < n; j++) if (j === 0 || orderKey[j] !== orderKey[j - 1]) answerFrom[answers++] = j;
    answerFrom[answers] = n;
    return answers;
  }
}
