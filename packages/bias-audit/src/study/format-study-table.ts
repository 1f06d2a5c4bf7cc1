import type { StudyRow } from './summarize-tally.js';

const COLUMNS = [
  'scenario',
  'runs',
  'sessions',
  'metric',
  'rate',
  '95% interval',
  'target',
  'verdict',
  'detail',
] as const;

const percent = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);

function cells(row: StudyRow): string[] {
  return [
    row.scenario,
    String(row.runs),
    String(row.sessions),
    row.metric,
    percent(row.rate),
    row.lower === null || row.upper === null ? '—' : `${(100 * row.lower).toFixed(1)}–${(100 * row.upper).toFixed(1)}%`,
    row.target,
    row.verdict ?? '',
    row.detail,
  ];
}

/** The study's rows as a Markdown table, or as plain text with aligned columns. */
export function formatStudyTable(rows: readonly StudyRow[], format: 'markdown' | 'text'): string {
  const body = rows.map(cells);
  if (format === 'markdown') {
    const escape = (s: string): string => s.replaceAll('|', '\\|');
    return [
      `| ${COLUMNS.join(' | ')} |`,
      `|${COLUMNS.map((c) => (c === 'scenario' || c === 'metric' || c === 'detail' ? ' --- ' : ' ---: ')).join('|')}|`,
      ...body.map((r) => `| ${r.map(escape).join(' | ')} |`),
    ].join('\n');
  }
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...body.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
