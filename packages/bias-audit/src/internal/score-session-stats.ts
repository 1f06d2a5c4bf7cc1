import type { BiasColumns } from '../bias-columns.js';
import type { BiasSessionSummaries } from '../bias-session-summary.js';
import type { ScoreSessionSummary } from '../score-session-summary.js';
import type { ScoreChunk } from './score-chunk.js';
import { capacityOf, chunkViews, copyChunkIn, placeChunk, ScoreChunkBuilder, writeDescriptor } from './score-chunk.js';
import { scoreKernels } from './score-kernels.js';
import type { Layout } from './score-model-design.js';
import { layoutOf, withPositionIndex } from './score-model-design.js';
import { ColumnScoreSums } from './column-score-sums.js';

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
  pairs: {
    reviewer: number;
    author: number;
    reviewerColumn: number;
    positionColumn: number;
    answer: number;
    deviation: number;
  }[];
}

/**
 * What the fit reads: the members, the design's layout, and the sessions' sums (visited twice, in order) in the score
 * kernels' memory (`ScoreKernels`), which holds one owner's arrays at a time: a pass claims it for its source, lays
 * its own sums out after the source's, then visits the chunks.
 */
export interface ScoreModelSource {
  models: readonly string[];
  layout: Layout;
  /** At least the sessions `forEachChunk` visits (it sizes the per-session arrays of the fit). */
  sessions: number;
  /** Places the source's sums in the kernels' memory, unless they are there; returns the first byte after them. */
  claim: () => number;
  /** Calls `visit` with each chunk's descriptor (see `ScoreChunk`), the sessions in order (claiming the memory). */
  forEachChunk: (visit: (chunk: number) => void) => void;
}

/**
 * The first visit keeps the sessions' sums for the next while they take at most this many bytes (about 7.5 KB
 * a session for a 5-member council with self-review, growing with the cube of the council's size): the fit's
 * second pass then costs no second pass over the records. Past it the sums are formed afresh on each visit,
 * a chunk at a time in one reused room, keeping memory flat.
 */
const RETAIN_BYTES = 32 * 1024 * 1024;

/** The sums of every session of `columns` (see `RETAIN_BYTES` for when they are kept between visits). */
export function sourceFromColumns(
  columns: BiasColumns,
): ScoreModelSource & { forEachSession: (visit: (stats: SessionStats) => void) => void } {
  const layout = layoutOf(columns);
  const sums = new ColumnScoreSums(columns, layout);
  // Decided up front from the chunks' planned room (an upper bound of their sums), so a large store never builds
  // copies only to drop them.
  const retain = sums.bytes <= RETAIN_BYTES;
  let kept = false;
  const claim = (): number =>
    scoreKernels().claim(source, (memory) => {
      kept = false;
      return sums.place(memory, retain);
    });
  const forEachChunk = (visit: (chunk: number) => void): void => {
    claim();
    if (kept) {
      for (let c = 0; c < sums.chunks.length; c++) visit(sums.descriptor(c));
      return;
    }
    const kernels = scoreKernels();
    for (let c = 0; c < sums.chunks.length; c++) visit(sums.build(kernels, c).descriptor);
    kept = retain;
  };
  // Each session's sums as views on the chunk being built: valid during the call only (copy what you keep).
  const forEachSession = (visit: (stats: SessionStats) => void): void => {
    claim();
    const kernels = scoreKernels();
    for (let c = 0; c < sums.chunks.length; c++) {
      const { descriptor, sessions } = sums.build(kernels, c);
      const chunk = chunkViews(kernels, descriptor);
      sessions.forEach((session, at) => visit(sessionStatsOf(chunk, { at, session })));
    }
  };
  const source = {
    models: columns.models,
    layout,
    sessions: columns.sessionIds.length,
    claim,
    forEachChunk,
    forEachSession,
  };
  return source;
}

/** Session `at` of `chunk` as `SessionStats` (views on the chunk's arrays), `session` its index in its source. */
function sessionStatsOf(chunk: ScoreChunk, where: { at: number; session: number }): SessionStats {
  const { at, session } = where;
  const c0 = chunk.colStart[at]!;
  const m = chunk.colStart[at + 1]! - c0;
  const x0 = chunk.xtxStart[at]!;
  const firstAnswer = chunk.answerStart[at]!;
  const answers: SessionStats['answers'] = [];
  for (let j = firstAnswer; j < chunk.answerStart[at + 1]!; j++) {
    const r0 = chunk.answerRowStart[j]!;
    answers.push({
      author: chunk.answerAuthor[j]!,
      lengthChars: chunk.answerLength[j]!,
      count: chunk.answerCount[j]!,
      meanScore: chunk.answerMean[j]!,
      meanRow: chunk.answerRow.subarray(r0, r0 + m),
    });
  }
  const pairs: SessionStats['pairs'] = [];
  for (let j = chunk.pairStart[at]!; j < chunk.pairStart[at + 1]!; j++) {
    pairs.push({
      reviewer: chunk.pairReviewer[j]!,
      author: chunk.pairAuthor[j]!,
      reviewerColumn: chunk.pairReviewerColumn[j]!,
      positionColumn: chunk.pairPositionColumn[j]!,
      answer: chunk.pairAnswer[j]! - firstAnswer,
      deviation: chunk.pairDeviation[j]!,
    });
  }
  return {
    session,
    columns: chunk.columns.subarray(c0, c0 + m),
    records: chunk.records.subarray(c0, c0 + m),
    xtx: chunk.xtx.subarray(x0, x0 + m * m),
    xty: chunk.xty.subarray(c0, c0 + m),
    yty: chunk.yty[at]!,
    answers,
    pairs,
  };
}

/** The published score part of one session's sums (`names`: each global column's name, see `columnNames`). */
export function publishScoreStats(
  stats: SessionStats,
  spec: { names: readonly string[]; models: readonly string[] },
): ScoreSessionSummary {
  const { names, models } = spec;
  const m = stats.columns.length;
  return {
    columns: Array.from(stats.columns, (c) => names[c]!),
    records: Array.from(stats.records).slice(0, m),
    xtx: Array.from(stats.xtx).slice(0, m * m),
    xty: Array.from(stats.xty).slice(0, m),
    yty: stats.yty,
    answers: stats.answers.map((a) => ({
      author: models[a.author]!,
      lengthChars: a.lengthChars,
      count: a.count,
      meanScore: a.meanScore,
      meanRow: Array.from(a.meanRow).slice(0, m),
    })),
    pairs: stats.pairs.map((p) => ({
      reviewer: models[p.reviewer]!,
      author: models[p.author]!,
      position: positionOf(names[stats.columns[p.positionColumn]!]!),
      deviation: p.deviation,
    })),
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
  const layout = withPositionIndex({ reviewerColumn, positionColumn, selfColumn, k, reviewerModels, selfModels });
  const builder = new ScoreChunkBuilder(summaries.sessions.length);
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
  const chunk = builder.build();
  // One chunk, copied into the kernels' memory whenever the source claims it.
  let descriptor = 0;
  const claim = (): number =>
    scoreKernels().claim(source, (memory) => {
      const placed = placeChunk(memory, capacityOf(chunk));
      descriptor = placed.descriptor;
      return (kernels) => {
        writeDescriptor(kernels, placed);
        copyChunkIn(kernels, chunk, placed);
      };
    });
  const source: ScoreModelSource = {
    models,
    layout,
    sessions: summaries.sessions.length,
    claim,
    forEachChunk: (visit) => {
      claim();
      visit(descriptor);
    },
  };
  return source;
}
