import type { BiasColumns } from '../bias-columns.js';
import type { BiasSessionSummaries } from '../bias-session-summary.js';
import { nameRanks } from './score-model-design.js';
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

/**
 * One session's answers, in author-name order, in reused buffers: `author[j]` its author's name rank, `length[j]`
 * its length, and its scored records' positions as `count[j]`, Σp `sum[j]` and Σp² `squares[j]`; `rank` is work space.
 */
class DesignAnswers {
  q = 0;
  author = new Int32Array(16);
  length = new Float64Array(16);
  count = new Float64Array(16);
  sum = new Float64Array(16);
  squares = new Float64Array(16);
  rank = new Float64Array(16);

  /** Empties the buffers for a session of up to `answers` answers. */
  reset(answers: number): void {
    this.q = 0;
    if (answers <= this.author.length) return;
    const size = Math.max(answers, 2 * this.author.length);
    this.author = new Int32Array(size);
    this.length = new Float64Array(size);
    this.count = new Float64Array(size);
    this.sum = new Float64Array(size);
    this.squares = new Float64Array(size);
    this.rank = new Float64Array(size);
  }

  add(answer: { author: number; length: number; count: number; sum: number; squares: number }): void {
    const j = this.q++;
    this.author[j] = answer.author;
    this.length[j] = answer.length;
    this.count[j] = answer.count;
    this.sum[j] = answer.sum;
    this.squares[j] = answer.squares;
  }
}

/** Sums over sessions (see `PositionDesign`); sessions arrive one at a time, their answers in author-name order. */
class PositionDesignSums {
  private readonly m: number;
  /** The within-session Gram matrix of (author indicators…, length rank, position), (m + 2)². */
  private readonly gram: Float64Array;
  /** before[a·m + b]: sessions that showed author a before author b (by their records' mean positions). */
  private readonly before: Float64Array;
  /**
   * Each session's authors and their mean positions, kept for the second look at the authors' order (the first
   * `answersKept`; where each session's end, the first `sessionsKept`). Typed arrays grown by doubling: plain arrays
   * grown by push held about 250 MB more at their peak for 1,000,000 sessions of five authors.
   */
  private sessionAuthors = new Int32Array(64);
  private sessionMeans = new Float64Array(64);
  private sessionEnds = new Int32Array(64);
  private answersKept = 0;
  private sessionsKept = 0;
  private sessions = 0;
  private varyingSessions = 0;
  /** Sessions with two lengths or more, and those shown longest first and shortest first. */
  private lengthSessions = 0;
  private longestFirstSessions = 0;
  private shortestFirstSessions = 0;

  constructor(models: number) {
    this.m = models;
    this.gram = new Float64Array((models + 2) ** 2);
    this.before = new Float64Array(models * models);
  }

  addSession(answers: DesignAnswers): void {
    const { q, author, length, count, sum, squares, rank } = answers;
    if (q === 0) return;
    this.sessions++;
    const { m, gram, before } = this;
    const d = m + 2;
    const L = m;
    const X = m + 1;
    let n = 0;
    let sumX = 0;
    let sumXX = 0;
    let sumL = 0;
    let sumLL = 0;
    let sumLX = 0;
    for (let j = 0; j < q; j++) {
      // Length rank within the session (0 = shortest, ties averaged).
      let below = 0;
      let same = 0;
      for (let k = 0; k < q; k++) {
        if (length[k]! < length[j]!) below++;
        else if (length[k] === length[j]) same++;
      }
      const r = below + (same - 1) / 2;
      rank[j] = r;
      n += count[j]!;
      sumX += sum[j]!;
      sumXX += squares[j]!;
      sumL += count[j]! * r;
      sumLL += count[j]! * r * r;
      sumLX += r * sum[j]!;
    }
    if (n === 0) return;
    if (sumXX - (sumX * sumX) / n > 1e-9 * Math.max(1, sumXX)) this.varyingSessions++;
    for (let j = 0; j < q; j++) {
      const a = author[j]!;
      const c = count[j]!;
      for (let k = 0; k < q; k++) gram[a * d + author[k]!]! += (j === k ? c : 0) - (c * count[k]!) / n;
      const al = c * rank[j]! - (c * sumL) / n;
      const ax = sum[j]! - (c * sumX) / n;
      gram[a * d + L]! += al;
      gram[L * d + a]! += al;
      gram[a * d + X]! += ax;
      gram[X * d + a]! += ax;
    }
    const lx = sumLX - (sumL * sumX) / n;
    gram[L * d + L]! += sumLL - (sumL * sumL) / n;
    gram[L * d + X]! += lx;
    gram[X * d + L]! += lx;
    gram[X * d + X]! += sumXX - (sumX * sumX) / n;
    // The order the session showed its authors and its lengths in, by their records' mean positions (NaN: none).
    let longest = true;
    let shortest = true;
    let lengths = false;
    for (let j = 0; j < q; j++) {
      const mj = sum[j]! / count[j]!;
      if (this.answersKept === this.sessionAuthors.length) {
        this.sessionAuthors = doubled(this.sessionAuthors);
        this.sessionMeans = doubled(this.sessionMeans);
      }
      this.sessionAuthors[this.answersKept] = author[j]!;
      this.sessionMeans[this.answersKept++] = mj;
      for (let k = 0; k < q; k++) {
        const mk = sum[k]! / count[k]!;
        if (mj < mk) before[author[j]! * m + author[k]!]!++;
        if (length[j]! <= length[k]!) continue;
        lengths = true;
        if (!(mj < mk)) longest = false;
        if (!(mj > mk)) shortest = false;
      }
    }
    if (this.sessionsKept === this.sessionEnds.length) this.sessionEnds = doubled(this.sessionEnds);
    this.sessionEnds[this.sessionsKept++] = this.answersKept;
    if (lengths) {
      this.lengthSessions++;
      if (longest) this.longestFirstSessions++;
      else if (shortest) this.shortestFirstSessions++;
    }
  }

  design(): PositionDesign {
    const { m, gram, before } = this;
    const d = m + 2;
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
    // The window's usual order of authors: a before b where more sessions showed a first.
    let orderedSessions = 0;
    let authorOrderSessions = 0;
    let start = 0;
    for (const end of this.sessionEnds.subarray(0, this.sessionsKept)) {
      if (end - start >= 2) {
        orderedSessions++;
        let agrees = true;
        for (let j = start; j < end && agrees; j++)
          for (let k = start; k < end; k++) {
            const a = this.sessionAuthors[j]!;
            const b = this.sessionAuthors[k]!;
            if (before[a * m + b]! > before[b * m + a]! && !(this.sessionMeans[j]! < this.sessionMeans[k]!)) {
              agrees = false;
              break;
            }
          }
        if (agrees) authorOrderSessions++;
      }
      start = end;
    }
    const longestFirst = gram[L * d + X]! <= 0;
    const lengthOrderSessions = longestFirst ? this.longestFirstSessions : this.shortestFirstSessions;
    return {
      sessions: this.sessions,
      varyingSessions: this.varyingSessions,
      withinAuthorShare,
      withinLengthShare,
      orderedSessions,
      authorOrderSessions,
      lengthSessions: this.lengthSessions,
      lengthOrderSessions,
      longestFirst,
    };
  }
}

/** `values` copied into an array of twice its length. */
function doubled<A extends Int32Array | Float64Array>(values: A): A {
  const bigger = new (values.constructor as new (length: number) => A)(values.length * 2);
  bigger.set(values);
  return bigger;
}

function clampShare(share: number): number {
  return Math.max(0, Math.min(1, share));
}

/** The design of the display orders of `columns`' scored records (one pass; answers in author-name order). */
export function positionDesignFromColumns(columns: BiasColumns): PositionDesign {
  const models = columns.models.length;
  const rankOf = nameRanks(columns.models);
  const sums = new PositionDesignSums(models);
  const answers = new DesignAnswers();
  answers.reset(models);
  const count = new Float64Array(models);
  const sum = new Float64Array(models);
  const squares = new Float64Array(models);
  const length = new Float64Array(models);
  const seen = new Int32Array(models);
  const { score, candidate, position, responseLengthChars, sessionStart } = columns;
  for (let s = 0; s < columns.sessionIds.length; s++) {
    let authors = 0;
    for (let i = sessionStart[s]!; i < sessionStart[s + 1]!; i++) {
      if (Number.isNaN(score[i]!)) continue;
      const a = rankOf[candidate[i]!]!;
      if (count[a] === 0) {
        seen[authors++] = a;
        length[a] = responseLengthChars[i]!;
      }
      const p = position[i]!;
      count[a]!++;
      sum[a]! += p;
      squares[a]! += p * p;
    }
    const order = seen.subarray(0, authors).sort();
    answers.reset(authors);
    for (const a of order) {
      answers.add({ author: a, length: length[a]!, count: count[a]!, sum: sum[a]!, squares: squares[a]! });
      count[a] = sum[a] = squares[a] = 0;
    }
    sums.addSession(answers);
  }
  return sums.design();
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
  const sums = new PositionDesignSums(models.length);
  const design = new DesignAnswers();
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
    design.reset(byAuthor.length);
    for (const answer of byAuthor) design.add(answer);
    sums.addSession(design);
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
