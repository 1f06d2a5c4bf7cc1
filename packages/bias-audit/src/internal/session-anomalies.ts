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
  const values = new Float64Array(spec.series.length);
  let count = 0;
  for (const v of spec.series) if (!Number.isNaN(v)) values[count++] = v;
  if (count < 5) return [];
  const present = values.subarray(0, count);
  const med = median(present);
  for (let i = 0; i < count; i++) present[i] = Math.abs(present[i]! - med);
  const robustSd = 1.4826 * median(present);
  if (!(robustSd > 0)) return [];
  const out: SessionAnomaly[] = [];
  spec.series.forEach((v, i) => {
    if (Number.isNaN(v)) return;
    const robustZ = (v - med) / robustSd;
    if (Math.abs(robustZ) > spec.threshold) {
      out.push({
        sessionId: spec.sessionIds[i]!,
        timestamp: spec.timeline.iso(i),
        indicator: spec.indicator,
        value: v,
        median: med,
        robustSd,
        robustZ,
      });
    }
  });
  return out;
}
