import {
  extent,
  formatNumber,
  linearScale,
  px,
  svgFrame,
  xAxisLabel,
  xGrid,
  yAxisLabel,
  yGrid,
} from './svg-primitives.js';
import type { ChartHeading } from './svg-primitives.js';

/**
 * A scatter plot (response length against score) with an optional least-squares line. Points are drawn
 * semi-transparent so dense regions read as darker; callers thin very large inputs before drawing.
 */
export function renderScatterChart(
  options: ChartHeading & {
    points: readonly { x: number; y: number }[];
    xLabel: string;
    yLabel: string;
  },
): string {
  const width = 640;
  const height = 340;
  const left = 56;
  const right = 16;
  const top = 12;
  const bottom = 44;
  const xs = options.points.map((p) => p.x);
  const ys = options.points.map((p) => p.y);
  const x = linearScale(extent(xs), [left, width - right]);
  const y = linearScale(extent(ys), [height - bottom, top]);
  const parts: string[] = [
    ...xGrid(x, { top, bottom: height - bottom, count: 6, label: (t) => formatNumber(t, 0) }),
    ...yGrid(y, { left, right: width - right, count: 5, digits: 1 }),
  ];
  parts.push('<g class="points">');
  for (const p of options.points)
    parts.push(`<circle class="mark point" cx="${px(x(p.x))}" cy="${px(y(p.y))}" r="2.5"/>`);
  parts.push('</g>');
  const fit = leastSquares(options.points);
  if (fit) {
    const [x0, x1] = x.domain;
    parts.push(
      `<line class="mark fit" x1="${px(x(x0))}" y1="${px(y(fit.intercept + fit.slope * x0))}" x2="${px(x(x1))}" y2="${px(y(fit.intercept + fit.slope * x1))}"><title>least-squares line: score = ${formatNumber(fit.intercept, 2)} + ${formatNumber(fit.slope * 1000, 3)} per 1,000 characters</title></line>`,
    );
  }
  parts.push(xAxisLabel(options.xLabel, { from: left, to: width - right, height }));
  parts.push(yAxisLabel(options.yLabel, { top, bottom: height - bottom }));
  return svgFrame(options, { width, height, parts });
}

/** Ordinary least squares; null when x has no spread. */
export function leastSquares(points: readonly { x: number; y: number }[]): { slope: number; intercept: number } | null {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.x - mx) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx };
}
