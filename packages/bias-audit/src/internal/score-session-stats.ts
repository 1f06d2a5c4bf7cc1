import type { BiasColumns } from '../bias-columns.js';
import type { BiasSessionSummaries } from '../bias-session-summary.js';
import type { ScoreSessionSummary } from '../score-session-summary.js';
import type { ScoreChunk } from './score-chunk.js';
import { ScoreChunkBuilder } from './score-chunk.js';
import type { Layout } from './score-model-design.js';
import { AnswerMean, indexAnswers, layoutOf, positionIndexOf, rowOf } from './score-model-design.js';

/** One session's sums for the score model (`ScoreSessionSummary`), its columns and members as indices. */
export interface SessionStats {
  /** The session's index in its source (`sessionIds` of the columns, or the summaries' order). */
  session: number;
  /** Global design column of each local one. */
  columns: Int32Array;
  records: ArrayLike<number>;
  xtx: ArrayLike<number>;
  xty: ArrayLike<number>;
  yty: number;
  answers: { author: number; lengthChars: number; count: number; meanScore: number; meanRow: ArrayLike<number> }[];
  /**
   * One per scored record of a reviewer on another member's answer scored twice or more: its design row is its
   * reviewer's and its position's columns (local indices), demeaned by its answer's mean row.
   */
  pairs: { reviewer: number; author: number; reviewerColumn: number; positionColumn: number; answer: number; deviation: number }[];
}

/** What the fit reads: the members, the design's layout, and the sessions' sums (visited twice, in order). */
export interface ScoreModelSource {
  models: readonly string[];
  layout: Layout;
  /** Calls `visit` with the sessions' sums in order, many sessions at a time (see `ScoreChunk`). */
  forEachChunk: (visit: (chunk: ScoreChunk) => void) => void;
}

/**
 * The first visit keeps the sessions' sums for the next while they take at most this many bytes (about 7.5 KB
 * a session for a 5-member council with self-review, growing with the cube of the council's size): the fit's
 * second pass then costs no second pass over the records. Past it the sums are formed afresh on each visit,
 * `CHUNK_SESSIONS` at a time in one reused set of buffers, keeping memory flat.
 */
const RETAIN_BYTES = 32 * 1024 * 1024;
const CHUNK_SESSIONS = 1000;

/** The sums of every session of `columns` (see `RETAIN_BYTES` for when they are kept between visits). */
export function sourceFromColumns(columns: BiasColumns): ScoreModelSource & { forEachSession: (visit: (stats: SessionStats) => void) => void } {
  const layout = layoutOf(columns);
  const index = indexAnswers(columns);
  let kept: ScoreChunk[] | null = null;
  // Decided up front from the layout (X̃'X̃ alone is k² numbers a session), so a large store never builds copies
  // only to drop them; the running count below still stops a store whose sessions are bigger than estimated.
  const { k } = layout;
  let retain = columns.sessionIds.length * (k * k + 8 * k) * 8 <= RETAIN_BYTES;
  const forEachSession = (visit: (stats: SessionStats) => void): void => visitSessionStats(columns, { layout, index, visit });
  const forEachChunk = (visit: (chunk: ScoreChunk) => void): void => {
    if (kept !== null) {
      for (const chunk of kept) visit(chunk);
      return;
    }
    const chunks: ScoreChunk[] = [];
    let bytes = 0;
    const builder = new ScoreChunkBuilder(Math.min(CHUNK_SESSIONS, columns.sessionIds.length));
    const flush = (): void => {
      const chunk = builder.build({ compact: retain });
      visit(chunk);
      if (retain) {
        chunks.push(chunk);
        bytes += chunkBytes(chunk);
        if (bytes > RETAIN_BYTES) {
          retain = false;
          chunks.length = 0;
        }
      }
      builder.reset();
    };
    forEachSession((stats) => {
      builder.append(stats);
      if (builder.sessions === CHUNK_SESSIONS) flush();
    });
    if (builder.sessions > 0) flush();
    if (retain) kept = chunks;
  };
  return { models: columns.models, layout, forEachChunk, forEachSession };
}

function chunkBytes(chunk: ScoreChunk): number {
  let bytes = 0;
  for (const value of Object.values(chunk)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  return bytes;
}

type AnswerStats = SessionStats['answers'][number] & { meanRow: Float64Array };
type PairStats = SessionStats['pairs'][number];

/**
 * Visits each session's sums. The arrays and objects passed are reused for the next session (the fit reads
 * one session at a time, and 100,000 sessions must not cost 100,000 sets of arrays): copy what you keep.
 */
function visitSessionStats(columns: BiasColumns, design: { layout: Layout; index: ReturnType<typeof indexAnswers>; visit: (stats: SessionStats) => void }): void {
  const { layout, index, visit } = design;
  const { k } = layout;
  const list = index.order;
  const local = new Int32Array(k).fill(-1);
  const touched = new Int32Array(k);
  const row = new Int32Array(3);
  const answerMean = new AnswerMean(k);
  const { mean, support } = answerMean;
  const supportLocal = new Int32Array(k);
  const records = new Float64Array(k);
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  const answerPool: AnswerStats[] = [];
  const pairPool: PairStats[] = [];
  const stats: SessionStats = { session: 0, columns: touched, records, xtx, xty, yty: 0, answers: [], pairs: [] };
  for (let s = 0; s + 1 < index.sessionAnswerStart.length; s++) {
    const firstAnswer = index.sessionAnswerStart[s]!;
    const endAnswer = index.sessionAnswerStart[s + 1]!;
    if (firstAnswer === endAnswer) continue;
    let m = 0;
    for (let r = index.answerStart[firstAnswer]!; r < index.answerStart[endAnswer]!; r++) {
      const width = rowOf(columns, layout, list[r]!, row);
      for (let j = 0; j < width; j++) {
        if (local[row[j]!] !== -1) continue;
        local[row[j]!] = m;
        touched[m++] = row[j]!;
      }
    }
    records.fill(0, 0, m);
    xtx.fill(0, 0, m * m);
    xty.fill(0, 0, m);
    stats.session = s;
    stats.columns = touched.subarray(0, m);
    stats.yty = 0;
    stats.answers.length = 0;
    stats.pairs.length = 0;
    for (let answer = firstAnswer; answer < endAnswer; answer++) {
      const from = index.answerStart[answer]!;
      const count = index.answerStart[answer + 1]! - from;
      const yBar = answerMean.fill(columns, layout, { list, from, count });
      const size = answerMean.size;
      const a = answerPool[stats.answers.length] ?? (answerPool[stats.answers.length] = { author: 0, lengthChars: 0, count: 0, meanScore: 0, meanRow: new Float64Array(k) });
      const meanRow = a.meanRow;
      meanRow.fill(0, 0, m);
      for (let j = 0; j < size; j++) {
        supportLocal[j] = local[support[j]!]!;
        meanRow[supportLocal[j]!] = mean[support[j]!]!;
      }
      const author = columns.candidate[list[from]!]!;
      a.author = author;
      a.lengthChars = columns.responseLengthChars[list[from]!]!;
      a.count = count;
      a.meanScore = yBar;
      stats.answers.push(a);
      if (count < 2) continue;
      // Σ(x − x̄)(x − x̄)' = Σxx' − m·x̄x̄', over the answer's own columns.
      for (let ja = 0; ja < size; ja++) {
        const la = supportLocal[ja]!;
        const ma = count * meanRow[la]!;
        for (let jb = 0; jb < size; jb++) xtx[la * m + supportLocal[jb]!]! -= ma * meanRow[supportLocal[jb]!]!;
      }
      for (let r = from; r < from + count; r++) {
        const i = list[r]!;
        const width = rowOf(columns, layout, i, row);
        const y = columns.score[i]! - yBar;
        stats.yty += y * y;
        for (let ja = 0; ja < width; ja++) {
          const la = local[row[ja]!]!;
          records[la]!++;
          xty[la]! += y;
          for (let jb = 0; jb < width; jb++) xtx[la * m + local[row[jb]!]!]! += 1;
        }
        const reviewer = columns.reviewer[i]!;
        if (reviewer === author) continue;
        const at = stats.pairs.length;
        const pair = pairPool[at] ?? (pairPool[at] = { reviewer: 0, author: 0, reviewerColumn: 0, positionColumn: 0, answer: 0, deviation: 0 });
        pair.reviewer = reviewer;
        pair.author = author;
        pair.reviewerColumn = local[row[0]!]!;
        pair.positionColumn = local[row[1]!]!;
        pair.answer = stats.answers.length - 1;
        pair.deviation = y;
        stats.pairs.push(pair);
      }
    }
    for (let j = 0; j < m; j++) local[touched[j]!] = -1;
    visit(stats);
  }
}

/** The published score part of one session's sums (`names`: each global column's name, see `columnNames`). */
export function publishScoreStats(stats: SessionStats, spec: { names: readonly string[]; models: readonly string[] }): ScoreSessionSummary {
  const { names, models } = spec;
  const m = stats.columns.length;
  return {
    columns: Array.from(stats.columns, (c) => names[c]!),
    records: Array.from(stats.records).slice(0, m),
    xtx: Array.from(stats.xtx).slice(0, m * m),
    xty: Array.from(stats.xty).slice(0, m),
    yty: stats.yty,
    answers: stats.answers.map((a) => ({ author: models[a.author]!, lengthChars: a.lengthChars, count: a.count, meanScore: a.meanScore, meanRow: Array.from(a.meanRow).slice(0, m) })),
    pairs: stats.pairs.map((p) => ({ reviewer: models[p.reviewer]!, author: models[p.author]!, position: positionOf(names[stats.columns[p.positionColumn]!]!), deviation: p.deviation })),
  };
}

/** The position a `position:<n>` column names. */
function positionOf(name: string): number {
  return Number(name.slice('position:'.length));
}

/** Each global column's published name: `reviewer:<model>`, `position:<n>`, `self:<model>`. */
export function columnNames(source: Pick<ScoreModelSource, 'layout' | 'models'>): string[] {
  const { layout, models } = source;
  const names: string[] = new Array<string>(layout.k);
  for (const m of layout.reviewerModels) names[layout.reviewerColumn[m]!] = `reviewer:${models[m]!}`;
  for (const [p, c] of layout.positionColumn) names[c] = `position:${p}`;
  for (const m of layout.selfModels) names[layout.selfColumn[m]!] = `self:${models[m]!}`;
  return names;
}

/**
 * Published summaries (checked by `assertBiasSessionSummaries`) as a source: the same design columns as their
 * records would give (reviewers, then positions in order, then self columns), members and reviewers in name
 * order — so figures equal the records' to rounding.
 */
export function sourceFromSummaries(summaries: BiasSessionSummaries): ScoreModelSource {
  const names = new Set<string>();
  const reviewers = new Set<string>();
  const selves = new Set<string>();
  const positions = new Set<number>();
  for (const { score: s } of summaries.sessions) {
    for (const c of s.columns) {
      const at = c.indexOf(':');
      const kind = c.slice(0, at);
      const value = c.slice(at + 1);
      if (kind === 'position') positions.add(Number(value));
      else (kind === 'reviewer' ? reviewers : selves).add(value);
      if (kind !== 'position') names.add(value);
    }
    for (const a of s.answers) names.add(a.author);
  }
  const models = [...names].sort();
  const modelIndex = new Map(models.map((name, m) => [name, m]));
  let k = 0;
  const reviewerColumn = new Int32Array(models.length).fill(-1);
  const reviewerModels: number[] = [];
  const selfColumn = new Int32Array(models.length).fill(-1);
  const selfModels: number[] = [];
  const columnOf = new Map<string, number>();
  models.forEach((name, m) => {
    if (!reviewers.has(name)) return;
    reviewerColumn[m] = k;
    reviewerModels.push(m);
    columnOf.set(`reviewer:${name}`, k++);
  });
  const positionColumn = new Map<number, number>();
  for (const p of [...positions].sort((a, b) => a - b)) {
    positionColumn.set(p, k);
    columnOf.set(`position:${p}`, k++);
  }
  models.forEach((name, m) => {
    if (!selves.has(name)) return;
    selfColumn[m] = k;
    selfModels.push(m);
    columnOf.set(`self:${name}`, k++);
  });
  const layout: Layout = { reviewerColumn, positionColumn, positionIndex: positionIndexOf(positionColumn), selfColumn, k, reviewerModels, selfModels };
  const builder = new ScoreChunkBuilder(Math.min(summaries.sessions.length, CHUNK_SESSIONS));
  for (const [at, { score: s }] of summaries.sessions.entries()) {
    if (s.answers.length === 0) continue;
    // Every name was checked against the session's members and columns (assertBiasSessionSummaries).
    builder.append({
      session: at,
      columns: Int32Array.from(s.columns, (c) => columnOf.get(c)!),
      records: s.records,
      xtx: s.xtx,
      xty: s.xty,
      yty: s.yty,
      answers: s.answers.map((a) => ({ ...a, author: modelIndex.get(a.author)! })),
      pairs: s.pairs.map((p) => ({
        reviewer: modelIndex.get(p.reviewer)!,
        author: modelIndex.get(p.author)!,
        reviewerColumn: s.columns.indexOf(`reviewer:${p.reviewer}`),
        positionColumn: s.columns.indexOf(`position:${p.position}`),
        answer: s.answers.findIndex((a) => a.author === p.author),
        deviation: p.deviation,
      })),
    });
  }
  const chunk = builder.build({ compact: true });
  return { models, layout, forEachChunk: (visit) => visit(chunk) };
}
