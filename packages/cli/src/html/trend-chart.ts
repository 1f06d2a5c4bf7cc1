import { escapeXml, extent, formatNumber, linearScale, px, svgFrame, yAxisLabel, yGrid } from './svg-primitives.js';
import type { ChartHeading } from './svg-primitives.js';

export interface TrendPoint {
  /** ISO time of the window's end. */
  at: string;
  estimate: number;
  ciLower: number;
  ciUpper: number;
}

/** One metric over time: the estimate per rolling window as a line with dots, and its 95% interval as a band. */
export function renderTrendChart(
  options: ChartHeading & {
    points: readonly TrendPoint[];
    yLabel: string;
  },
): string {
  const width = 640;
  const height = 220;
  const top = 12;
  const bottom = 40;
  const yLines = axisLines(options.yLabel, height - top - bottom);
  // A second line of the y label takes 14 more units left of the tick labels.
  const left = 56 + 14 * (yLines.length - 1);
  const right = 16;
  const times = options.points.map((p) => Date.parse(p.at));
  const x = linearScale(extent(times), [left, width - right]);
  const y = linearScale(
    extent(
      options.points.flatMap((p) => [p.ciLower, p.ciUpper]),
      0,
    ),
    [height - bottom, top],
  );
  const parts: string[] = yGrid(y, { left, right: width - right, count: 4, digits: 2 });
  parts.push(`<line class="reference" x1="${left}" x2="${width - right}" y1="${px(y(0))}" y2="${px(y(0))}"/>`);
  if (options.points.length > 0) {
    const first = options.points[0]!.at.slice(0, 10);
    const last = options.points.at(-1)!.at.slice(0, 10);
    parts.push(
      `<text class="tick" x="${left}" y="${height - bottom + 14}" text-anchor="start">${escapeXml(first)}</text>`,
    );
    if (last !== first)
      parts.push(
        `<text class="tick" x="${width - right}" y="${height - bottom + 14}" text-anchor="end">${escapeXml(last)}</text>`,
      );
    const upper = options.points.map((p, i) => `${px(x(times[i]!))},${px(y(p.ciUpper))}`);
    const lower = options.points.map((p, i) => `${px(x(times[i]!))},${px(y(p.ciLower))}`).reverse();
    parts.push(`<polygon class="mark band" points="${[...upper, ...lower].join(' ')}"/>`);
    parts.push(
      `<polyline class="mark line" points="${options.points.map((p, i) => `${px(x(times[i]!))},${px(y(p.estimate))}`).join(' ')}"/>`,
    );
    options.points.forEach((p, i) => {
      parts.push(
        `<circle class="mark dot" cx="${px(x(times[i]!))}" cy="${px(y(p.estimate))}" r="3"><title>${escapeXml(`${p.at.slice(0, 10)}: ${formatNumber(p.estimate, 3)} [${formatNumber(p.ciLower, 3)}, ${formatNumber(p.ciUpper, 3)}]`)}</title></circle>`,
      );
    });
  }
  yLines.forEach((line, i) => parts.push(yAxisLabel(line, { top, bottom: height - bottom, x: 14 + 14 * i })));
  return svgFrame(options, { width, height, parts });
}

/**
 * The y label in the lines it needs to fit `room` units upright at 12 px (about 6.5 units a character): one line when
 * it fits, else two split at the space nearest the middle (the chart makes room for the second); a line still too long
 * keeps its start and end around an ellipsis. The caption under the chart names the metric whole.
 */
export function axisLines(label: string, room: number): string[] {
  const max = Math.floor(room / 6.5);
  if (label.length <= max) return [label];
  const middle = label.length / 2;
  const spaces = [...label].flatMap((c, i) => (c === ' ' ? [i] : []));
  const at = spaces.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle))[0];
  const lines = at === undefined ? [label] : [label.slice(0, at), label.slice(at + 1)];
  const keep = max - 1;
  const head = Math.ceil(keep / 2);
  return lines.map((l) => (l.length <= max ? l : `${l.slice(0, head)}…${l.slice(l.length - (keep - head))}`));
}
