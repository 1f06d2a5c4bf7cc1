import type { Ballot, CandidateOptions } from './ballot.js';
import { readBootstrapOptions } from './bootstrap-options.js';
import { createGroupResampler } from './create-group-resampler.js';
import { createRng } from './create-rng.js';
import { forEachRankedPair } from './pairwise-preferences.js';
import { prepareBallots } from './prepare-ballots.js';
import { quantileSorted } from './quantile.js';
import { ScoringError } from './scoring-error.js';

/** Options of {@link bradleyTerry}. */
export interface BradleyTerryOptions extends CandidateOptions {
  /** Bootstrap replicates (resampling ballots). Default 1000; 0 gives a zero-width interval and P(best) from the fit alone. */
  bootstrap?: number;
  /** Seed of the resampling. Default 0. */
  seed?: number | string;
  /** Elo points per factor of 10 in odds. Default 400. */
  scale?: number;
  /** The mean rating. Default 1000. */
  base?: number;
  /**
   * Regularisation: every pair of candidates gets a virtual tie of this weight (half a win each way).
   * Keeps ratings finite for candidates that never lose or never win and makes the fit unique. Default 1; must be > 0.
   */
  prior?: number;
}

/** One candidate's Bradley–Terry rating. */
export interface BradleyTerryEntry {
  candidate: string;
  /** Elo-scale rating: `base + scale · log10(strength / geometric mean of strengths)`. */
  rating: number;
  /** 95% percentile bootstrap interval of the rating. */
  interval: { lower: number; upper: number };
  /** Share of bootstrap replicates in which this candidate has the top rating (ties split). */
  pBest: number;
  /** Competition rank by rating (ratings within 1e-6 share a rank). */
  rank: number;
  /**
   * Rank interval from the bootstrap intervals, as Chatbot Arena reports it:
   * `best = 1 + #{j : lower_j > upper_i}`, `worst = n − #{j : upper_j < lower_i}`.
   */
  rankInterval: { best: number; worst: number };
  /** Weighted number of real (not virtual) pairwise comparisons the candidate took part in. */
  comparisons: number;
}

const MAX_ITERATIONS = 10000;
const TOLERANCE = 1e-13;
/** Ratings this close (in rating points) are equal: far above the fit's convergence error, far below any real difference. */
const RATING_EPSILON = 1e-6;

/**
 * Fits strengths by Hunter's (2004) MM algorithm to the matrix `wins` (n × n, row-major: wins of i
 * over j), starting from `start` and normalised to geometric mean 1. Every off-diagonal cell must be
 * positive (the prior sees to it), so the fit exists and is unique. Internal.
 */
export function fitBradleyTerry(wins: Float64Array, n: number, start?: Float64Array): Float64Array {
  const p = start ? Float64Array.from(start) : new Float64Array(n).fill(1);
  const totalWins = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) totalWins[i]! += wins[i * n + j]!;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      let denominator = 0;
      const pi = p[i]!;
      for (let j = 0; j < n; j++) {
        if (j !== i) denominator += (wins[i * n + j]! + wins[j * n + i]!) / (pi + p[j]!);
      }
      const next = totalWins[i]! / denominator;
      change = Math.max(change, Math.abs(next / pi - 1));
      p[i] = next;
    }
    let logSum = 0;
    for (let i = 0; i < n; i++) logSum += Math.log(p[i]!);
    const norm = Math.exp(logSum / n);
    for (let i = 0; i < n; i++) p[i] = p[i]! / norm;
    if (change < TOLERANCE) break;
  }
  return p;
}

function readNumber(option: { value: number | undefined; fallback: number; name: string; positive: boolean }): number {
  const v = option.value ?? option.fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || (option.positive && v <= 0)) {
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `bradleyTerry: options.${option.name} must be a finite number${option.positive ? ' > 0' : ''} (default ${option.fallback}), got ${String(v)}.`,
    });
  }
  return v;
}

/**
 * Bradley–Terry ratings from the pairwise outcomes implied by each ballot's cleaned ranking (every pair
 * of ranked candidates; a tie — equal scores in a ranking derived from scores — counts half to each),
 * weighted by ballot weight. Returns per candidate an Elo-scale rating, a seeded 95% bootstrap interval
 * (resampling ballots), P(best) and a rank interval; sorted by rating, then candidate id.
 */
export function bradleyTerry(ballots: readonly Ballot[], options: BradleyTerryOptions): BradleyTerryEntry[] {
  const where = 'bradleyTerry';
  const { candidates, ballots: prepared } = prepareBallots(ballots, options, where);
  const { bootstrap, seed } = readBootstrapOptions(options, where);
  const scale = readNumber({ value: options.scale, fallback: 400, name: 'scale', positive: true });
  const base = readNumber({ value: options.base, fallback: 1000, name: 'base', positive: false });
  const prior = readNumber({ value: options.prior, fallback: 1, name: 'prior', positive: true });
  const n = candidates.length;

  // Each contributing ballot's outcomes as (cell = winner · n + loser, amount) pairs. Ballots with the
  // same outcomes form one group (pairwise battles among n candidates have at most n(n − 1) kinds), so
  // the bootstrap can resample groups instead of ballots.
  const groupOf = new Map<string, number>();
  const groupCells: number[][] = [];
  const groupAmounts: number[][] = [];
  const groupSizes: number[] = [];
  for (const ballot of prepared) {
    if (ballot.weight === 0 || ballot.order.length < 2) continue;
    const w = ballot.weight;
    const cells: number[] = [];
    const amounts: number[] = [];
    forEachRankedPair(ballot, (first, second, tie) => {
      if (tie) {
        cells.push(first * n + second, second * n + first);
        amounts.push(w / 2, w / 2);
      } else {
        cells.push(first * n + second);
        amounts.push(w);
      }
    });
    const key = `${cells.join(',')}|${amounts.join(',')}`;
    const group = groupOf.get(key);
    if (group !== undefined) groupSizes[group]!++;
    else {
      groupOf.set(key, groupSizes.length);
      groupCells.push(cells);
      groupAmounts.push(amounts);
      groupSizes.push(1);
    }
  }
  const groupCount = groupSizes.length;

  const priorMatrix = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) priorMatrix[i * n + j] = prior / 2;
  const observed = new Float64Array(n * n);
  const addGroup = (matrix: Float64Array, group: number, times: number): void => {
    const cells = groupCells[group]!;
    const amounts = groupAmounts[group]!;
    for (let k = 0; k < cells.length; k++) matrix[cells[k]!]! += times * amounts[k]!;
  };
  for (let group = 0; group < groupCount; group++) addGroup(observed, group, groupSizes[group]!);
  const wins = Float64Array.from(priorMatrix);
  for (let k = 0; k < n * n; k++) wins[k]! += observed[k]!;

  for (let i = 0; i < n; i++) {
    let row = 0;
    for (let j = 0; j < n; j++) row += wins[i * n + j]! + wins[j * n + i]!;
    if (!Number.isFinite(row)) {
      throw new ScoringError({
        code: 'INVALID_WEIGHT',
        message: `${where}: the weighted comparisons of candidate "${candidates[i]!}" (ballot weights plus options.prior) add up to more than the largest finite number; weights are relative, so scale them down.`,
      });
    }
  }
  const toRating = (strength: number): number => base + scale * Math.log10(strength);
  const strengths = fitBradleyTerry(wins, n);
  const ratings = Array.from(strengths, toRating);

  const replicates = Array.from({ length: n }, () => new Float64Array(bootstrap));
  const bestShare = new Float64Array(n);
  if (bootstrap > 0 && groupCount > 0) {
    const rng = createRng(seed);
    const resample = createGroupResampler(groupSizes);
    const multiplicity = new Int32Array(groupCount);
    const resampled = new Float64Array(n * n);
    for (let b = 0; b < bootstrap; b++) {
      resample(rng, multiplicity);
      resampled.set(priorMatrix);
      for (let group = 0; group < groupCount; group++)
        if (multiplicity[group]! > 0) addGroup(resampled, group, multiplicity[group]!);
      const fitted = fitBradleyTerry(resampled, n, strengths);
      let top = -Infinity;
      for (let i = 0; i < n; i++) {
        const r = toRating(fitted[i]!);
        replicates[i]![b] = r;
        if (r > top) top = r;
      }
      addBestShare(
        bestShare,
        replicates.map((row) => row[b]!),
        top,
      );
    }
  } else {
    // No resampling possible (or asked for): the fit is the only replicate.
    for (let i = 0; i < n; i++) replicates[i] = Float64Array.of(ratings[i]!);
    addBestShare(bestShare, ratings, Math.max(...ratings));
  }
  const replicateCount = replicates[0]!.length;

  const intervals = replicates.map((row) => {
    row.sort();
    return { lower: quantileSorted(row, 0.025), upper: quantileSorted(row, 0.975) };
  });
  const entries: BradleyTerryEntry[] = candidates.map((candidate, i) => {
    let comparisons = 0;
    for (let j = 0; j < n; j++) if (j !== i) comparisons += observed[i * n + j]! + observed[j * n + i]!;
    let above = 0;
    let below = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      if (intervals[j]!.lower > intervals[i]!.upper) above++;
      if (intervals[j]!.upper < intervals[i]!.lower) below++;
    }
    return {
      candidate,
      rating: ratings[i]!,
      interval: intervals[i]!,
      pBest: bestShare[i]! / replicateCount,
      rank: 0,
      rankInterval: { best: 1 + above, worst: n - below },
      comparisons,
    };
  });
  entries.sort((a, b) =>
    Math.abs(a.rating - b.rating) > RATING_EPSILON
      ? b.rating - a.rating
      : a.candidate < b.candidate
        ? -1
        : a.candidate > b.candidate
          ? 1
          : 0,
  );
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    entry.rank = previous === undefined || entry.rating < previous.rating - RATING_EPSILON ? i + 1 : previous.rank;
  });
  return entries;
}

function addBestShare(share: Float64Array, ratings: readonly number[], top: number): void {
  let tied = 0;
  for (const r of ratings) if (r >= top - RATING_EPSILON) tied++;
  for (let i = 0; i < ratings.length; i++) if (ratings[i]! >= top - RATING_EPSILON) share[i]! += 1 / tied;
}
