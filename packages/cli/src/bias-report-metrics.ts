import type {
  BiasAggregateReport,
  BiasMetricReport,
  ReviewerDriftPowerReport,
  ReviewerDriftReport,
} from '@council/bias-audit';

/** Every `BiasMetricReport` in a cross-session report, in reading order (the CSV rows). */
export function biasReportMetrics(report: BiasAggregateReport): BiasMetricReport[] {
  return [
    report.length.slope,
    report.length.correlation,
    report.length.betweenSessions,
    ...report.position.effects,
    report.position.primacy,
    report.position.recency,
    ...report.position.rankEffects,
    ...report.reviewers.flatMap((r) => [
      r.offset,
      r.z,
      r.mean,
      r.standardDeviation,
      // A reviewer whose offset changed: the change (REVIEWER_DRIFT's figure), then each period's offset.
      ...(r.drift === undefined ? [] : [r.drift.change, ...r.drift.periods.map((p) => p.offset)]),
    ]),
    ...report.selfPreference,
    ...report.affinity,
    report.anchoring,
    ...report.trends.flatMap((t) => [t.slopePerDay, ...t.windows]),
  ];
}

/**
 * The figures whose test and interval would have raised a flag but whose own sessions fall short of `minSessions`
 * (`flagWithheld`): shown, not flagged; `withheldSentence` says each.
 */
export function withheldFigures(
  report: BiasAggregateReport,
): (BiasMetricReport & { flagWithheld: NonNullable<BiasMetricReport['flagWithheld']> })[] {
  return biasReportMetrics(report).flatMap((m) =>
    m.flagWithheld === undefined ? [] : [{ ...m, flagWithheld: m.flagWithheld }],
  );
}

/** "A (1st)" for display position 0. */
export function positionLabel(position: number): string {
  let label = '';
  let n = position;
  do {
    label = String.fromCharCode(65 + (n % 26)) + label;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  const k = position + 1;
  const suffix = k % 100 >= 11 && k % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][k % 10] ?? 'th');
  return `${label} (${k}${suffix})`;
}

/** The subject inside a metric name: `reviewer_offset[sim:ada]` → `sim:ada`. */
export function metricSubject(metric: string): string {
  const open = metric.indexOf('[');
  return open >= 0 && metric.endsWith(']') ? metric.slice(open + 1, -1) : metric;
}

/** "2026-11-01 to 2026-11-10": a drifting reviewer's period by its first and last session's dates. */
export function periodDates(period: { start: string; end: string }): string {
  return `${period.start.slice(0, 10)} to ${period.end.slice(0, 10)}`;
}

/**
 * A reviewer the drift test found no change in on a short window (`ReviewerProfile.driftPower`): "no change found;
 * with 20 sessions a change smaller than ±1.08 points would likely go unseen".
 */
export function driftPowerLine(power: ReviewerDriftPowerReport): string {
  const d = (Math.round(power.undetectableBelow * 100) / 100).toFixed(2);
  return `no change found; with ${power.sessions} sessions a change smaller than \u00b1${d} points would likely go unseen`;
}

/** How the change was found: "at a config-version change", "one change point", or "2 changes" (3 periods). */
export function driftCause(drift: ReviewerDriftReport): string {
  if (drift.periods.length > 2) return `${drift.periods.length - 1} changes`;
  return drift.cause === 'config_version' ? 'at a config-version change' : 'one change point';
}
