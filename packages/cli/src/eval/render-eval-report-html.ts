import { renderIntervalChart } from '../html/interval-chart.js';
import type { IntervalRow } from '../html/interval-chart.js';
import { escapeXml } from '../html/svg-primitives.js';
import { pct, signed } from './compute-eval-report.js';
import type { BiasFigure, EvalFigure, EvalReport, EvalShare } from './compute-eval-report.js';

const CSS = `
:root{--fg:#1d2330;--muted:#5b6472;--line:#dfe3ea;--bg:#fff;--accent:#2f6fb7;--warn:#c0601a}
*{box-sizing:border-box}body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0}
main{max-width:980px;margin:0 auto;padding:24px 20px 60px}h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:36px 0 6px;border-bottom:1px solid var(--line);padding-bottom:4px}
.meta{color:var(--muted);margin:0 0 12px}.notice{background:#fff6e8;border-left:4px solid var(--warn);padding:8px 12px;margin:12px 0}
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:8px 0;font-size:14px}th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
figure{margin:10px 0}figcaption{color:var(--muted);font-size:13px;max-width:720px}svg.chart{max-width:100%;height:auto;display:block;font:12px system-ui,sans-serif}
svg .grid{stroke:#eceff4}svg .reference{stroke:#8a93a3;stroke-dasharray:4 3}svg .tick{fill:var(--muted)}svg .label{fill:var(--fg)}svg .axis-label{fill:var(--muted)}
svg .interval .whisker,svg .interval .cap{stroke:#8fa6c4;stroke-width:2}svg .interval .dot{fill:#8fa6c4}
svg .interval.excludes .whisker,svg .interval.excludes .cap{stroke:var(--accent)}svg .interval.excludes .dot{fill:var(--accent)}svg .margin{fill:#8a93a3;fill-opacity:.12}
@media (max-width:640px){main{padding:16px 12px 40px}th,td{padding:4px 6px}}
`;

function shareCell(s: EvalShare | undefined): string {
  if (s === undefined || s.estimate === null) return '–';
  return `${pct(s.estimate)} ${s.interval ? `[${pct(s.interval.lower)}, ${pct(s.interval.upper)}]` : '(too few for an interval)'} · n ${s.n}`;
}

function figureCell(f: EvalFigure | undefined): string {
  if (f === undefined || f.n === 0) return '–';
  if (f.estimate === null) return `undefined · n ${f.n}`;
  return `${signed(f.estimate)} ${f.interval ? `[${signed(f.interval.lower)}, ${signed(f.interval.upper)}]` : '(too few for an interval)'} · n ${f.n}`;
}

function biasCell(b: BiasFigure | null | undefined): string {
  if (b == null || b.estimate === null) return '–';
  return `${signed(b.estimate)}${b.interval ? ` [${signed(b.interval.lower)}, ${signed(b.interval.upper)}]` : ''}`;
}

function chart(options: {
  id: string;
  title: string;
  description: string;
  axisLabel: string;
  rows: IntervalRow[];
  reference?: number;
  caption: string;
}): string {
  if (options.rows.length === 0)
    return `<p class="meta">${escapeXml(options.title)}: no figure has an interval yet.</p>`;
  return `<figure>${renderIntervalChart(options)}<figcaption>${escapeXml(options.caption)}</figcaption></figure>`;
}

const rowsOf = <T>(
  list: readonly T[],
  label: (t: T) => string,
  figure: (t: T) => EvalFigure | BiasFigure | null,
): IntervalRow[] =>
  list.flatMap((t) => {
    const f = figure(t);
    if (f === null || f.estimate === null || f.interval === null) return [];
    return [
      {
        label: label(t),
        estimate: f.estimate,
        ciLower: f.interval.lower,
        ciUpper: f.interval.upper,
        n: 'n' in f ? f.n : f.sessions,
      },
    ];
  });

/**
 * The eval report as one self-contained HTML page (no script, no request): the accuracy · agreement · bias table, dot
 * and whisker charts of accuracy by key content (the synthesis as a row), κ against people and the reviewer offsets,
 * each figure in a sentence, and the notes. Every chart's numbers are in the table.
 */
export function renderEvalReportHtml(report: EvalReport): string {
  const names = [...new Set([...report.members.map((m) => m.member), ...report.reviewers.map((r) => r.reviewer)])];
  const member = (n: string) => report.members.find((m) => m.member === n);
  const reviewer = (n: string) => report.reviewers.find((r) => r.reviewer === n);
  const { items } = report;
  const sections: string[] = [
    `<header><h1>Are the judges right? council eval</h1><p class="meta">${items.done} of ${items.total} items done · ${items.withCouncil} answered by the council · ${items.withPreference} human preferences · ${items.withScore} human scores · generated ${escapeXml(report.generatedAt)}</p></header>`,
  ];
  if (report.demo)
    sections.push(
      '<p class="notice">Demo run on <strong>simulated</strong> members: a walk through the report, not a measurement.</p>',
    );
  const head = [
    'member',
    'key content',
    'graded',
    'win rate',
    'correct / $',
    'κ vs people',
    'where people agree',
    'ρ vs people',
    'α vs people',
    'offset (points)',
    'self-preference',
  ];
  const body = names
    .map((n) => {
      const m = member(n);
      const r = reviewer(n);
      const cells = [
        shareCell(m?.keyContent),
        shareCell(m?.graded),
        shareCell(m?.winRate),
        m?.correctPerDollar == null ? '–' : m.correctPerDollar.toFixed(1),
        figureCell(r?.preferences.kappa),
        shareCell(r?.preferences.clearPairs),
        figureCell(r?.scores.rho),
        figureCell(r?.scores.alpha),
        biasCell(r?.bias.offset),
        biasCell(r?.bias.selfPreference),
      ];
      return `<tr><th scope="row">${escapeXml(n)}</th>${cells.map((c) => `<td class="num">${escapeXml(c)}</td>`).join('')}</tr>`;
    })
    .join('');
  sections.push(
    '<h2>Accuracy · agreement · bias</h2>',
    `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table></div>`,
    `<p class="meta">95% intervals over items: Wilson’s score interval for a share, Wilson’s for the agreement mapped to κ, a percentile bootstrap for ρ; offsets come from the bias report over the eval’s sessions. Graded: items with only a reference answer, judged by ${escapeXml(report.grader === 'simulated' ? 'the demo’s simulated grader' : report.grader)} — a judgement, not a check. The council’s synthesis: ${escapeXml(shareCell(report.council))}.</p>`,
  );
  sections.push(
    '<h2>Accuracy</h2>',
    chart({
      id: 'eval-accuracy',
      title: 'Key-content accuracy',
      description:
        'Share of items whose answer passed the key-content check, per member and for the synthesis, with 95% intervals.',
      axisLabel: 'share correct',
      rows: [
        ...rowsOf(
          report.members,
          (m) => m.member,
          (m) => m.keyContent,
        ),
        ...rowsOf(
          [report],
          () => 'council (synthesis)',
          (r) => r.council,
        ),
      ],
      reference: 0,
      caption:
        'Each row is a member (and the council’s synthesis, which also counts items with only a reference answer); the bar is its 95% interval over items.',
    }),
    '<h2>Agreement with people</h2>',
    chart({
      id: 'eval-kappa',
      title: 'Cohen’s κ against people’s preferences',
      description: 'Agreement with the answer people preferred beyond chance, per reviewer, with 95% intervals.',
      axisLabel: 'κ (0 = chance, 1 = always as people)',
      rows: rowsOf(
        report.reviewers,
        (r) => r.reviewer,
        (r) => r.preferences.kappa,
      ),
      caption: 'A bar wholly right of the dashed line at 0: agreement beyond chance.',
    }),
    '<h2>Measured bias</h2>',
    chart({
      id: 'eval-offset',
      title: 'Reviewer offsets over the eval’s sessions',
      description: 'Points each reviewer gives the same answer beyond the typical reviewer, with 95% intervals.',
      axisLabel: 'points above (+) or below (−) the typical reviewer',
      rows: rowsOf(
        report.reviewers,
        (r) => r.reviewer,
        (r) => r.bias.offset,
      ),
      caption:
        'From the bias report over the same sessions: a harsh or generous judge can still be right, and a fair one wrong.',
    }),
  );
  if (report.sentences.length > 0)
    sections.push('<h2>In words</h2>', `<ul>${report.sentences.map((s) => `<li>${escapeXml(s)}</li>`).join('')}</ul>`);
  if (report.notes.length > 0)
    sections.push(`<ul class="meta">${report.notes.map((s) => `<li>${escapeXml(s)}</li>`).join('')}</ul>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>council eval</title><style>${CSS}</style></head><body><main>${sections.join('\n')}<footer class="meta">Journal: ${escapeXml(report.journal)}</footer></main></body></html>\n`;
}
