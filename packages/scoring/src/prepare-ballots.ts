import type { Ballot, CandidateOptions } from './ballot.js';
import { ScoringError } from './scoring-error.js';

/** A non-abstaining ballot after cleaning, with candidates as indices into the candidate list. */
export interface PreparedBallot {
  /** Position of the ballot in the caller's array (for messages). */
  readonly index: number;
  readonly reviewer: string;
  readonly weight: number;
  /** Candidate indices, best first: unknown ids, repeats and (when excluded) self-votes removed. */
  readonly order: readonly number[];
  /**
   * `tiedWithPrevious[k]` is true when `order[k]` is tied with `order[k − 1]`. Only a ranking derived
   * from scores has ties (equal scores); an explicit ranking is strict.
   */
  readonly tiedWithPrevious: readonly boolean[];
  /** Candidates this ballot may rank (m): all, less the reviewer's own when self-votes are excluded. */
  readonly eligible: number;
  /** Indices of the reviewer's own candidates when self-votes are excluded, else empty. */
  readonly own: readonly number[];
}

export interface PreparedBallots {
  readonly candidates: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** Non-abstaining ballots, in input order. */
  readonly ballots: readonly PreparedBallot[];
}

/** A value as a message shows it: numbers plainly (NaN, Infinity), everything else as JSON or its type. */
export function show(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' || value === undefined)
    return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** `ballots[3] (reviewer "gpt-4o")`: how messages name a ballot. */
export function describeBallot(index: number, ballot: unknown): string {
  const reviewer =
    typeof ballot === 'object' && ballot !== null ? (ballot as { reviewer?: unknown }).reviewer : undefined;
  return typeof reviewer === 'string' ? `ballots[${index}] (reviewer "${reviewer}")` : `ballots[${index}]`;
}

/**
 * Validated candidate lists, by array identity, with a snapshot to notice later mutation: callers
 * score many sessions with the same candidate array, and re-validating it each time is waste.
 */
const indexCache: WeakMap<readonly string[], { snapshot: readonly string[]; indexOf: ReadonlyMap<string, number> }> =
  /* @__PURE__ */ new WeakMap();

/** Checks a candidate list (non-empty, non-empty strings, each once) and returns each id's index. */
export function indexCandidates(candidates: unknown, where: string): ReadonlyMap<string, number> {
  if (Array.isArray(candidates)) {
    const cached = indexCache.get(candidates);
    if (
      cached !== undefined &&
      cached.snapshot.length === candidates.length &&
      cached.snapshot.every((c, i) => c === candidates[i])
    )
      return cached.indexOf;
  }
  const indexOf = buildCandidateIndex(candidates, where);
  indexCache.set(candidates as readonly string[], { snapshot: [...(candidates as readonly string[])], indexOf });
  return indexOf;
}

function buildCandidateIndex(candidates: unknown, where: string): Map<string, number> {
  if (!Array.isArray(candidates) || candidates.length === 0) {
    throw new ScoringError({
      code: 'EMPTY_CANDIDATES',
      message: `${where}: options.candidates must be a non-empty array of candidate ids; got ${Array.isArray(candidates) ? 'an empty array' : typeof candidates}. Pass every candidate id, e.g. { candidates: ['a', 'b', 'c'] }.`,
    });
  }
  const indexOf = new Map<string, number>();
  for (let i = 0; i < candidates.length; i++) {
    const candidate: unknown = candidates[i];
    if (typeof candidate !== 'string' || candidate === '') {
      throw new ScoringError({
        code: 'INVALID_CANDIDATE',
        message: `${where}: options.candidates[${i}] must be a non-empty string, got ${show(candidate)}.`,
      });
    }
    if (indexOf.has(candidate)) {
      throw new ScoringError({
        code: 'DUPLICATE_CANDIDATE',
        message: `${where}: candidate "${candidate}" appears more than once in options.candidates (at indices ${indexOf.get(candidate)} and ${i}); list each candidate once.`,
      });
    }
    indexOf.set(candidate, i);
  }
  return indexOf;
}

function ballotError(where: string, at: { index: number; ballot: unknown }, message: string): never {
  throw new ScoringError({
    code: 'INVALID_BALLOT',
    message: `${where}: ${describeBallot(at.index, at.ballot)} ${message}`,
  });
}

/** Validates one ballot's shape; throws a ScoringError naming it. Returns its weight. */
export function validateBallot(ballot: unknown, index: number, where: string): number {
  if (typeof ballot !== 'object' || ballot === null)
    return ballotError(where, { index, ballot }, 'is not an object; pass { reviewer, ranking }.');
  const b = ballot as Partial<Record<keyof Ballot, unknown>>;
  if (typeof b.reviewer !== 'string' || b.reviewer === '')
    ballotError(where, { index, ballot }, "has no reviewer id; set reviewer to the reviewing member's id.");
  const ranking = b.ranking;
  if (!Array.isArray(ranking))
    return ballotError(
      where,
      { index, ballot },
      'has no ranking array; pass ranking: [] when the reviewer gave only scores.',
    );
  for (let i = 0; i < ranking.length; i++) {
    const entry: unknown = ranking[i];
    if (typeof entry !== 'string')
      ballotError(
        where,
        { index, ballot },
        `has a non-string ranking[${i}] (${show(entry)}); rankings list candidate ids.`,
      );
  }
  if (b.scores !== undefined && (typeof b.scores !== 'object' || b.scores === null || Array.isArray(b.scores))) {
    ballotError(
      where,
      { index, ballot },
      'has scores that are not an object; pass scores as { candidateId: number } or leave them out.',
    );
  }
  if (b.abstained !== undefined && typeof b.abstained !== 'boolean')
    ballotError(where, { index, ballot }, 'has a non-boolean abstained flag; use true, false or leave it out.');
  if (b.weight === undefined) return 1;
  if (typeof b.weight !== 'number' || !Number.isFinite(b.weight) || b.weight < 0) {
    throw new ScoringError({
      code: 'INVALID_WEIGHT',
      message: `${where}: ${describeBallot(index, ballot)} has weight ${show(b.weight)}; a weight must be a finite number ≥ 0 (1 by default, 0 for an advisory ballot).`,
    });
  }
  return b.weight;
}

/** The finite scores of a ballot, best first; equal scores keep candidate-id order. */
export function rankingFromScores(scores: Readonly<Record<string, number>> | undefined): {
  ids: string[];
  values: number[];
} {
  if (scores === undefined) return { ids: [], values: [] };
  const pairs: [string, number][] = [];
  for (const [id, value] of Object.entries(scores)) {
    // Only real numbers count: NaN, ±Infinity, booleans and numeric strings are ignored, never coerced.
    if (typeof value === 'number' && Number.isFinite(value)) pairs.push([id, value]);
  }
  pairs.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { ids: pairs.map((p) => p[0]), values: pairs.map((p) => p[1]) };
}

/** Reviewer id → indices of the candidates it wrote; undefined when every candidate is its own author. */
function buildOwnership(
  candidates: readonly string[],
  authorOf: unknown,
  where: string,
): Map<string, number[]> | undefined {
  if (authorOf === undefined) return undefined;
  if (typeof authorOf !== 'object' || authorOf === null || Array.isArray(authorOf)) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: options.authorOf must be an object mapping each candidate id to its author's reviewer id.`,
    });
  }
  const owned = new Map<string, number[]>();
  candidates.forEach((candidate, i) => {
    const author = Object.hasOwn(authorOf, candidate) ? (authorOf as Record<string, unknown>)[candidate] : undefined;
    if (typeof author !== 'string') {
      throw new ScoringError({
        code: 'INVALID_OPTION',
        message: `${where}: options.authorOf has no author for candidate "${candidate}"; give every candidate its author's reviewer id.`,
      });
    }
    const list = owned.get(author);
    if (list) list.push(i);
    else owned.set(author, [i]);
  });
  return owned;
}

const NO_OWN: readonly number[] = [];

/**
 * Validates and cleans ballots the way ADR-007 and issue 3 prescribe: abstentions skipped; the ranking
 * (or, when it is empty, the ranking derived from finite scores); unknown candidates dropped; repeats
 * keep their first occurrence; self-votes removed before positions are counted. Calls `visit` once per
 * non-abstaining ballot, in input order, with a view whose arrays are reused: copy what you keep.
 */
export function forEachCleanedBallot(
  ballots: readonly Ballot[],
  options: CandidateOptions,
  { where, visit }: { where: string; visit: (ballot: PreparedBallot) => void },
): { candidates: readonly string[]; indexOf: ReadonlyMap<string, number> } {
  const indexOf = indexCandidates(options.candidates, where);
  const candidates = options.candidates;
  const excludeSelfVotes = options.excludeSelfVotes ?? true;
  if (typeof excludeSelfVotes !== 'boolean') {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: options.excludeSelfVotes must be true or false.`,
    });
  }
  const list: readonly Ballot[] = ballots; // Array.isArray would narrow `ballots` to any[]
  if (!Array.isArray(ballots)) {
    throw new ScoringError({
      code: 'INVALID_BALLOT',
      message: `${where}: ballots must be an array of { reviewer, ranking } objects.`,
    });
  }
  const owned = excludeSelfVotes ? buildOwnership(candidates, options.authorOf, where) : undefined;
  const n = candidates.length;
  const seenStamp = new Array<number>(n).fill(-1);
  const order: number[] = [];
  const tiedWithPrevious: boolean[] = [];
  const selfOnly = [0];
  // One view, updated per ballot: scoring 100,000 sessions should not mean 500,000 short-lived objects.
  const view: { -readonly [K in keyof PreparedBallot]: PreparedBallot[K] } = {
    index: 0,
    reviewer: '',
    weight: 1,
    order,
    tiedWithPrevious,
    eligible: 0,
    own: NO_OWN,
  };

  let totalWeight = 0;
  for (let index = 0; index < list.length; index++) {
    const ballot = list[index]!;
    const weight = validateBallot(ballot, index, where);
    if (ballot.abstained === true) continue;
    totalWeight += weight;
    if (totalWeight === Number.POSITIVE_INFINITY) {
      // Pairwise support and Bradley–Terry's win counts are sums of weights: they must stay finite.
      throw new ScoringError({
        code: 'INVALID_WEIGHT',
        message: `${where}: the weights up to ${describeBallot(index, ballot)} add up to more than the largest finite number; weights are relative, so scale them down (e.g. divide each by the largest).`,
      });
    }
    let own = NO_OWN;
    if (excludeSelfVotes) {
      if (owned !== undefined) own = owned.get(ballot.reviewer) ?? NO_OWN;
      else {
        const self = indexOf.get(ballot.reviewer);
        if (self !== undefined) {
          selfOnly[0] = self;
          own = selfOnly;
        }
      }
    }
    for (const c of own) seenStamp[c] = index; // the reviewer's own entries count as already used
    let ids: readonly string[] = ballot.ranking;
    let values: readonly number[] | undefined;
    if (ids.length === 0) ({ ids, values } = rankingFromScores(ballot.scores));
    order.length = 0;
    tiedWithPrevious.length = 0;
    let previousValue = NaN;
    for (let k = 0; k < ids.length; k++) {
      const c = indexOf.get(ids[k]!);
      if (c === undefined || seenStamp[c] === index) continue;
      seenStamp[c] = index;
      const value = values === undefined ? NaN : values[k]!;
      tiedWithPrevious.push(order.length > 0 && value === previousValue);
      previousValue = value;
      order.push(c);
    }
    view.index = index;
    view.reviewer = ballot.reviewer;
    view.weight = weight;
    view.eligible = n - own.length;
    view.own = own;
    visit(view);
  }
  return { candidates, indexOf };
}

/** {@link forEachCleanedBallot}, collected: every non-abstaining ballot, cleaned, with its own arrays. */
export function prepareBallots(ballots: readonly Ballot[], options: CandidateOptions, where: string): PreparedBallots {
  if (typeof options !== 'object' || options === null) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: pass an options object with at least { candidates }.`,
    });
  }
  const prepared: PreparedBallot[] = [];
  const { candidates, indexOf } = forEachCleanedBallot(ballots, options, {
    where,
    visit: (b) => {
      prepared.push({ ...b, order: [...b.order], tiedWithPrevious: [...b.tiedWithPrevious], own: [...b.own] });
    },
  });
  return { candidates, indexOf, ballots: prepared };
}

/** Candidate ids in the ballots (rankings and score keys), sorted; for methods whose candidates are optional. */
export function candidatesFromBallots(ballots: readonly Ballot[], where: string): string[] {
  if (!Array.isArray(ballots)) {
    throw new ScoringError({
      code: 'INVALID_BALLOT',
      message: `${where}: ballots must be an array of { reviewer, ranking } objects.`,
    });
  }
  const ids = new Set<string>();
  ballots.forEach((ballot: Ballot, index) => {
    validateBallot(ballot, index, where);
    if (ballot.abstained === true) return;
    for (const id of ballot.ranking) ids.add(id);
    if (ballot.ranking.length === 0) for (const id of rankingFromScores(ballot.scores).ids) ids.add(id);
  });
  if (ids.size === 0) {
    throw new ScoringError({
      code: 'EMPTY_CANDIDATES',
      message: `${where}: the ballots name no candidates; pass options.candidates or ballots that rank someone.`,
    });
  }
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
