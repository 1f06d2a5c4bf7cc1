import { escapeXml, formatNumber, px, svgFrame } from './svg-primitives.js';
import type { ChartHeading } from './svg-primitives.js';

/**
 * The reviewer × candidate matrix: each cell is how many points a reviewer gives a candidate's answers beyond
 * what its offset and the answers explain (positive = favours). The diagonal, a reviewer judging its own
 * answer, is self-preference and is outlined. Colour is diverging around 0 and the value is
 * printed in every cell, so the chart reads in greyscale too.
 */
export function renderMatrixChart(
  options: ChartHeading & {
    reviewers: readonly string[];
    candidates: readonly string[];
    /** values[r][c]; null when the reviewer never scored that candidate. */
    values: readonly (readonly (number | null)[])[];
    selfOf?: (reviewer: string, candidate: string) => boolean;
  },
): string {
  const cell = 54;
  const labelWidth = 170;
  // A column's label slants up and right at 45°: about 6.5 units a character at 12 px, so each of its two extents is
  // its length × 6.5 × cos 45°. The header (above the cells) and the room right of the last column take the longest.
  const slant = Math.ceil(Math.max(0, ...options.candidates.map((c) => short(c).length)) * 6.5 * Math.SQRT1_2);
  const headerHeight = Math.max(110, slant + 24);
  const width = labelWidth + options.candidates.length * cell + Math.max(110, slant + 16);
  const height = headerHeight + options.reviewers.length * cell + 16;
  const all = options.values.flat().filter((v): v is number => v !== null && Number.isFinite(v));
  const maxAbs = Math.max(1e-9, ...all.map(Math.abs));
  const isSelf = options.selfOf ?? ((r, c) => r === c);
  const parts: string[] = [];
  options.candidates.forEach((c, j) => {
    const cx = labelWidth + j * cell + cell / 2;
    parts.push(
      `<text class="label" transform="translate(${px(cx + 4)} ${headerHeight - 8}) rotate(-45)" text-anchor="start">${escapeXml(short(c))}</text>`,
    );
  });
  options.reviewers.forEach((r, i) => {
    const y = headerHeight + i * cell;
    parts.push(
      `<text class="label" x="${labelWidth - 8}" y="${px(y + cell / 2 + 4)}" text-anchor="end">${escapeXml(short(r))}</text>`,
    );
    options.candidates.forEach((c, j) => {
      const v = options.values[i]?.[j] ?? null;
      const x = labelWidth + j * cell;
      const self = isSelf(r, c);
      const fill = v === null ? '#f2f2f2' : diverging(v / maxAbs);
      const tip = `${r} → ${c}${self ? ' (own answer)' : ''}: ${v === null ? 'no scores' : formatNumber(v, 2)}`;
      parts.push(
        `<g class="mark cell${self ? ' self' : ''}"><title>${escapeXml(tip)}</title>` +
          `<rect x="${x + 1}" y="${y + 1}" width="${cell - 2}" height="${cell - 2}" fill="${fill}"/>` +
          `<text class="value" x="${px(x + cell / 2)}" y="${px(y + cell / 2 + 4)}" text-anchor="middle">${v === null ? '–' : formatNumber(v, 2)}</text></g>`,
      );
    });
  });
  return svgFrame(options, { width, height, parts });
}

function short(label: string): string {
  return label.length > 22 ? `${label.slice(0, 21)}…` : label;
}

/** t in [−1, 1] → blue (disfavours) … white … orange (favours). */
function diverging(t: number): string {
  const clamp = Math.max(-1, Math.min(1, t));
  const [r, g, b] =
    clamp >= 0 ? mix([255, 255, 255], [230, 120, 30], clamp) : mix([255, 255, 255], [40, 110, 200], -clamp);
  return `rgb(${r},${g},${b})`;
}

function mix(a: readonly number[], b: readonly number[], t: number): [number, number, number] {
  return [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as [number, number, number];
}
