import type { BenchRow } from './run-suite.js';

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** One plain-text table: suite, benchmark, median (or value) with unit, samples, ratio and what it is a ratio to. */
export function formatTable(rows: readonly BenchRow[]): string {
  const header = ['suite', 'benchmark', 'median', 'n', 'ratio', 'ratio to'];
  const body = rows.map((r) => [
    r.suite,
    r.name,
    `${formatNumber(r.median)} ${r.unit}`,
    String(r.samples),
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.ratioTo ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 2 || i === 3 || i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
