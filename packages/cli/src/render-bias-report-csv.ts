import type { BiasAggregateReport } from '@council/bias-audit';
import { biasReportMetrics } from './bias-report-metrics.js';

const COLUMNS = [
  'metric',
  'estimate',
  'ci_lower',
  'ci_upper',
  'level',
  'sample_size',
  'unit',
  'sessions',
  'window_start',
  'window_end',
  'confidence',
  'p_value',
  'margin',
  'interval_method',
  'note',
] as const;

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One row per reported metric (snake_case header), so a spreadsheet gets every figure with its N, interval, window
 * and tier; `margin` is the smallest effect a flag on that figure needs (empty where the figure raises none).
 */
export function renderBiasReportCsv(report: BiasAggregateReport): string {
  const lines = [COLUMNS.join(',')];
  for (const m of biasReportMetrics(report)) {
    lines.push(
      [
        m.metric,
        m.estimate,
        m.ciLower,
        m.ciUpper,
        m.level,
        m.sampleSize,
        m.unit,
        m.sessions,
        m.windowStart,
        m.windowEnd,
        m.confidence,
        m.pValue,
        m.margin,
        m.intervalMethod,
        m.note,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
