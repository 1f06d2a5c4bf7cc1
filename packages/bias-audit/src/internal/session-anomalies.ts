import type { SessionAnomaly } from '../bias-aggregate-report.js';
import { median } from './describe.js';
import type { SessionTimeline } from './indicator-trends.js';

/** Sessions whose indicator lies more than `threshold` robust SDs (1.4826·MAD) from the median; none from fewer than 5 values. */
export function sessionAnomalies(spec: {
  indicator: SessionAnomaly['indicator'];
  /** Per session; NaN where the session has none. */
  series: Float64Array;
  sessionIds: readonly string[];
  timeline: SessionTimeline;
  threshold: number;
}): SessionAnomaly[] {
  const values = Array.from(spec.series).filter((v) => !Number.isNaN(v));
  if (values.length < 5) return [];
  const med = median(values);
  const robustSd = 1.4826 * median(values.map((v) => Math.abs(v - med)));
  if (!(robustSd > 0)) return [];
  const out: SessionAnomaly[] = [];
  spec.series.forEach((v, i) => {
    if (Number.isNaN(v)) return;
    const robustZ = (v - med) / robustSd;
    if (Math.abs(robustZ) > spec.threshold) {
      out.push({ sessionId: spec.sessionIds[i]!, timestamp: spec.timeline.iso(i), indicator: spec.indicator, value: v, median: med, robustSd, robustZ });
    }
  });
  return out;
}
