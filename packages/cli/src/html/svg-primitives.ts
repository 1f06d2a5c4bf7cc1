/** Small helpers shared by the report's SVG charts: escaping, number formatting, scales and ticks. */

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A number for display: fixed decimals, a true minus sign, and "n/a" for null or non-finite values. */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  const text = Math.abs(value).toFixed(digits);
  return value < 0 && Number(text) !== 0 ? `−${text}` : text;
}

/** Coordinates rounded to 0.1 px keep the file small. */
export function px(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}

export interface LinearScale {
  (value: number): number;
  domain: readonly [number, number];
}

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain[0] === domain[1] ? [domain[0] - 1, domain[1] + 1] : domain;
  const scale = ((value: number) => range[0] + ((value - d0) / (d1 - d0)) * (range[1] - range[0])) as LinearScale;
  scale.domain = [d0, d1];
  return scale;
}

/** Round tick values (1, 2 or 5 × 10^k steps) covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) ticks.push(Math.round(t / step) * step);
  return ticks;
}

/** [min, max] of the values, widened to include `include` (e.g. 0) and padded by 5%. */
export function extent(values: readonly number[], include?: number): [number, number] {
  const finite = values.filter((v) => Number.isFinite(v));
  if (include !== undefined) finite.push(include);
  if (finite.length === 0) return [0, 1];
  // A loop, not Math.min(...values): spreading a very long array overflows the call stack.
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of finite) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

/** What every chart is given to name itself: its element id, and a title and description for screen readers. */
export interface ChartHeading {
  id: string;
  title: string;
  description: string;
}

/** A chart's frame: the `<svg>` element of the given size, with the chart's title and description, around `parts`. */
export function svgFrame(
  chart: ChartHeading,
  frame: { width: number; height: number; parts: readonly string[] },
): string {
  const { id } = chart;
  const { width, height } = frame;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" id="${id}" class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-title ${id}-desc">` +
    `<title id="${id}-title">${escapeXml(chart.title)}</title><desc id="${id}-desc">${escapeXml(chart.description)}</desc>` +
    frame.parts.join('') +
    '</svg>'
  );
}

/** Vertical grid lines at `x`'s round ticks, from `top` to `bottom`, each labelled below the plot by `label(tick)`. */
export function xGrid(
  x: LinearScale,
  frame: { top: number; bottom: number; count: number; label: (tick: number) => string },
): string[] {
  const { top, bottom } = frame;
  return niceTicks(x.domain[0], x.domain[1], frame.count).flatMap((t) => [
    `<line class="grid" x1="${px(x(t))}" x2="${px(x(t))}" y1="${top}" y2="${bottom}"/>`,
    `<text class="tick" x="${px(x(t))}" y="${bottom + 14}" text-anchor="middle">${frame.label(t)}</text>`,
  ]);
}

/** Horizontal grid lines at `y`'s round ticks, from `left` to `right`, each labelled at the left with `digits` decimals. */
export function yGrid(y: LinearScale, frame: { left: number; right: number; count: number; digits: number }): string[] {
  const { left, right } = frame;
  return niceTicks(y.domain[0], y.domain[1], frame.count).flatMap((t) => [
    `<line class="grid" x1="${left}" x2="${right}" y1="${px(y(t))}" y2="${px(y(t))}"/>`,
    `<text class="tick" x="${left - 6}" y="${px(y(t) + 4)}" text-anchor="end">${formatNumber(t, frame.digits)}</text>`,
  ]);
}

/** The x axis's label, centred under the plot (`from`–`to`) on the chart's last line. */
export function xAxisLabel(text: string, frame: { from: number; to: number; height: number }): string {
  return `<text class="axis-label" x="${px((frame.from + frame.to) / 2)}" y="${frame.height - 6}" text-anchor="middle">${escapeXml(text)}</text>`;
}

/** The y axis's label, turned upright and centred beside the plot (`top`–`bottom`), its baseline at `x` (default 14). */
export function yAxisLabel(text: string, frame: { top: number; bottom: number; x?: number }): string {
  return `<text class="axis-label" transform="translate(${frame.x ?? 14} ${px((frame.top + frame.bottom) / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(text)}</text>`;
}
