import { createRng } from './create-rng.js';
import { quantileSorted } from './quantile.js';
import { ScoringError } from './scoring-error.js';

/** One session's answers (each with its style features) and the reviewers' rankings of them. */
export interface StyledSession {
  /** The session's id: the bootstrap resamples sessions. */
  id: string;
  /** Per candidate: its answer's features, in `featureNames` order (e.g. log length, words per sentence…). */
  answers: Readonly<Record<string, readonly number[]>>;
  /** Each reviewer's ranking, best first; a reviewer that is also a candidate never counts its own answer. */
  ballots: readonly { reviewer: string; ranking: readonly string[] }[];
}

export interface StyleControlledOptions {
  /** Names of the features, one per entry of each answer's array. */
  featureNames: readonly string[];
  /** Bootstrap replicates over sessions. Default 1000; 0 gives no intervals. */
  bootstrap?: number;
  seed?: number | string;
  /** Elo points per factor of 10 in odds. Default 400. */
  scale?: number;
  /** The mean rating. Default 1000. */
  base?: number;
  /**
   * Every pair of candidates gets a virtual tie of this weight (half a win each way, no style difference), as
   * `bradleyTerry`'s prior: keeps ratings finite for a candidate that never loses. Default 1; 0 for the plain
   * maximum-likelihood fit (which then needs every candidate to win and lose).
   */
  prior?: number;
  /** Put each feature in units of its SD over the answers (coefficients per SD). Default true. */
  standardize?: boolean;
}

export interface RatedCandidate {
  candidate: string;
  rating: number;
  interval: { lower: number; upper: number } | null;
  rank: number;
}

export interface StyleCoefficient {
  feature: string;
  /** Log-odds of winning per unit (per SD when standardised) of the feature's difference between two answers. */
  coefficient: number;
  interval: { lower: number; upper: number } | null;
}

export interface StyleControlledRatings {
  /** Bradley–Terry on the same pairs, without covariates. */
  plain: RatedCandidate[];
  /** With the style features as covariates: what each candidate's answers win beyond their style. */
  styleControlled: RatedCandidate[];
  coefficients: StyleCoefficient[];
  /** Pairwise outcomes used (winner, loser, same session). */
  comparisons: number;
  sessions: number;
  bootstrap: number;
  /** Newton iterations of the full style-controlled fit (each converged to a step below 1e-10). */
  iterations: number;
}

interface Pair {
  session: number;
  winner: number;
  loser: number;
  /** Winner's features less the loser's. */
  difference: Float64Array;
  /** How many of the session's ballots gave this outcome: identical rows, fitted as one row of this weight. */
  count: number;
}

const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-10;

/**
 * Fits logit P(w beats l) = β_w − β_l + γ·(x_w − x_l) by Newton's method on the log-likelihood (concave, so it
 * converges from any start; a step that lowers the likelihood is halved), β of the last candidate fixed at 0 and
 * the rest centred after. Each row counts `count` times, times its session's entry of `weights` (bootstrap
 * multiplicities) where given. Returns [β…, γ…] and the iterations.
 *
 * One pass over the rows gives the log-likelihood at a point together with its gradient and information there: the
 * pass that checks a step's likelihood also prepares the next step, so an iteration reads the rows once, not twice
 * (a bootstrap replicate converges in three iterations; this is most of `bias-report --calibrated`'s time).
 */
function fitLogit(spec: {
  pairs: readonly Pair[];
  n: number;
  p: number;
  prior: number;
  weights: Float64Array | null;
  start: Float64Array | null;
}): { theta: Float64Array; iterations: number } {
  const { pairs, n, p, prior, weights } = spec;
  const k = n - 1 + p; // free parameters: β_0 … β_{n−2}, γ_0 … γ_{p−1}
  const theta = spec.start === null ? new Float64Array(n + p) : Float64Array.from(spec.start);
  const index = new Int32Array(2 + p);
  const value = new Float64Array(2 + p);
  const gradient = new Float64Array(k);
  const hessian = new Float64Array(k * k);
  // Parameter i of β is column i (−1 for the last candidate, fixed at 0); γ_f is column n − 1 + f.
  const column = (candidate: number): number => (candidate === n - 1 ? -1 : candidate);
  /** Adds a row of weight w and linear predictor η (its design in `index`/`value`): returns its log-likelihood. */
  const add = (w: number, entries: number, eta: number): number => {
    const e = Math.exp(-eta);
    const s = 1 / (1 + e);
    const r = w * (1 - s);
    const c = w * s * (1 - s);
    for (let a = 0; a < entries; a++) {
      const ia = index[a]!;
      if (ia < 0) continue;
      gradient[ia]! += r * value[a]!;
      for (let b = 0; b < entries; b++) {
        const ib = index[b]!;
        if (ib >= 0) hessian[ia * k + ib]! += c * value[a]! * value[b]!;
      }
    }
    return -w * (eta > 0 ? Math.log1p(e) : -eta + Math.log1p(Math.exp(eta)));
  };
  /** The log-likelihood at t; `gradient` and `hessian` are left holding its gradient and information at t. */
  const evaluate = (t: Float64Array): number => {
    gradient.fill(0);
    hessian.fill(0);
    let total = 0;
    for (const pair of pairs) {
      const w = pair.count * (weights === null ? 1 : weights[pair.session]!);
      if (w === 0) continue;
      let eta = t[pair.winner]! - t[pair.loser]!;
      index[0] = column(pair.winner);
      value[0] = 1;
      index[1] = column(pair.loser);
      value[1] = -1;
      for (let f = 0; f < p; f++) {
        eta += t[n + f]! * pair.difference[f]!;
        index[2 + f] = n - 1 + f;
        value[2 + f] = pair.difference[f]!;
      }
      total += add(w, 2 + p, eta);
    }
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        index[0] = column(i);
        value[0] = 1;
        index[1] = column(j);
        value[1] = -1;
        total += add(prior / 2, 2, t[i]! - t[j]!);
        index[0] = column(j);
        index[1] = column(i);
        total += add(prior / 2, 2, t[j]! - t[i]!);
      }
    return total;
  };
  let current = evaluate(theta);
  for (let iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
    const step = solve(hessian, gradient, k);
    if (step === null)
      throw new ScoringError({
        code: 'INSUFFICIENT_DATA',
        message:
          'styleControlledBradleyTerry: the comparisons do not determine the ratings (a candidate never compared, or a style feature that never differs between compared answers); give options.prior > 0 or leave the feature out.',
      });
    let scaleBy = 1;
    let next = new Float64Array(theta.length);
    let nextLikelihood = Number.NEGATIVE_INFINITY;
    for (let halvings = 0; halvings < 30; halvings++) {
      next = Float64Array.from(theta);
      for (let a = 0; a < k; a++) next[a < n - 1 ? a : a + 1]! += scaleBy * step[a]!;
      nextLikelihood = evaluate(next);
      if (nextLikelihood >= current - 1e-12 * Math.abs(current)) break;
      scaleBy /= 2;
    }
    let change = 0;
    for (let a = 0; a < theta.length; a++) change = Math.max(change, Math.abs(next[a]! - theta[a]!));
    theta.set(next);
    current = nextLikelihood;
    if (change < TOLERANCE) return { theta, iterations: iteration };
  }
  return { theta, iterations: MAX_ITERATIONS };
}

/** Solves H·x = g for the information matrix H (symmetric positive definite) by Cholesky; null when singular. */
function solve(h: Float64Array, g: Float64Array, k: number): Float64Array | null {
  const l = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = h[i * k + j]!;
      for (let m = 0; m < j; m++) sum -= l[i * k + m]! * l[j * k + m]!;
      if (i === j) {
        if (!(sum > 1e-12 * Math.max(1, h[i * k + i]!))) return null;
        l[i * k + i] = Math.sqrt(sum);
      } else l[i * k + j] = sum / l[j * k + j]!;
    }
  }
  const y = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let sum = g[i]!;
    for (let m = 0; m < i; m++) sum -= l[i * k + m]! * y[m]!;
    y[i] = sum / l[i * k + i]!;
  }
  const x = new Float64Array(k);
  for (let i = k - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let m = i + 1; m < k; m++) sum -= l[m * k + i]! * x[m]!;
    x[i] = sum / l[i * k + i]!;
  }
  return x;
}

/**
 * Style-controlled Bradley–Terry ratings from peer ballots (issue 31 item 5), as Chatbot Arena controls its human
 * votes for style: every reviewer's ranking in a session gives a win to each answer over each one ranked below it
 * (its own answer left out), and the probability that w beats l is modelled as logistic in β_w − β_l +
 * γ·(x_w − x_l), x the answers' style features (each standardised over the answers unless `standardize: false`).
 * β is what a candidate's answers win beyond their style; γ is what a unit of each feature wins by itself. The
 * plain rating is the same fit without features (the same pairs, the same prior: equal to `bradleyTerry`'s ratings
 * on these ballots). Fitted by Newton's method (exact to 1e-10 in the parameters, deterministic), ratings on the
 * Elo scale (base + scale·β/ln 10, β centred), percentile bootstrap intervals over sessions (each replicate refitted
 * from the full fit).
 */
export function styleControlledBradleyTerry(
  sessions: readonly StyledSession[],
  options: StyleControlledOptions,
): StyleControlledRatings {
  const where = 'styleControlledBradleyTerry';
  const featureNames = [...options.featureNames];
  const p = featureNames.length;
  const bootstrap = options.bootstrap ?? 1000;
  const scale = options.scale ?? 400;
  const base = options.base ?? 1000;
  const prior = options.prior ?? 1;
  if (!Number.isInteger(bootstrap) || bootstrap < 0 || !(scale > 0) || !Number.isFinite(base) || !(prior >= 0))
    throw new ScoringError({
      code: 'INVALID_OPTION',
      message: `${where}: bootstrap must be a whole number ≥ 0, scale > 0, base finite and prior ≥ 0; got ${bootstrap}, ${scale}, ${base}, ${prior}.`,
    });
  const candidates = [...new Set(sessions.flatMap((s) => Object.keys(s.answers)))].sort();
  const n = candidates.length;
  if (n < 2)
    throw new ScoringError({ code: 'EMPTY_CANDIDATES', message: `${where}: needs answers from 2 candidates or more.` });
  const indexOf = new Map(candidates.map((c, i) => [c, i]));
  // Standardise each feature over all answers.
  const mean = new Float64Array(p);
  const sd = new Float64Array(p).fill(1);
  const all = sessions.flatMap((s) => Object.values(s.answers));
  for (const features of all)
    if (features.length !== p || features.some((x) => !Number.isFinite(x)))
      throw new ScoringError({
        code: 'INVALID_SESSION',
        message: `${where}: every answer needs ${p} finite features (${featureNames.join(', ')}), got [${features.join(', ')}].`,
      });
  if (options.standardize !== false && all.length > 1) {
    for (let f = 0; f < p; f++) {
      let m = 0;
      for (const features of all) m += features[f]! / all.length;
      let ss = 0;
      for (const features of all) ss += (features[f]! - m) ** 2;
      mean[f] = m;
      sd[f] = Math.sqrt(ss / (all.length - 1)) || 1;
    }
  }
  // A session's ballots often agree: the same winner over the same loser, with the same feature difference (the
  // features are the answers'). Such rows are kept once with their count, which gives the same likelihood — so the
  // same estimates — with a fraction of the rows (the bootstrap refits all of them 1,000 times).
  const pairs: Pair[] = [];
  let comparisons = 0;
  sessions.forEach((session, s) => {
    const rowOf = new Map<number, Pair>();
    for (const ballot of session.ballots) {
      const ranked = ballot.ranking.filter((c) => c !== ballot.reviewer && session.answers[c] !== undefined);
      for (let a = 0; a < ranked.length; a++)
        for (let b = a + 1; b < ranked.length; b++) {
          comparisons++;
          const winner = indexOf.get(ranked[a]!)!;
          const loser = indexOf.get(ranked[b]!)!;
          const seen = rowOf.get(winner * n + loser);
          if (seen !== undefined) {
            seen.count++;
            continue;
          }
          const x = session.answers[ranked[a]!]!;
          const y = session.answers[ranked[b]!]!;
          const difference = new Float64Array(p);
          for (let f = 0; f < p; f++) difference[f] = (x[f]! - y[f]!) / sd[f]!;
          const pair = { session: s, winner, loser, difference, count: 1 };
          rowOf.set(winner * n + loser, pair);
          pairs.push(pair);
        }
    }
  });
  // Without features a row is only (winner, loser): the plain fit takes one row per ordered pair of candidates, its
  // count the (bootstrap-weighted) number of such wins over all sessions — n(n − 1) rows at most, however many sessions.
  const noDifference = new Float64Array(0);
  const plainPairsOf = (weights: Float64Array | null): Pair[] => {
    const wins = new Float64Array(n * n);
    for (const pair of pairs)
      wins[pair.winner * n + pair.loser]! += pair.count * (weights === null ? 1 : weights[pair.session]!);
    const rows: Pair[] = [];
    for (let i = 0; i < n * n; i++)
      if (wins[i]! > 0)
        rows.push({ session: 0, winner: Math.floor(i / n), loser: i % n, difference: noDifference, count: wins[i]! });
    return rows;
  };
  const plainFit = fitLogit({ pairs: plainPairsOf(null), n, p: 0, prior, weights: null, start: null });
  const styleFit = fitLogit({ pairs, n, p, prior, weights: null, start: null });

  const ratingsOf = (theta: Float64Array): Float64Array => {
    let centre = 0;
    for (let i = 0; i < n; i++) centre += theta[i]! / n;
    return Float64Array.from({ length: n }, (_, i) => base + (scale * (theta[i]! - centre)) / Math.LN10);
  };
  const plainRatings = ratingsOf(plainFit.theta);
  const styleRatings = ratingsOf(styleFit.theta);
  const S = sessions.length;
  const B = S >= 2 ? bootstrap : 0;
  const plainReplicates = Array.from({ length: n }, () => new Float64Array(B));
  const styleReplicates = Array.from({ length: n + p }, () => new Float64Array(B));
  const rng = createRng(options.seed ?? 0);
  const weights = new Float64Array(S);
  for (let b = 0; b < B; b++) {
    weights.fill(0);
    for (let j = 0; j < S; j++) weights[rng.nextInt(S)]! += 1;
    const plain = ratingsOf(
      fitLogit({ pairs: plainPairsOf(weights), n, p: 0, prior, weights: null, start: plainFit.theta }).theta,
    );
    const styled = fitLogit({ pairs, n, p, prior, weights, start: styleFit.theta }).theta;
    const styledRatings = ratingsOf(styled);
    for (let i = 0; i < n; i++) {
      plainReplicates[i]![b] = plain[i]!;
      styleReplicates[i]![b] = styledRatings[i]!;
    }
    for (let f = 0; f < p; f++) styleReplicates[n + f]![b] = styled[n + f]!;
  }
  const intervalOf = (values: Float64Array): { lower: number; upper: number } | null => {
    if (values.length === 0) return null;
    const sorted = Float64Array.from(values).sort();
    return { lower: quantileSorted(sorted, 0.025), upper: quantileSorted(sorted, 0.975) };
  };
  const rated = (ratings: Float64Array, replicates: Float64Array[]): RatedCandidate[] => {
    const order = candidates.map((_, i) => i).sort((a, b) => ratings[b]! - ratings[a]! || a - b);
    const list: RatedCandidate[] = [];
    order.forEach((i, position) => {
      const previous = list[position - 1];
      // Ratings within 1e-6 points share a rank (far above the fit's error, far below any real difference).
      const rank =
        previous !== undefined && Math.abs(previous.rating - ratings[i]!) < 1e-6 ? previous.rank : position + 1;
      list.push({ candidate: candidates[i]!, rating: ratings[i]!, interval: intervalOf(replicates[i]!), rank });
    });
    return list;
  };
  return {
    plain: rated(plainRatings, plainReplicates),
    styleControlled: rated(styleRatings, styleReplicates),
    coefficients: featureNames.map((feature, f) => ({
      feature,
      coefficient: styleFit.theta[n + f]!,
      interval: intervalOf(styleReplicates[n + f]!),
    })),
    comparisons,
    sessions: S,
    bootstrap: B,
    iterations: styleFit.iterations,
  };
}
