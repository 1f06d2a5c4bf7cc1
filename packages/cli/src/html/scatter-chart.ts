import { escapeXml, extent, formatNumber, linearScale, niceTicks, px, svgFrame } from './svg-primitives.js';

/**
 * A scatter plot (response length against score) with an optional least-squares line. Points are drawn
 * semi-transparent so dense regions read as darker; callers thin very large inputs before drawing.
 */
export function renderScatterChart(options: {
  id: string;
  title: string;
  description: string;
  points: readonly { x: number; y: number }[];
  xLabel: string;
  yLabel: string;
}): string {
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
  const parts: string[] = [];
  for (const t of niceTicks(x.domain[0], x.domain[1], 6)) {
    parts.push(`<line class="grid" x1="${px(x(t))}" x2="${px(x(t))}" y1="${top}" y2="${height - bottom}"/>`);
    parts.push(
      `<text class="tick" x="${px(x(t))}" y="${height - bottom + 14}" text-anchor="middle">${formatNumber(t, 0)}</text>`,
    );
  }
  for (const t of niceTicks(y.domain[0], y.domain[1], 5)) {
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${px(y(t))}" y2="${px(y(t))}"/>`);
    parts.push(`<text class="tick" x="${left - 6}" y="${px(y(t) + 4)}" text-anchor="end">${formatNumber(t, 1)}</text>`);
  }
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
  parts.push(
    `<text class="axis-label" x="${px((left + width - right) / 2)}" y="${height - 6}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
  );
  parts.push(
    `<text class="axis-label" transform="translate(14 ${px((top + height - bottom) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
  );
  return svgFrame({
    id: options.id,
    title: options.title,
    description: options.description,
    width,
    height,
    body: parts.join(''),
  });
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
