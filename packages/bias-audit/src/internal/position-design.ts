import type { BiasColumns } from '../bias-columns.js';
import type { BiasSessionSummaries } from '../bias-session-summary.js';
import { nameRanks } from './score-model-design.js';
import type { RecordRoom } from './score-kernels.js';
import { placeRecords, releaseScoreKernels, scoreKernels } from './score-kernels.js';
import { symmetricPseudoInverse } from './symmetric-pseudo-inverse.js';

/**
 * Below this share of display position's within-session variation left once the author (or the answer's length
 * rank) is known, the position figures are not estimable. A position figure is the mean, over sessions, of
 * within-reviewer centred scores at a position: it reads position only when position was assigned independently
 * of who wrote the answer and how long it is (a shuffle). Shuffled orders leave almost all of it (1 − (authors −
 * 1)/(answers − sessions) in expectation: 0.95 at 20 sessions of 5 answers in one shared order, more with an order
 * per reviewer); an order fixed by author or sorted by length leaves about a tenth (5 members each reviewing the
 * other 4) or none. Below one half, most of what the figures would show is the authors' quality or the answers'
 * length, so none is shown and no position flag is raised.
 */
export const POSITION_SHARE_MINIMUM = 0.5;

/**
 * How the display positions of a window's scored records were assigned (`positionDesign`), the evidence behind
 * `positionIdentifiability`. Shares are of the within-session sum of squares of the position index over scored
 * records (each session's mean position removed): what is left after a least-squares fit on the authors (one
 * indicator each, sessions held fixed), or on each answer's length rank within its session. Null when position
 * does not vary within any session.
 */
export interface PositionDesign {
  /** Sessions with a scored record. */
  sessions: number;
  /** Sessions in which the scored records were shown at two positions or more. */
  varyingSessions: number;
  /** Share of position's within-session variation not explained by the author (1: independent of author; 0: a function of it). */
  withinAuthorShare: number | null;
  /** Share not explained by the answer's length rank within its session (0: orders sorted by length). */
  withinLengthShare: number | null;
  /** Sessions with two authors or more, and those among them that showed the authors in the window's usual order. */
  orderedSessions: number;
  authorOrderSessions: number;
  /** Sessions with two lengths or more, and those among them whose answers were shown by length (in `longestFirst`'s direction). */
  lengthSessions: number;
  lengthOrderSessions: number;
  longestFirst: boolean;
}

/** Whether the window's display orders let position be told apart from author and length, and if not why. */
export type PositionIdentifiability =
  { estimable: true } | { estimable: false; cause: 'author' | 'length'; reason: string; share: number };

/** One answer of a session to the design: its author's name rank, its length, its scored records' positions. */
interface DesignAnswer {
  author: number;
  length: number;
  count: number;
  sum: number;
  squares: number;
}

/** Records copied into the kernels' memory at a time, at most (a session's records go in whole). */
const COPY_RECORDS = 1 << 18;

/**
 * Sums over sessions (see `PositionDesign`), in the score kernels' memory (the design kernels of
 * assembly/score-kernels.ts): the within-session Gram matrix of (author indicators…, length rank, position), how often
 * each author was shown before each other, and each session's authors and their mean positions for the second look
 * at the authors' order. Sessions arrive one at a time, their answers in author-name order; the sums hold the
 * kernels' memory from construction to `design` (do nothing with the kernels in between).
 */
class PositionDesignSums {
  private readonly kernels = scoreKernels();
  private readonly m: number;
  private readonly at: RecordRoom & { gram: number; before: number; counts: number; answers: number };

  /** Room for `bounds.sessions` sessions of `bounds.answers` answers in all, their records copied `bounds.records` at most at a time. */
  constructor(
    models: readonly string[],
    bounds: { sessions: number; answers: number; records: number; chunkSessions: number },
  ) {
    const m = models.length;
    this.m = m;
    const d = m + 2;
    let at: PositionDesignSums['at'] | undefined;
    this.kernels.claim(this, (memory) => {
      const from = memory.end;
      const sums = {
        gram: memory.f64(d * d),
        before: memory.f64(m * m),
        sessionAuthors: memory.i32(bounds.answers),
        sessionMeans: memory.f64(bounds.answers),
        sessionEnds: memory.i32(bounds.sessions),
        counts: memory.f64(9),
      };
      const scratch = {
        rankOf: memory.i32(m),
        byCount: memory.f64(m),
        bySum: memory.f64(m),
        bySquares: memory.f64(m),
        byLength: memory.f64(m),
        seen: memory.i32(m),
        answers: memory.f64(6 * m),
      };
      const records = placeRecords(memory, { records: bounds.records, sessions: bounds.chunkSessions });
      const to = memory.end;
      at = { ...sums, answers: scratch.answers, ...records };
      return (kernels) => {
        kernels.zero(from, to);
        kernels.i32(scratch.rankOf, m).set(nameRanks(models));
        const { exports } = kernels;
        exports.setDesign(
          m,
          sums.gram,
          sums.before,
          sums.sessionAuthors,
          sums.sessionMeans,
          sums.sessionEnds,
          sums.counts,
        );
        exports.setDesignScratch(
          scratch.rankOf,
          scratch.byCount,
          scratch.bySum,
          scratch.bySquares,
          scratch.byLength,
          scratch.seen,
          scratch.answers,
        );
        kernels.useRecords(records);
      };
    });
    this.at = at!;
  }

  /** Adds sessions `from … to` of `columns` (their records in the memory's room). */
  addColumns(columns: BiasColumns, sessions: { from: number; to: number }): void {
    const { kernels, at } = this;
    kernels.copyRecords(at, columns, sessions);
    kernels.exports.addDesignSessions(sessions.to - sessions.from);
  }

  /** Adds one session's answers, in author-name order (at most one per member). */
  addSession(answers: readonly DesignAnswer[]): void {
    const { kernels, at, m } = this;
    const q = answers.length;
    // The kernels' six answer arrays, `m` entries of 8 bytes apart: author, length, count, Σp, Σp² (and the ranks).
    const author = kernels.i32(at.answers, q);
    const length = kernels.f64(at.answers + 8 * m, q);
    const count = kernels.f64(at.answers + 16 * m, q);
    const sum = kernels.f64(at.answers + 24 * m, q);
    const squares = kernels.f64(at.answers + 32 * m, q);
    answers.forEach((answer, j) => {
      author[j] = answer.author;
      length[j] = answer.length;
      count[j] = answer.count;
      sum[j] = answer.sum;
      squares[j] = answer.squares;
    });
    kernels.exports.addDesignSession(q);
  }

  design(): PositionDesign {
    const { m, kernels, at } = this;
    const d = m + 2;
    kernels.exports.designAuthorOrder();
    const gram = kernels.f64(at.gram, d * d);
    // The kernels' counts, in assembly/score-kernels.ts's order (DESIGN_SESSIONS …).
    const [
      sessions,
      varyingSessions,
      lengthSessions,
      longestFirstSessions,
      shortestFirstSessions,
      ,
      ,
      ordered,
      agreeing,
    ] = Array.from(kernels.f64(at.counts, 9));
    const L = m;
    const X = m + 1;
    const total = gram[X * d + X]!;
    const varies = total > 1e-9;
    let withinAuthorShare: number | null = null;
    let withinLengthShare: number | null = null;
    if (varies) {
      const authors = new Float64Array(m * m);
      for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) authors[a * m + b] = gram[a * d + b]!;
      const { inverse } = symmetricPseudoInverse(authors, m);
      let explained = 0;
      for (let a = 0; a < m; a++)
        for (let b = 0; b < m; b++) explained += gram[X * d + a]! * inverse[a * m + b]! * gram[b * d + X]!;
      withinAuthorShare = clampShare(1 - explained / total);
      const ll = gram[L * d + L]!;
      withinLengthShare = ll > 0 ? clampShare(1 - gram[L * d + X]! ** 2 / (ll * total)) : 1;
    }
    const longestFirst = gram[L * d + X]! <= 0;
    const lengthOrderSessions = longestFirst ? longestFirstSessions! : shortestFirstSessions!;
    return {
      sessions: sessions!,
      varyingSessions: varyingSessions!,
      withinAuthorShare,
      withinLengthShare,
      // The window's usual order of authors (a before b where more sessions showed a first), and the sessions with
      // two authors or more that showed theirs in it.
      orderedSessions: ordered!,
      authorOrderSessions: agreeing!,
      lengthSessions: lengthSessions!,
      lengthOrderSessions,
      longestFirst,
    };
  }
}

function clampShare(share: number): number {
  return Math.max(0, Math.min(1, share));
}

/** The design of the display orders of `columns`' scored records (one pass; answers in author-name order). */
export function positionDesignFromColumns(columns: BiasColumns): PositionDesign {
  const { sessionStart } = columns;
  const sessions = columns.sessionIds.length;
  const members = columns.models.length;
  // Sessions in runs of at most `COPY_RECORDS` records (or one session, if more), and their answers' bound.
  const runs: { from: number; to: number }[] = [];
  let answers = 0;
  let records = 0;
  let chunkSessions = 0;
  let from = 0;
  for (let s = 0; s < sessions; s++) {
    const r = sessionStart[s + 1]! - sessionStart[s]!;
    answers += Math.min(members, r);
    if (s > from && sessionStart[s + 1]! - sessionStart[from]! > COPY_RECORDS) {
      runs.push({ from, to: s });
      from = s;
    }
  }
  if (sessions > from) runs.push({ from, to: sessions });
  for (const run of runs) {
    records = Math.max(records, sessionStart[run.to]! - sessionStart[run.from]!);
    chunkSessions = Math.max(chunkSessions, run.to - run.from);
  }
  const sums = new PositionDesignSums(columns.models, { sessions, answers, records, chunkSessions });
  for (const run of runs) sums.addColumns(columns, run);
  const design = sums.design();
  releaseScoreKernels();
  return design;
}

/**
 * The same design from summaries (their score parts: each answer's author, length, scored records and the share
 * of them shown at each position), members in name order — what `positionDesignFromColumns` gives for the records.
 */
export function positionDesignFromSummaries(
  summaries: BiasSessionSummaries,
  models: readonly string[],
): PositionDesign {
  const modelIndex = new Map(models.map((name, m) => [name, m]));
  const rankOf = nameRanks(models);
  let answers = 0;
  for (const s of summaries.sessions) answers += s.score.answers.length;
  const sums = new PositionDesignSums(models, {
    sessions: summaries.sessions.length,
    answers,
    records: 0,
    chunkSessions: 0,
  });
  for (const s of summaries.sessions) {
    const { columns, answers } = s.score;
    const positions = columns.map((c) => (c.startsWith('position:') ? Number(c.slice('position:'.length)) : -1));
    const byAuthor = answers
      .map((a) => {
        let count = 0;
        let sum = 0;
        let squares = 0;
        positions.forEach((p, j) => {
          if (p < 0) return;
          const records = Math.round(a.count * a.meanRow[j]!);
          count += records;
          sum += records * p;
          squares += records * p * p;
        });
        return { author: rankOf[modelIndex.get(a.author)!]!, length: a.lengthChars, count, sum, squares };
      })
      .sort((a, b) => a.author - b.author);
    sums.addSession(byAuthor);
  }
  return sums.design();
}

/**
 * Not estimable when less than `POSITION_SHARE_MINIMUM` of position's within-session variation is left once the
 * author is known (checked first: an order fixed by author), or once the answer's length rank is.
 */
export function positionIdentifiability(design: PositionDesign): PositionIdentifiability {
  const percent = (share: number): string => `${Math.round(100 * share)}%`;
  const { withinAuthorShare: author, withinLengthShare: length } = design;
  if (author !== null && author < POSITION_SHARE_MINIMUM)
    return {
      estimable: false,
      cause: 'author',
      share: author,
      reason:
        `position is fixed by author: the authors were shown in the same order in ${design.authorOrderSessions} of ` +
        `${design.orderedSessions} sessions, and only ${percent(author)} of the display positions' variation within ` +
        `sessions is left once the author is known (shuffled orders leave nearly all of it), so the position ` +
        `figures would read the authors' quality`,
    };
  if (length !== null && length < POSITION_SHARE_MINIMUM)
    return {
      estimable: false,
      cause: 'length',
      share: length,
      reason:
        `position is tied to length: the answers were shown ${design.longestFirst ? 'longest' : 'shortest'} first in ` +
        `${design.lengthOrderSessions} of ${design.lengthSessions} sessions, and only ${percent(length)} of the display ` +
        `positions' variation within sessions is left once the answers' length order is known, so the position ` +
        `figures would read length`,
    };
  return { estimable: true };
}

/**
 * The caution on the length figures where the display order follows length (less than `POSITION_SHARE_MINIMUM` of
 * position's within-session variation left once the answers' length order is known), else null. The score model
 * tells length from position only where position varies within an answer (a reviewer's own answer left out moves
 * the others' places): little or nothing when the order is sorted.
 */
export function lengthTiedToPosition(design: PositionDesign): string | null {
  const share = design.withinLengthShare;
  if (share === null || share >= POSITION_SHARE_MINIMUM) return null;
  return (
    `The answers were shown ${design.longestFirst ? 'longest' : 'shortest'} first in ${design.lengthOrderSessions} of ` +
    `${design.lengthSessions} sessions (${Math.round(100 * share)}% of position's variation left once length order ` +
    `is known): an effect of display position may read as length here.`
  );
}
