import { escapeXml, extent, formatNumber, linearScale, px, svgFrame, xAxisLabel, xGrid } from './svg-primitives.js';
import type { ChartHeading } from './svg-primitives.js';

export interface IntervalRow {
  label: string;
  estimate: number;
  ciLower: number;
  ciUpper: number;
  n: number;
  /** Drawn in the warning colour, e.g. a flagged reviewer. */
  highlight?: boolean;
}

/**
 * A horizontal dot-and-whisker chart: one row per category, the point estimate as a dot, the 95% interval as a
 * bar, and a reference line at `reference` (0 for effects). With a `margin`, a shaded band marks
 * reference ± margin, the effects too small to flag. Rows whose interval lies beyond the band (beyond the
 * reference when there is none) are drawn emphasised, since those are the ones the data supports.
 */
export function renderIntervalChart(
  options: ChartHeading & {
    rows: readonly IntervalRow[];
    axisLabel: string;
    reference?: number;
    /** The smallest effect worth flagging: shaded around the reference. Default 0 (no band). */
    margin?: number;
  },
): string {
  const width = 640;
  const rowHeight = 28;
  const labelWidth = 190;
  const top = 10;
  const bottom = 40;
  const height = top + options.rows.length * rowHeight + bottom;
  const reference = options.reference ?? 0;
  const margin = options.margin ?? 0;
  const [lo, hi] = extent(
    [...options.rows.flatMap((r) => [r.ciLower, r.ciUpper, r.estimate]), reference - margin, reference + margin],
    reference,
  );
  const x = linearScale([lo, hi], [labelWidth, width - 20]);
  const plotBottom = top + options.rows.length * rowHeight;
  const parts: string[] = xGrid(x, {
    top,
    bottom: plotBottom,
    count: 6,
    label: (t) => formatNumber(t, Math.abs(t) < 1 && t !== 0 ? 2 : 1),
  });
  if (margin > 0) {
    parts.push(
      `<rect class="margin" x="${px(x(reference - margin))}" y="${top}" width="${px(x(reference + margin) - x(reference - margin))}" height="${plotBottom - top}"><title>${escapeXml(`±${formatNumber(margin, 2)}: too small to flag`)}</title></rect>`,
    );
  }
  parts.push(
    `<line class="reference" x1="${px(x(reference))}" x2="${px(x(reference))}" y1="${top}" y2="${plotBottom}"/>`,
  );
  options.rows.forEach((row, i) => {
    const y = top + i * rowHeight + rowHeight / 2;
    const excludes = row.ciLower > reference + margin || row.ciUpper < reference - margin;
    const cls = `mark interval${excludes ? ' excludes' : ''}${row.highlight ? ' highlight' : ''}`;
    const tip = `${row.label}: ${formatNumber(row.estimate, 3)} [${formatNumber(row.ciLower, 3)}, ${formatNumber(row.ciUpper, 3)}], n = ${row.n}`;
    parts.push(
      `<g class="${cls}"><title>${escapeXml(tip)}</title>` +
        `<text class="label" x="${labelWidth - 8}" y="${px(y + 4)}" text-anchor="end">${escapeXml(fitLabel(row.label))}</text>` +
        `<line class="whisker" x1="${px(x(row.ciLower))}" x2="${px(x(row.ciUpper))}" y1="${px(y)}" y2="${px(y)}"/>` +
        `<line class="cap" x1="${px(x(row.ciLower))}" x2="${px(x(row.ciLower))}" y1="${px(y - 5)}" y2="${px(y + 5)}"/>` +
        `<line class="cap" x1="${px(x(row.ciUpper))}" x2="${px(x(row.ciUpper))}" y1="${px(y - 5)}" y2="${px(y + 5)}"/>` +
        `<circle class="dot" cx="${px(x(row.estimate))}" cy="${px(y)}" r="4.5"/></g>`,
    );
  });
  parts.push(xAxisLabel(options.axisLabel, { from: labelWidth, to: width - 20, height }));
  return svgFrame(options, { width, height, parts });
}

/**
 * A row label that fits the 182 units left of the plot at 12 px (26 characters): a longer one keeps its start and its
 * end around an ellipsis, since model ids differ at both (`openrouter/…` and `…-sonnet:thinking`). The row's
 * tooltip and the data table below the chart carry the whole label.
 */
export function fitLabel(label: string): string {
  return label.length > 26 ? `${label.slice(0, 11)}…${label.slice(-14)}` : label;
}
