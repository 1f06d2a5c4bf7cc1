import type { ScoreModelEstimate, ScoreModelFit } from '../fit-score-model.js';
import { studentTTwoSided } from '../student-t-distribution.js';
import { criticalT } from './t-summary.js';
import { restrictedWildBootstrap, WILD_BOOTSTRAP_POINTS } from './restricted-wild-bootstrap.js';
import { tEstimate } from './t-estimate.js';

/** The within-session sums of the answers' lengths and adjusted levels (the fit's pass 2 adds each session's). */
export interface LengthSums {
  sessions: number;
  sxx: number;
  sxy: number;
  syy: number;
  answers: number;
  /**
   * Each session's within sums (sxx, sxy, syy), in turn, the first `3 · sessions` entries: the small-sample (CR2)
   * correction needs each session's share.
   */
  perSession: Float64Array;
}

export interface BetweenSums {
  n: number;
  sx: number;
  sy: number;
  sxx: number;
  /** Each session's (mean length, mean level), in turn, the first `2 · n` entries: the heteroskedasticity-robust error needs each. */
  points: Float64Array;
}

/**
 * A level's deviation from a mean, or 0 where it is rounding: adjusted levels are scores less fitted effects, so a
 * session whose answers all scored alike leaves deviations of ~1e-15 points, and a slope, correlation or p read from
 * them is noise. A billionth of a point (relative to the level's size) is no variation on any score scale.
 */
// assembly/score-kernels.ts has the same rule for the within-session sums (pass 2 runs there).
function settled(deviation: number, level: number): number {
  return Math.abs(deviation) <= 1e-9 * Math.max(1, Math.abs(level)) ? 0 : deviation;
}

/**
 * r = Sxy/√(Sxx·Syy) with each session's influence r·(sxy_s/Sxy − sxx_s/(2Sxx) − syy_s/(2Syy)) (they sum to 0),
 * squared and summed times S/(S − 1); the interval is formed on z = atanh r (SE_r/(1 − r²)) and mapped back.
 */
function correlationFigure(spec: { w: LengthSums; df: number; crit: number }): ScoreModelEstimate {
  const { w, df, crit } = spec;
  const r = Math.max(-1, Math.min(1, w.sxy / Math.sqrt(w.sxx * w.syy)));
  let spread = 0;
  for (let j = 0; j < 3 * w.sessions; j += 3) {
    const influence =
      r *
      ((w.sxy !== 0 ? w.perSession[j + 1]! / w.sxy : 0) -
        w.perSession[j]! / (2 * w.sxx) -
        w.perSession[j + 2]! / (2 * w.syy));
    spread += influence * influence;
  }
  // Sxy = 0 makes r's influence r·sxy_s/Sxy a 0/0: there the slope's own influence (sxy_s/√(Sxx·Syy)) is r's.
  if (w.sxy === 0) {
    spread = 0;
    for (let j = 0; j < 3 * w.sessions; j += 3) spread += w.perSession[j + 1]! ** 2 / (w.sxx * w.syy);
  }
  const standardError = Math.sqrt((spread * w.sessions) / Math.max(1, w.sessions - 1));
  const z = Math.atanh(Math.max(-0.999999, Math.min(0.999999, r)));
  const zSe = standardError / Math.max(1e-12, 1 - r * r);
  const t = zSe > 0 ? z / zSe : r === 0 ? 0 : Number.POSITIVE_INFINITY;
  return {
    estimate: r,
    standardError,
    df,
    lower: Math.tanh(z - crit * zSe),
    upper: Math.tanh(z + crit * zSe),
    pValue: Number.isFinite(t) ? studentTTwoSided(t, df) : 0,
    sampleSize: w.answers,
    sessions: w.sessions,
  };
}

export function lengthFigures(spec: {
  length: LengthSums;
  between: BetweenSums;
  level: number;
}): Pick<ScoreModelFit, 'lengthSlope' | 'lengthCorrelation' | 'betweenSessionLengthSlope'> {
  const { length: w, between: b, level } = spec;
  let lengthSlope: ScoreModelEstimate | null = null;
  let lengthCorrelation: ScoreModelEstimate | null = null;
  if (w.sessions >= 2 && w.sxx > 0) {
    const slope = w.sxy / w.sxx;
    // CR2 (Bell & McCaffrey 2002): each session's score sxy_s − β·sxx_s scaled by 1/√(1 − h_s), h_s = sxx_s/Σ sxx
    // its leverage on a one-regressor fit; CR1's S/(S − 1) under-covers at 20 sessions. Bell & McCaffrey's
    // degrees of freedom (homoskedastic working model) are (tr M)²/tr M² for M = (I − H)GG'(I − H), which for one
    // regressor is 1/(Σh² + (Σa)² − Σa²) with a_s = h_s²/(1 − h_s): S − 1 when sessions weigh alike, fewer when a
    // few sessions carry the slope.
    let spread = 0;
    let hSquares = 0;
    let aSum = 0;
    let aSquares = 0;
    for (let j = 0; j < 3 * w.sessions; j += 3) {
      const sxx = w.perSession[j]!;
      const u = w.perSession[j + 1]! - slope * sxx;
      const h = sxx / w.sxx;
      const free = Math.max(1e-12, 1 - h);
      spread += (u * u) / free;
      const a = (h * h) / free;
      hSquares += h * h;
      aSum += a;
      aSquares += a * a;
    }
    const variance = spread / (w.sxx * w.sxx);
    const df = Math.max(1, Math.min(w.sessions - 1, 1 / (hSquares + aSum * aSum - aSquares)));
    const crit = criticalT(level, df);
    lengthSlope = tEstimate({ estimate: slope, variance, crit, df, sampleSize: w.answers, sessions: w.sessions });
    if (w.syy > 0) lengthCorrelation = correlationFigure({ w, df, crit });
  }
  let betweenSessionLengthSlope: ScoreModelEstimate | null = null;
  if (b.n >= 3) {
    // Centred sums from the points (the raw-moment shortcut leaves rounding where every session's mean length is equal).
    const mx = b.sx / b.n;
    const my = b.sy / b.n;
    let sxx = 0;
    let sxy = 0;
    for (let j = 0; j < 2 * b.n; j += 2) {
      sxx += (b.points[j]! - mx) ** 2;
      sxy += (b.points[j]! - mx) * settled(b.points[j + 1]! - my, my);
    }
    if (sxx > 1e-12 * Math.max(1, b.sxx)) {
      // Least squares over sessions (one point each, independent) with HC2 errors (MacKinnon & White 1985):
      // sessions whose answers react to length differently spread more where lengths are extreme, which the
      // classical residual variance misses (it covered 89.7% at 20 sessions with per-session ρ = ±0.5).
      const slope = sxy / sxx;
      // HC2 (weights c_i² = dx_i²/(1 − h_i) on squared residuals) with Bell & McCaffrey's (2002) degrees of
      // freedom: under a homoskedastic working model V̂ ∝ e'De, e = (I − H)y, D = diag(c²), so
      // df = tr(M)²/tr(M²) with M = (I − H)D(I − H). A few long-answer sessions carry the slope, and n − 2 df
      // overstates their number.
      const points = b.points;
      const n = b.n;
      const c2 = new Float64Array(n);
      let spread = 0;
      for (let j = 0; j < n; j++) {
        const dx = points[2 * j]! - mx;
        const e = settled(points[2 * j + 1]! - my - slope * dx, my);
        c2[j] = (dx * dx) / Math.max(1e-12, 1 - 1 / n - (dx * dx) / sxx);
        spread += c2[j]! * e * e;
      }
      const variance = spread / (sxx * sxx);
      // With (I − H)_ij = δ_ij − u_ij, u_ij = 1/n + d_i·d_j/Sxx: tr M = Σ w_i(1 − u_ii) and
      // tr M² = Σ w_i²(1 − 2u_ii) + W²/n² + 2(Σ w_i d_i)²/(n·Sxx) + (Σ w_i d_i²)²/Sxx², in one pass.
      let trace = 0;
      let diagonal = 0;
      let total = 0;
      let firstMoment = 0;
      let secondMoment = 0;
      for (let j = 0; j < n; j++) {
        const d = points[2 * j]! - mx;
        const u = 1 / n + (d * d) / sxx;
        trace += c2[j]! * (1 - u);
        diagonal += c2[j]! * c2[j]! * (1 - 2 * u);
        total += c2[j]!;
        firstMoment += c2[j]! * d;
        secondMoment += c2[j]! * d * d;
      }
      const traceSquare =
        diagonal +
        (total * total) / (n * n) +
        (2 * firstMoment * firstMoment) / (n * sxx) +
        (secondMoment * secondMoment) / (sxx * sxx);
      const df = traceSquare > 0 ? Math.max(1, Math.min(n - 2, (trace * trace) / traceSquare)) : n - 2;
      betweenSessionLengthSlope = tEstimate({
        estimate: slope,
        variance,
        crit: criticalT(level, df),
        df,
        sampleSize: b.n,
        sessions: b.n,
      });
      if (usesWildBootstrap(n) && variance > 0) {
        const d = new Float64Array(n);
        const residuals = new Float64Array(n);
        for (let j = 0; j < n; j++) {
          d[j] = points[2 * j]! - mx;
          residuals[j] = settled(points[2 * j + 1]! - my - slope * d[j]!, my);
        }
        const standardError = Math.sqrt(variance);
        const wild = restrictedWildBootstrap({ d, residuals, slope, sxx, hc2Weights: c2, standardError, level });
        betweenSessionLengthSlope = { ...betweenSessionLengthSlope, ...wild };
      }
    }
  }
  return { lengthSlope, lengthCorrelation, betweenSessionLengthSlope };
}

/** Whether the between-session slope of this many sessions takes its interval and p from the restricted wild bootstrap. */
export function usesWildBootstrap(sessions: number): boolean {
  return sessions >= WILD_BOOTSTRAP_POINTS.min && sessions <= WILD_BOOTSTRAP_POINTS.max;
}
