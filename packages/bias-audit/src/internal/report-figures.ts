import type { BiasMetricReport } from '../bias-metric-report.js';
import type { ScoreModelEstimate } from '../fit-score-model.js';
import type { MarginHypothesis } from './bias-flags.js';
import type { FigureSpec } from './metric-figure.js';
import { createFigureFactory } from './metric-figure.js';
import { criticalT, tSummary } from './t-summary.js';

/** A figure of t across sessions: its metric, its per-session values, and the family's margin if it has one. */
export interface TFigureSpec {
  metric: string;
  values: ArrayLike<number>;
  margin?: number;
}

/** A figure of the score model; when it cannot be estimated, `why` says so and `sessions` (default: the window's) sets its tier. */
export interface ModelFigureSpec {
  metric: string;
  fit: ScoreModelEstimate | null;
  unit: BiasMetricReport['unit'];
  intervalMethod: string;
  margin?: number;
  why?: string;
  sessions?: number;
}

/** The note of a figure whose data have no spread: its estimate is 0 exactly and there is nothing to test. */
export const NO_VARIATION = 'No variation: the scores it rests on leave no spread at all, so there is nothing to test.';

/** The figure builders of one report: every figure and every margin hypothesis of `aggregateBiasAudit` comes from these. */
export interface ReportFigures {
  /** A figure under ADR-018's tiers (`createFigureFactory`). */
  figure: (spec: FigureSpec) => BiasMetricReport;
  fromT: (spec: TFigureSpec) => BiasMetricReport;
  fromModel: (spec: ModelFigureSpec) => BiasMetricReport;
  /** The hypothesis "within ±margin" of a shown figure whose t (SE, df) is known. */
  hypothesis: (spec: Omit<MarginHypothesis, 'estimate'>) => MarginHypothesis[];
  /** The same for a figure from `fromT` (t across sessions, df = sessions − 1): its SE read off its interval. */
  tHypothesis: (spec: {
    code: MarginHypothesis['code'];
    subject: string | null;
    figure: BiasMetricReport;
    margin: number;
  }) => MarginHypothesis[];
}

/** The figure builders of a report at `level` over `sessions` sessions, from `windowStart` to `windowEnd`. */
export function createReportFigures(context: {
  level: number;
  sessions: number;
  windowStart: string | null;
  windowEnd: string | null;
}): ReportFigures {
  const { level, sessions: S, windowStart, windowEnd } = context;
  const figure = createFigureFactory({ level, windowStart, windowEnd });
  const fromT = (spec: TFigureSpec): BiasMetricReport => {
    const summary = tSummary(spec.values, level);
    const base = {
      metric: spec.metric,
      sessions: summary.n,
      sampleSize: spec.values.length,
      unit: 'sessions' as const,
      intervalMethod: 't_across_sessions',
      ...(spec.margin === undefined ? {} : { margin: spec.margin }),
    };
    return summary.computable
      ? figure({
          ...base,
          estimate: summary.estimate,
          lower: summary.lower,
          upper: summary.upper,
          pValue: summary.pValue,
        })
      : figure({
          ...base,
          estimate: summary.estimate,
          lower: null,
          upper: null,
          pValue: null,
          note: `Not computable: ${summary.reason}.`,
        });
  };
  const fromModel = (spec: ModelFigureSpec): BiasMetricReport => {
    const { fit } = spec;
    const margin = spec.margin === undefined ? {} : { margin: spec.margin };
    return fit === null
      ? figure({
          metric: spec.metric,
          sessions: spec.sessions ?? S,
          sampleSize: 0,
          unit: spec.unit,
          intervalMethod: spec.intervalMethod,
          estimate: null,
          lower: null,
          upper: null,
          pValue: null,
          note: `Not computable: ${spec.why ?? 'the score model cannot estimate it from these sessions'}.`,
          ...margin,
        })
      : figure({
          metric: spec.metric,
          sessions: fit.sessions,
          sampleSize: fit.sampleSize,
          unit: spec.unit,
          intervalMethod: spec.intervalMethod,
          estimate: fit.estimate,
          lower: fit.lower,
          upper: fit.upper,
          // No spread at all (every residual zero): t is 0/0, so "no effect" has no test, not p = 1.
          ...(fit.standardError === 0 && fit.estimate === 0
            ? { pValue: null, note: NO_VARIATION }
            : { pValue: fit.pValue }),
          ...margin,
        });
  };
  const hypothesis = (spec: Omit<MarginHypothesis, 'estimate'>): MarginHypothesis[] =>
    spec.figure.estimate === null || spec.figure.ciLower === null || !(spec.df >= 1)
      ? []
      : [{ ...spec, estimate: spec.figure.estimate }];
  const tHypothesis: ReportFigures['tHypothesis'] = (spec) => {
    const f = spec.figure;
    if (f.estimate === null || f.ciLower === null || f.ciUpper === null || f.sessions < 2) return [];
    const df = f.sessions - 1;
    return hypothesis({ ...spec, standardError: (f.ciUpper - f.ciLower) / (2 * criticalT(level, df)), df });
  };
  return { figure, fromT, fromModel, hypothesis, tHypothesis };
}
