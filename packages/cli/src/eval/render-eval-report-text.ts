import { countNoun } from '../count-noun.js';
import type { Style } from '../create-style.js';
import { renderTable } from '../render-table.js';
import { pct, signed } from './compute-eval-report.js';
import type { BiasFigure, EvalFigure, EvalReport, EvalShare } from './compute-eval-report.js';

function shareCell(s: EvalShare): string {
  if (s.estimate === null) return '—';
  return `${pct(s.estimate)} ${s.interval ? `[${pct(s.interval.lower)}, ${pct(s.interval.upper)}]` : '(few)'} n=${s.n}`;
}

function figureCell(f: EvalFigure): string {
  if (f.n === 0) return '—';
  if (f.estimate === null) return `undefined n=${f.n}`;
  return `${signed(f.estimate)} ${f.interval ? `[${signed(f.interval.lower)}, ${signed(f.interval.upper)}]` : '(few)'} n=${f.n}`;
}

function biasCell(b: BiasFigure | null): string {
  if (b === null || b.estimate === null) return '—';
  return `${signed(b.estimate)}${b.interval ? ` [${signed(b.interval.lower)}, ${signed(b.interval.upper)}]` : ''}`;
}

/**
 * The eval report as text: what was run, one table "accuracy · agreement · bias" with a row per member (`(few)`: κ or ρ on
 * fewer items than an interval needs; `—`: no items of that kind), the council against its best member, then every
 * figure in a sentence, then the notes.
 */
export function renderEvalReportText(report: EvalReport, s: Style): string {
  const lines: string[] = [];
  const { items } = report;
  lines.push(
    `${s.bold('council eval')}: ${items.done} of ${items.total} items done (${items.withCouncil} answered by the council, ${countNoun(items.withPreference, 'human preference')}, ${countNoun(items.withScore, 'human score')}). Journal: ${report.journal}`,
  );
  if (report.demo) lines.push(s.yellow('Demo run on simulated members: a walk through the report, not a measurement.'));
  const byMember = new Map(report.reviewers.map((r) => [r.reviewer, r]));
  const names = [...new Set([...report.members.map((m) => m.member), ...report.reviewers.map((r) => r.reviewer)])];
  lines.push(
    '',
    s.bold('Accuracy · agreement · bias (95% intervals over items)'),
    renderTable({
      head: ['member', 'key content', 'graded*', 'win rate', 'correct/$', 'κ vs people', 'ρ vs people', 'offset (pts)'],
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      style: s,
      rows: names.map((name) => {
        const m = report.members.find((x) => x.member === name);
        const r = byMember.get(name);
        return [
          name,
          m ? shareCell(m.keyContent) : '—',
          m ? shareCell(m.graded) : '—',
          m ? shareCell(m.winRate) : '—',
          m?.correctPerDollar == null ? '—' : m.correctPerDollar.toFixed(1),
          r ? figureCell(r.preferences.kappa) : '—',
          r ? figureCell(r.scores.rho) : '—',
          r ? biasCell(r.bias.offset) : '—',
        ];
      }),
    }).trimEnd(),
    `${s.dim(`* graded: items with only a reference answer, judged by ${report.grader === 'simulated' ? 'the demo’s simulated grader' : report.grader} — a judgement, not a check. Synthesis: ${shareCell(report.council)}.`)}`,
  );
  if (report.sentences.length > 0) lines.push('', s.bold('In words'), ...report.sentences.map((x) => `- ${x}`));
  if (report.notes.length > 0) lines.push('', ...report.notes.map((x) => s.dim(`Note: ${x}`)));
  return `${lines.join('\n')}\n`;
}
