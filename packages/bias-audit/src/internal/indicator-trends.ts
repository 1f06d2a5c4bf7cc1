import type { TrendReport } from '../bias-aggregate-report.js';
import type { BiasMetricReport } from '../bias-metric-report.js';
import { studentTTwoSided } from '../student-t-distribution.js';
import { mean, variance } from './describe.js';
import type { FigureSpec } from './metric-figure.js';
import { poolFisher } from './pool-fisher.js';
import type { LengthPoint } from './session-indicators.js';
import { criticalT } from './t-summary.js';

const DAY_MS = 86_400_000;
/** The most rolling windows a trend reports. */
const MAX_WINDOWS = 200;

/** The sessions of a report in time order: their times (epoch ms), and a session's ISO timestamp. */
export interface SessionTimeline {
  time: ArrayLike<number>;
  iso: (session: number) => string;
}

/**
 * A least-squares slope per day of a per-session indicator (t interval on n − 2 df), and the indicator over
 * rolling windows of `sessionsPerWindow` consecutive sessions, half a window apart (at most 200, evenly spread). The length correlation's
 * windows pool Fisher's z; the others take a t interval of the window's values.
 */
export function indicatorTrend(spec: {
  indicator: TrendReport['indicator'];
  /** Per session; NaN where the session has none. */
  series: Float64Array;
  /** Per session, the answers behind the length correlation (`series` of the length indicator). */
  lengthN: Int32Array;
  timeline: SessionTimeline;
  sessionsPerWindow: number;
  level: number;
  figure: (spec: FigureSpec) => BiasMetricReport;
  fromT: (spec: { metric: string; values: readonly number[] }) => BiasMetricReport;
}): TrendReport {
  const { indicator, series, timeline, level, figure } = spec;
  // Typed arrays sized by the series: a million sessions pushed into plain arrays cost 100 MB of heap with their old copies.
  const xBuffer = new Float64Array(series.length);
  const yBuffer = new Float64Array(series.length);
  let count = 0;
  for (let i = 0; i < series.length; i++) {
    const v = series[i]!;
    if (Number.isNaN(v)) continue;
    xBuffer[count] = (timeline.time[i]! - timeline.time[0]!) / DAY_MS;
    yBuffer[count++] = v;
  }
  const xs = xBuffer.subarray(0, count);
  const ys = yBuffer.subarray(0, count);
  let estimate: number | null = null;
  let lower: number | null = null;
  let upper: number | null = null;
  let pValue: number | null = null;
  let note: string | undefined;
  if (xs.length >= 3 && variance(xs, 0) > 0) {
    const mx = mean(xs);
    const my = mean(ys);
    let sxx = 0;
    let sxy = 0;
    for (let i = 0; i < xs.length; i++) {
      sxx += (xs[i]! - mx) ** 2;
      sxy += (xs[i]! - mx) * (ys[i]! - my);
    }
    const slope = sxy / sxx;
    let sse = 0;
    for (let i = 0; i < xs.length; i++) sse += (ys[i]! - my - slope * (xs[i]! - mx)) ** 2;
    const df = xs.length - 2;
    const se = Math.sqrt(sse / df / sxx);
    estimate = slope;
    if (se > 1e-12 * Math.max(1, Math.abs(slope))) {
      const t = criticalT(level, df);
      lower = slope - t * se;
      upper = slope + t * se;
      pValue = studentTTwoSided(slope / se, df);
    } else note = 'The indicator lies exactly on a line; no interval.';
  } else note = 'Not computable: needs the indicator from 3 or more sessions spread over time.';
  const slopePerDay = figure({
    metric: `${indicator}_slope_per_day`,
    sessions: xs.length,
    sampleSize: xs.length,
    unit: 'sessions',
    intervalMethod: 'ols_t',
    estimate,
    lower,
    upper,
    pValue,
    ...(note ? { note } : {}),
  });
  const windows: BiasMetricReport[] = [];
  // Windows half a window apart, but at most `MAX_WINDOWS` of them, evenly spread: 100,000 sessions would
  // otherwise give 20,000 windows per indicator, a report no one reads.
  const span = series.length - spec.sessionsPerWindow;
  const step = Math.max(1, Math.floor(spec.sessionsPerWindow / 2), Math.ceil(span / (MAX_WINDOWS - 1)));
  for (let start = 0; start + spec.sessionsPerWindow <= series.length; start += step) {
    const end = start + spec.sessionsPerWindow;
    const dates = { windowStart: timeline.iso(start), windowEnd: timeline.iso(end - 1) };
    if (indicator === 'length_score_correlation') {
      const points: LengthPoint[] = [];
      for (let s = start; s < end; s++)
        if (!Number.isNaN(series[s]!)) points.push({ n: spec.lengthN[s]!, r: series[s]! });
      const pool = poolFisher(points, level);
      windows.push({
        ...figure({
          metric: `${indicator}[window]`,
          sessions: points.filter((p) => p.n >= 4).length,
          sampleSize: points.reduce((s, p) => s + p.n, 0),
          unit: 'candidate_pairs',
          intervalMethod: 'fisher_z_sandwich',
          estimate: pool ? Math.tanh(pool.z) : null,
          lower: pool ? Math.tanh(pool.lower) : null,
          upper: pool ? Math.tanh(pool.upper) : null,
        }),
        ...dates,
      });
    } else {
      const values = Array.from(series.subarray(start, end)).filter((v) => !Number.isNaN(v));
      windows.push({ ...spec.fromT({ metric: `${indicator}[window]`, values }), ...dates });
    }
  }
  return { indicator, slopePerDay, windows };
}
