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
  const left = 56;
  const right = 16;
  const top = 12;
  const bottom = 40;
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
  parts.push(yAxisLabel(options.yLabel, { top, bottom: height - bottom }));
  return svgFrame(options, { width, height, parts });
}
