import type { BiasMetricReport } from '../bias-metric-report.js';
import { confidenceTier } from '../confidence-tier.js';

/** What a figure is before its tier is applied. */
export interface FigureSpec {
  metric: string;
  sessions: number;
  sampleSize: number;
  unit: BiasMetricReport['unit'];
  intervalMethod: string;
  estimate: number | null;
  lower: number | null;
  upper: number | null;
  pValue?: number | null;
  note?: string;
  margin?: number;
}

/**
 * Builds `BiasMetricReport`s of one report (its level and window) under ADR-018's tiers: below 10
 * sessions the estimate, interval and p-value are withheld; from 10 to 19 a volatility note is added.
 */
export function createFigureFactory(context: {
  level: number;
  windowStart: string | null;
  windowEnd: string | null;
}): (spec: FigureSpec) => BiasMetricReport {
  return (spec) => {
    const tier = confidenceTier(spec.sessions);
    const base: BiasMetricReport = {
      metric: spec.metric,
      estimate: null,
      ciLower: null,
      ciUpper: null,
      level: context.level,
      sampleSize: spec.sampleSize,
      unit: spec.unit,
      sessions: spec.sessions,
      windowStart: context.windowStart,
      windowEnd: context.windowEnd,
      confidence: tier,
      intervalMethod: spec.intervalMethod,
    };
    if (spec.margin !== undefined) base.margin = spec.margin;
    if (tier === 'insufficient_data') {
      const reason = spec.note?.startsWith('Not computable') ? ` ${spec.note}` : '';
      return {
        ...base,
        pValue: null,
        note: `Collecting data: ${spec.sessions} session(s), fewer than 10, so no estimate is shown.${reason}`,
      };
    }
    const report: BiasMetricReport = { ...base, estimate: spec.estimate, ciLower: spec.lower, ciUpper: spec.upper };
    if (spec.pValue !== undefined) report.pValue = spec.pValue;
    const notes = [spec.note, tier === 'preliminary' ? 'High volatility: fewer than 20 sessions.' : undefined].filter(
      (x): x is string => x !== undefined,
    );
    if (notes.length > 0) report.note = notes.join(' ');
    return report;
  };
}
