import { BiasAuditError } from './bias-audit-error.js';
import { assertLevel } from './internal/assert.js';
import { normalQuantile } from './normal-distribution.js';
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
  /** τ² / (τ² + se²): the share of the raw estimate kept (1: the data speak alone; 0: all prior). */
  shrinkage: number;
  /** The pooled (posterior mean) estimate: shrinkage × raw, the prior's mean being 0. */
  estimate: number;
  lower: number;
  upper: number;
}

export interface PartialPooling {
  /** The prior every subject's true effect is drawn from: N(0, τ²), τ estimated from all the subjects (empirical Bayes). */
  prior: {
    mean: 0;
    tau: number;
    tauSquared: number;
    subjects: number;
    method: 'maximum_likelihood';
    statement: string;
  };
  level: number;
  effects: PooledEffect[];
}

const MAX_ITERATIONS = 200;

/**
 * Partial pooling of several estimates of one kind (the reviewers' offsets, or the reviewer → author pair effects)
 * toward 0, the typical reviewer, by empirical Bayes. The model: each raw estimate y_i ~ N(θ_i, se_i²), and the true
 * effects θ_i ~ N(0, τ²). The prior's mean is 0 by what the effects are (offsets are measured from the typical
 * reviewer, affinities from none), so only τ² is estimated: by maximum likelihood of the y_i's marginal N(0, τ² +
 * se_i²) (REML is the same here: with a known mean there is nothing else to estimate), solved by Fisher scoring,
 * τ̂² = max(0, root of Σ (y_i² − τ² − se_i²)/(τ² + se_i²)² = 0). Each estimate keeps the share B_i = τ̂²/(τ̂² + se_i²)
 * of its raw value: θ̂_i = B_i·y_i. A reviewer seen in few sessions (large se) is pulled most; one measured
 * precisely, hardly at all.
 *
 * Interval: θ̂_i ± q·√(B_i·se_i² + y_i²·(∂B_i/∂τ²)²·Var(τ̂²)), with Var(τ̂²) = 2/Σ(τ̂² + se_j²)⁻² from the Fisher
 * information (Kass and Steffey's first-order correction for estimating τ²: without it, a council of five reviewers
 * gives intervals too narrow), and q the t quantile on the estimate's df (normal without df). At τ̂² = 0 every
 * estimate is pooled to 0 and the correction alone gives the interval its width.
 */
export function partialPool(inputs: readonly PoolingInput[], options: { level?: number } = {}): PartialPooling {
  const level = options.level ?? 0.95;
  assertLevel(level, 'level');
  for (const input of inputs) {
    if (!Number.isFinite(input.estimate) || !(input.standardError > 0) || !Number.isFinite(input.standardError))
      throw new BiasAuditError({
        code: 'INVALID_INPUT',
        message: `${input.subject}: partial pooling needs a finite estimate and a positive standard error, got ${input.estimate} ± ${input.standardError}.`,
      });
  }
  const v = inputs.map((i) => i.standardError ** 2);
  const y2 = inputs.map((i) => i.estimate ** 2);
  // Start from the moments (mean of y² − se²) and take Fisher-scoring steps on the marginal likelihood.
  let tau2 = inputs.length === 0 ? 0 : Math.max(0, y2.reduce((a, b, i) => a + b - v[i]!, 0) / inputs.length);
  for (let iteration = 0; iteration < MAX_ITERATIONS && inputs.length > 0; iteration++) {
    let score = 0;
    let information = 0;
    for (let i = 0; i < inputs.length; i++) {
      const w = 1 / (tau2 + v[i]!);
      score += w * w * (y2[i]! - tau2 - v[i]!);
      information += w * w;
    }
    const next = Math.max(0, tau2 + score / information);
    const done = Math.abs(next - tau2) <= 1e-14 * Math.max(1, tau2);
    tau2 = next;
    if (done) break;
  }
  let information = 0;
  for (const vi of v) information += 1 / (tau2 + vi) ** 2;
  const tauVariance = inputs.length === 0 ? 0 : 2 / information;
  const effects = inputs.map((input, i): PooledEffect => {
    const vi = v[i]!;
    const shrinkage = tau2 / (tau2 + vi);
    const estimate = shrinkage * input.estimate;
    const slope = vi / (tau2 + vi) ** 2;
    const variance = shrinkage * vi + y2[i]! * slope * slope * tauVariance;
    const q =
      input.df !== undefined && Number.isFinite(input.df) && input.df > 0
        ? studentTQuantile(1 - (1 - level) / 2, input.df)
        : normalQuantile(1 - (1 - level) / 2);
    const half = q * Math.sqrt(variance);
    return {
      subject: input.subject,
      raw: input.estimate,
      standardError: input.standardError,
      shrinkage,
      estimate,
      lower: estimate - half,
      upper: estimate + half,
    };
  });
  const tau = Math.sqrt(tau2);
  return {
    prior: {
      mean: 0,
      tau,
      tauSquared: tau2,
      subjects: inputs.length,
      method: 'maximum_likelihood',
      statement: `Each true effect is drawn from N(0, ${tau.toFixed(3)}²): centred on 0 (the typical reviewer), its spread τ = ${tau.toFixed(3)} points estimated from these ${inputs.length} estimates by maximum likelihood (empirical Bayes); an estimate keeps the share τ²/(τ² + se²) of its raw value.`,
    },
    level,
    effects,
  };
}
