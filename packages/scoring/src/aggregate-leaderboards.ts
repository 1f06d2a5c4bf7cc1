import { readBootstrapOptions } from './bootstrap-options.js';
import { SCORE_EPSILON } from './calculate-borda-scores.js';
import type { LeaderboardEntry } from './calculate-borda-scores.js';
import { createRng } from './create-rng.js';
import type { Rng } from './create-rng.js';
import { quantileSorted } from './quantile.js';
import { createGroupResampler } from './create-group-resampler.js';
import { ScoringError } from './scoring-error.js';

/** A moment: a `Date`, milliseconds since the epoch, or an ISO-8601 string. */
export type Timestamp = Date | number | string;

/** One session's Borda leaderboard, as `calculateBordaScores` returned it (or as stored). */
export interface LeaderboardSession {
  /** Unique per session (ADR-007's `event_id`). */
  id: string;
  leaderboard: readonly Pick<LeaderboardEntry, 'candidate' | 'bordaScore' | 'voteCount' | 'winCount'>[];
  /** Required when `since` or `until` is given. */
  timestamp?: Timestamp;
  /** Grouping key for `byCategory`. */
  category?: string;
}

/** Options of {@link aggregateLeaderboards}. */
export interface AggregateLeaderboardOptions {
  /** Only sessions strictly after this moment (ADR-007's `timestamp > NOW() - INTERVAL`). */
  since?: Timestamp;
  /** Only sessions at or before this moment. */
  until?: Timestamp;
  /** Group by (category, candidate) instead of candidate. Default false. */
  byCategory?: boolean;
  /** Bootstrap replicates for the interval. Default 1000; 0 gives no interval. */
  bootstrap?: number;
  /** Seed of the resampling. Default 0. */
  seed?: number | string;
}

/** One candidate's (or one candidate-in-category's) line on the cross-query leaderboard. */
export interface AggregateLeaderboardEntry {
  candidate: string;
  /** The session category with `byCategory`; otherwise (or for sessions without one) null. */
  category: string | null;
  /** Mean of per-session `bordaScore` over the sessions where the candidate received votes (each counts once). */
  aggregateBorda: number;
  /** 95% percentile bootstrap interval of that mean, resampling sessions; null with no appearances or `bootstrap: 0`. */
  interval: { lower: number; upper: number } | null;
  totalVotes: number;
  totalWins: number;
  /** Sessions in which the candidate received at least one vote. */
  appearances: number;
  /** Competition rank within its category (or overall): equal means (within 1e-9) share a rank; no appearances rank last. */
  rank: number;
}

function toMillis(value: Timestamp, describe: () => string, code: 'INVALID_OPTION' | 'INVALID_SESSION'): number {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? value
        : typeof value === 'string'
          ? Date.parse(value)
          : NaN;
  if (!Number.isFinite(ms)) {
    throw new ScoringError({
      code,
      message: `${describe()} is not a valid moment (${String(value)}); pass a Date, milliseconds since the epoch or an ISO-8601 string.`,
    });
  }
  return ms;
}

function describeSession(index: number, session: unknown): string {
  const id = typeof session === 'object' && session !== null ? (session as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? `sessions[${index}] (id "${id}")` : `sessions[${index}]`;
}

function sessionError(where: string, at: { index: number; session: unknown }, message: string): never {
  throw new ScoringError({
    code: 'INVALID_SESSION',
    message: `${where}: ${describeSession(at.index, at.session)} ${message}`,
  });
}

interface Group {
  candidate: string;
  category: string | null;
  values: number[];
  totalVotes: number;
  totalWins: number;
}

/**
 * ADR-007's cross-query leaderboard as a function: per candidate (and category) the mean of the
 * per-session `bordaScore` (each session counts once), total votes, total wins, appearances, and a
 * seeded 95% bootstrap interval of the mean. A session in which a candidate received no vote (every
 * reviewer abstained, say) does not count toward its mean, so refusals never penalise a candidate.
 * Sorted by category (null last), then mean, wins and candidate id.
 */
export function aggregateLeaderboards(
  sessions: readonly LeaderboardSession[],
  options: AggregateLeaderboardOptions = {},
): AggregateLeaderboardEntry[] {
  const where = 'aggregateLeaderboards';
  const list: readonly LeaderboardSession[] = sessions; // Array.isArray would narrow `sessions` to any[]
  if (!Array.isArray(sessions)) {
    throw new ScoringError({
      code: 'INVALID_SESSION',
      message: `${where}: sessions must be an array of { id, leaderboard } objects.`,
    });
  }
  const { bootstrap, seed } = readBootstrapOptions(options, where);
  const since =
    options.since === undefined
      ? undefined
      : toMillis(options.since, () => `${where}: options.since`, 'INVALID_OPTION');
  const until =
    options.until === undefined
      ? undefined
      : toMillis(options.until, () => `${where}: options.until`, 'INVALID_OPTION');
  const byCategory = options.byCategory ?? false;

  const seenIds = new Map<string, number>();
  // category → candidate → group; `lastSession` catches a candidate listed twice in one leaderboard.
  const byKey = new Map<string | null, Map<string, Group & { lastSession: number }>>();
  const groups: Group[] = [];
  for (let s = 0; s < sessions.length; s++) {
    const session = list[s]!;
    if (typeof session !== 'object' || session === null)
      sessionError(where, { index: s, session }, 'is not an object; pass { id, leaderboard }.');
    if (typeof session.id !== 'string' || session.id === '')
      sessionError(where, { index: s, session }, 'has no id; give each session its unique id.');
    const earlier = seenIds.get(session.id);
    if (earlier !== undefined) {
      throw new ScoringError({
        code: 'DUPLICATE_SESSION',
        message: `${where}: ${describeSession(s, session)} repeats the id of sessions[${earlier}]; each session must be passed once.`,
      });
    }
    seenIds.set(session.id, s);
    const leaderboard: LeaderboardSession['leaderboard'] = session.leaderboard;
    if (!Array.isArray(session.leaderboard))
      sessionError(
        where,
        { index: s, session },
        'has no leaderboard array; pass the entries calculateBordaScores returned.',
      );
    if (session.category !== undefined && typeof session.category !== 'string')
      sessionError(where, { index: s, session }, 'has a category that is not a string.');
    if (since !== undefined || until !== undefined) {
      if (session.timestamp === undefined)
        sessionError(
          where,
          { index: s, session },
          'has no timestamp, which options.since/until need; add the session time.',
        );
      const t = toMillis(
        session.timestamp,
        () => `${where}: ${describeSession(s, session)} timestamp`,
        'INVALID_SESSION',
      );
      if ((since !== undefined && t <= since) || (until !== undefined && t > until)) continue;
    }
    const category = byCategory ? (session.category ?? null) : null;
    let inCategory = byKey.get(category);
    if (inCategory === undefined) {
      inCategory = new Map();
      byKey.set(category, inCategory);
    }
    for (let e = 0; e < leaderboard.length; e++) {
      const entry = leaderboard[e]!;
      if (
        typeof entry !== 'object' ||
        entry === null ||
        typeof entry.candidate !== 'string' ||
        entry.candidate === ''
      ) {
        sessionError(where, { index: s, session }, `leaderboard[${e}] has no candidate id.`);
      }
      const { candidate, bordaScore, voteCount, winCount } = entry;
      if (typeof bordaScore !== 'number' || !(bordaScore >= 0 && bordaScore <= 1)) {
        sessionError(
          where,
          { index: s, session },
          `leaderboard[${e}] ("${candidate}") has bordaScore ${String(bordaScore)}; it must lie in [0, 1].`,
        );
      }
      if (!Number.isSafeInteger(voteCount) || voteCount < 0) {
        sessionError(
          where,
          { index: s, session },
          `leaderboard[${e}] ("${candidate}") has voteCount ${String(voteCount)}; it must be a whole number ≥ 0.`,
        );
      }
      if (!Number.isSafeInteger(winCount) || winCount < 0 || winCount > voteCount) {
        sessionError(
          where,
          { index: s, session },
          `leaderboard[${e}] ("${candidate}") has winCount ${String(winCount)}; it must be a whole number from 0 to voteCount.`,
        );
      }
      let group = inCategory.get(candidate);
      if (group === undefined) {
        group = { candidate, category, values: [], totalVotes: 0, totalWins: 0, lastSession: -1 };
        inCategory.set(candidate, group);
        groups.push(group);
      } else if (group.lastSession === s) {
        throw new ScoringError({
          code: 'DUPLICATE_CANDIDATE',
          message: `${where}: ${describeSession(s, session)} lists candidate "${candidate}" twice (again at leaderboard[${e}]); a leaderboard has one entry per candidate.`,
        });
      }
      group.lastSession = s;
      if (voteCount > 0) group.values.push(bordaScore);
      group.totalVotes += voteCount;
      group.totalWins += winCount;
    }
  }

  const ordered = groups.sort(
    (a, b) =>
      compareCategory(a.category, b.category) || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0),
  );
  const rng = createRng(seed);
  const means = new Float64Array(bootstrap);
  const entries: AggregateLeaderboardEntry[] = ordered.map((group) => {
    const values = group.values;
    const count = values.length;
    let sum = 0;
    for (const v of values) sum += v;
    let interval: AggregateLeaderboardEntry['interval'] = null;
    if (count > 0 && bootstrap > 0) {
      bootstrapMeans(rng, values, means);
      means.sort();
      interval = { lower: quantileSorted(means, 0.025), upper: quantileSorted(means, 0.975) };
    }
    return {
      candidate: group.candidate,
      category: group.category,
      aggregateBorda: count > 0 ? sum / count : 0,
      interval,
      totalVotes: group.totalVotes,
      totalWins: group.totalWins,
      appearances: count,
      rank: 0,
    };
  });

  entries.sort(
    (a, b) =>
      compareCategory(a.category, b.category) ||
      (a.appearances > 0 ? 0 : 1) - (b.appearances > 0 ? 0 : 1) ||
      (Math.abs(a.aggregateBorda - b.aggregateBorda) > SCORE_EPSILON ? b.aggregateBorda - a.aggregateBorda : 0) ||
      b.totalWins - a.totalWins ||
      (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0),
  );
  let groupStart = 0;
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    if (previous === undefined || previous.category !== entry.category) {
      groupStart = i;
      entry.rank = 1;
      return;
    }
    const newRank =
      (previous.appearances > 0 && entry.appearances === 0) ||
      entry.aggregateBorda < previous.aggregateBorda - SCORE_EPSILON;
    entry.rank = newRank ? i - groupStart + 1 : previous.rank;
  });
  return entries;
}

function compareCategory(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * Fills `means` with bootstrap replicates of the mean of `values`, resampling sessions. Per-session
 * Borda scores take only a handful of distinct values, so sessions with equal scores are resampled as
 * one group (an exact multinomial draw; see createGroupResampler).
 */
function bootstrapMeans(rng: Rng, values: readonly number[], means: Float64Array): void {
  const tally = new Map<number, number>();
  for (const v of values) tally.set(v, (tally.get(v) ?? 0) + 1);
  const distinct = [...tally.keys()].sort((a, b) => a - b);
  const resample = createGroupResampler(distinct.map((v) => tally.get(v)!));
  const counts = new Int32Array(distinct.length);
  for (let b = 0; b < means.length; b++) {
    resample(rng, counts);
    let sum = 0;
    for (let g = 0; g < distinct.length; g++) sum += counts[g]! * distinct[g]!;
    means[b] = sum / values.length;
  }
}
