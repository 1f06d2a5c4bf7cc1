import { BiasAuditError } from './bias-audit-error.js';
import { assertLevel } from './internal/assert.js';
import { normalCdf, normalQuantile } from './normal-distribution.js';
import { studentTQuantile } from './student-t-distribution.js';

/** One raw estimate to pool: a reviewer's offset, or a pair effect, with its standard error. */
export interface PoolingInput {
  subject: string;
  estimate: number;
  standardError: number;
  /** Degrees of freedom of its t (the interval uses t with these; normal without). */
  df?: number;
}

/** An estimate after partial pooling, beside the raw one. */
export interface PooledEffect {
  subject: string;
  /** The estimate as measured alone. */
  raw: number;
  standardError: number;
  /**
   * The share of the raw estimate kept: τ²/(τ² + se²) averaged over τ²'s posterior (1: the data speak alone; 0: all
   * prior).
   */
  shrinkage: number;
  /** The pooled (posterior mean) estimate: shrinkage × raw, the prior's mean being 0. */
  estimate: number;
  lower: number;
  upper: number;
}

export interface PartialPooling {
  /**
   * The prior every subject's true effect is drawn from: N(0, τ²), τ² learnt from all the subjects. `tau` is its most
   * likely value (maximum likelihood, which is also τ²'s posterior mode under the flat prior); the estimates and
   * intervals average over every τ² the data allow.
   */
  prior: {
    mean: 0;
    tau: number;
    tauSquared: number;
    subjects: number;
    method: 'maximum_likelihood';
    /** How τ²'s uncertainty enters the estimates: integrated over its posterior (flat prior on τ²), or not pooled (fewer than 3 subjects). */
    integration: 'flat_prior_on_tau_squared' | 'none_too_few_subjects';
    /** The variance of an error every estimate shares that the intervals also carry (`sharedVariance`; 0: none). */
    sharedVariance: number;
    statement: string;
  };
  level: number;
  effects: PooledEffect[];
}

const MAX_ITERATIONS = 200;
/** Points of the grid over log(τ² + c) on which τ²'s posterior is integrated (after a coarse pass finds its mass). */
const GRID = 240;
/** Log-density below the maximum beyond which grid points are dropped (e^−25 ≈ 1e−11 of the peak). */
const NEGLIGIBLE = 25;

/** τ²'s maximum likelihood estimate from the marginal y_i ~ N(0, τ² + v_i), by Fisher scoring (0 when the spread is all noise). */
function maximumLikelihoodTauSquared(y2: readonly number[], v: readonly number[]): number {
  const k = y2.length;
  let tau2 = k === 0 ? 0 : Math.max(0, y2.reduce((a, b, i) => a + b - v[i]!, 0) / k);
  for (let iteration = 0; iteration < MAX_ITERATIONS && k > 0; iteration++) {
    let score = 0;
    let information = 0;
    for (let i = 0; i < k; i++) {
      const w = 1 / (tau2 + v[i]!);
      score += w * w * (y2[i]! - tau2 - v[i]!);
      information += w * w;
    }
    const next = Math.max(0, tau2 + score / information);
    const done = Math.abs(next - tau2) <= 1e-14 * Math.max(1, tau2);
    tau2 = next;
    if (done) break;
  }
  return tau2;
}

/**
 * τ²'s posterior under a flat prior on τ² ≥ 0, on a grid: points A (τ² values) with normalised weights. The marginal
 * likelihood L(A) = Π (A + v_i)^−½·exp(−y_i²/(2(A + v_i))) falls as A^−k/2, so the posterior is proper from three
 * subjects. Integrated over x = log(A + c), c the smallest v_i (density L(A)·(A + c)), first coarsely over a wide
 * range, then finely (Simpson's rule) where the mass is.
 */
function tauSquaredPosterior(y2: readonly number[], v: readonly number[]): { A: number[]; weight: number[] } {
  const k = y2.length;
  const c = Math.min(...v);
  const logDensity = (x: number): number => {
    const A = Math.max(0, Math.exp(x) - c);
    let l = x;
    for (let i = 0; i < k; i++) l += -0.5 * Math.log(A + v[i]!) - (0.5 * y2[i]!) / (A + v[i]!);
    return l;
  };
  // The density's bulk lies within a few units of log(c + Σy²) on x; its tail falls as e^{−(k/2 − 1)x}.
  const top = Math.log(c + y2.reduce((a, b) => a + b, 0) + Math.max(...v)) + (2 * NEGLIGIBLE) / (k / 2 - 1);
  const bottom = Math.log(c);
  const coarse = Array.from({ length: GRID + 1 }, (_, g) => bottom + ((top - bottom) * g) / GRID);
  const coarseLog = coarse.map(logDensity);
  const peak = Math.max(...coarseLog);
  let first = coarseLog.findIndex((l) => l >= peak - NEGLIGIBLE);
  let last = coarseLog.length - 1 - [...coarseLog].reverse().findIndex((l) => l >= peak - NEGLIGIBLE);
  first = Math.max(0, first - 1);
  last = Math.min(GRID, last + 1);
  const lo = coarse[first]!;
  const hi = coarse[last]!;
  // Simpson's rule on GRID equal steps over [lo, hi] (GRID even).
  const xs = Array.from({ length: GRID + 1 }, (_, g) => lo + ((hi - lo) * g) / GRID);
  const logs = xs.map(logDensity);
  const max = Math.max(...logs);
  const A: number[] = [];
  const weight: number[] = [];
  let total = 0;
  xs.forEach((x, g) => {
    if (logs[g]! < max - NEGLIGIBLE) return;
    const w = (g === 0 || g === GRID ? 1 : g % 2 === 1 ? 4 : 2) * Math.exp(logs[g]! - max);
    A.push(Math.max(0, Math.exp(x) - c));
    weight.push(w);
    total += w;
  });
  return { A, weight: weight.map((w) => w / total) };
}

/**
 * The p-quantile of a mixture of normals (weights, means, SDs; an SD of 0 is a point): Newton steps on the mixture's
 * distribution function, kept inside a bracket between the components' own quantiles (bisection when a step leaves
 * it).
 */
function mixtureQuantile(
  p: number,
  { weight, mean, sd }: { weight: readonly number[]; mean: readonly number[]; sd: readonly number[] },
): number {
  const z = normalQuantile(p);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let x = 0;
  let spread = 0;
  for (let g = 0; g < weight.length; g++) {
    const q = mean[g]! + z * sd[g]!;
    lo = Math.min(lo, q);
    hi = Math.max(hi, q);
    x += weight[g]! * q;
    spread = Math.max(spread, sd[g]!);
  }
  const tolerance = 1e-10 * Math.max(spread, Math.abs(x), Number.MIN_VALUE);
  for (let iteration = 0; iteration < 100 && hi - lo > tolerance; iteration++) {
    let cdf = 0;
    let pdf = 0;
    for (let g = 0; g < weight.length; g++) {
      const s = sd[g]!;
      if (s > 0) {
        const u = (x - mean[g]!) / s;
        cdf += weight[g]! * normalCdf(u);
        pdf += (weight[g]! * Math.exp(-0.5 * u * u)) / (s * Math.sqrt(2 * Math.PI));
      } else if (x >= mean[g]!) cdf += weight[g]!;
    }
    if (cdf < p) lo = x;
    else hi = x;
    const step = pdf > 0 ? (p - cdf) / pdf : Number.NaN;
    const next = x + step;
    if (Number.isFinite(next) && next > lo && next < hi) {
      if (Math.abs(step) <= tolerance) return next;
      x = next;
    } else x = (lo + hi) / 2;
  }
  return x;
}

/**
 * Partial pooling of several estimates of one kind (the reviewers' offsets, or the reviewer → author pair effects)
 * toward 0, the typical reviewer. The model: each raw estimate y_i ~ N(θ_i, se_i²), and the true effects θ_i ~ N(0,
 * τ²). The prior's mean is 0 by what the effects are (offsets are measured from the typical reviewer, affinities from
 * none), so only τ² is learnt from the subjects. Given τ², θ_i's posterior is N(B_i·y_i, B_i·se_i²), B_i = τ²/(τ² +
 * se_i²): a reviewer seen in few sessions (large se) is pulled most; one measured precisely, hardly at all.
 *
 * τ² itself is uncertain, and with a handful of reviewers very much so: its maximum likelihood estimate is 0 in many
 * councils whose reviewers really differ by a little, and plugging it in pulls every estimate to 0 with an interval
 * too narrow (83% coverage where reviewers are graded −0.2…+0.2 at 20 sessions, against 95%; Kass and Steffey's
 * first-order correction, used before, was not enough with five). So τ² is integrated out: a flat prior on τ² ≥ 0
 * (Morris and Lysy 2012: the one of its family that is scale-invariant and conjugate, the hierarchical form of
 * Stein's harmonic prior; its posterior mean of the shrinkage 1 − B is Morris's (k − 2)·se²/Σy² with equal se), and
 * each θ_i's posterior is the mixture of those normals over τ²'s posterior (a grid on log τ²). The pooled estimate is
 * its mean (so `shrinkage` is B_i's posterior mean), the interval its equal-tailed quantiles, each component's spread
 * scaled by t/z quantiles on the estimate's df where it has one (so with nothing to pool the interval is exactly the
 * raw t interval). The prior's stated τ is the maximum likelihood one (τ²'s posterior mode). With fewer than three
 * subjects that posterior is improper (nothing can be learnt about a spread from two values), and nothing is pooled.
 *
 * `sharedVariance` (default 0) is the variance of an error every raw estimate shares beyond its own standard error:
 * for reviewer offsets, the part of the typical reviewer's (the robust centre's) error the raw intervals leave out
 * (`poolReviewerEffects` measures it). A shared error e shifts every y_i alike, so it moves no one's place in the
 * spread and τ² and the shrinkage stay as they are; it enters θ_i's posterior mean as B_i·e, so each component's
 * variance becomes B_i·se_i² + B_i²·sharedVariance and the interval widens by that much (the estimate does not move).
 * Adding a hyperparameter's uncertainty to empirical-Bayes intervals in this way is Kass and Steffey (1989)'s point;
 * here it is the centre's, not τ²'s (integrated out above). Estimates that are not pooled are left as measured.
 */
export function partialPool(
  inputs: readonly PoolingInput[],
  options: { level?: number; sharedVariance?: number } = {},
): PartialPooling {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  const shared = options.sharedVariance ?? 0;
  if (!(shared >= 0) || !Number.isFinite(shared))
    throw new BiasAuditError({
      code: 'INVALID_OPTION',
      message: `sharedVariance must be a finite number ≥ 0 (a variance in squared points), got ${shared}.`,
    });
  for (const input of inputs) {
    if (!Number.isFinite(input.estimate) || !(input.standardError > 0) || !Number.isFinite(input.standardError))
      throw new BiasAuditError({
        code: 'INVALID_INPUT',
        message: `${input.subject}: partial pooling needs a finite estimate and a positive standard error, got ${input.estimate} ± ${input.standardError}.`,
      });
  }
  const k = inputs.length;
  const v = inputs.map((i) => i.standardError ** 2);
  const y2 = inputs.map((i) => i.estimate ** 2);
  const tau2 = maximumLikelihoodTauSquared(y2, v);
  const pooled = k >= 3;
  const posterior = pooled ? tauSquaredPosterior(y2, v) : { A: [], weight: [] };
  const zLevel = normalQuantile(1 - (1 - level) / 2);
  const effects = inputs.map((input, i): PooledEffect => {
    const q =
      input.df !== undefined && Number.isFinite(input.df) && input.df > 0
        ? studentTQuantile(1 - (1 - level) / 2, input.df)
        : zLevel;
    const se = input.standardError;
    if (!pooled) {
      return {
        subject: input.subject,
        raw: input.estimate,
        standardError: se,
        shrinkage: 1,
        estimate: input.estimate,
        lower: input.estimate - q * se,
        upper: input.estimate + q * se,
      };
    }
    const scale = q / zLevel;
    const share = posterior.A.map((A) => A / (A + v[i]!));
    const means = share.map((b) => b * input.estimate);
    const sds = share.map((b) => scale * Math.sqrt(b * v[i]! + b * b * shared));
    const shrinkage = share.reduce((total, b, g) => total + posterior.weight[g]! * b, 0);
    return {
      subject: input.subject,
      raw: input.estimate,
      standardError: se,
      shrinkage,
      estimate: shrinkage * input.estimate,
      lower: mixtureQuantile((1 - level) / 2, { weight: posterior.weight, mean: means, sd: sds }),
      upper: mixtureQuantile(1 - (1 - level) / 2, { weight: posterior.weight, mean: means, sd: sds }),
    };
  });
  const tau = Math.sqrt(tau2);
  return {
    prior: {
      mean: 0,
      tau,
      tauSquared: tau2,
      subjects: k,
      method: 'maximum_likelihood',
      integration: pooled ? 'flat_prior_on_tau_squared' : 'none_too_few_subjects',
      sharedVariance: pooled ? shared : 0,
      statement: pooled
        ? `Each true effect is drawn from N(0, τ²) around 0 (the typical reviewer), its spread most likely τ = ${tau.toFixed(3)} points from these ${k} estimates (maximum likelihood); the pooled estimates and intervals average over every spread the estimates allow, weighted by its likelihood (empirical Bayes with τ² integrated out under a flat prior), and an estimate keeps the share τ²/(τ² + se²) of its raw value.${Math.sqrt(shared) >= 0.0005 ? ` Each interval also carries an error all the estimates share (SD ${Math.sqrt(shared).toFixed(3)} points: for reviewer offsets, the typical reviewer's own beyond what the raw intervals count), times the share it keeps.` : ''}`
        : `Not pooled: ${k} estimate${k === 1 ? '' : 's'} cannot show how much the true effects spread (it takes 3), so each is reported as measured.`,
    },
    level,
    effects,
  };
}
