import type { BiasStyleControlled } from './bias-style-controlled.js';
import {
  ANALYTICS_ONLY,
  calibratedOrderSentence,
  effectiveJudgesSentence,
  figureText,
  judgePairSentence,
  noSpreadSentence,
  poolingPriorSentence,
  pooledOffsetSentence,
  signed,
  styleCoefficientSentence,
  styleOrderSentence,
} from './calibrated-findings.js';
import type { BiasReportDocument } from './commands/bias-report-command.js';
import { countNoun } from './count-noun.js';
import type { Style } from './create-style.js';
import { renderTable } from './render-table.js';

const elo = (x: number): string => x.toFixed(0);
const span = (i: { lower: number; upper: number } | null): string =>
  i === null ? '' : ` [${elo(i.lower)}, ${elo(i.upper)}]`;

/**
 * Issue 31's sections of the text bias report: the calibrated leaderboard beside the raw one, how many judges the
 * council really has, the reviewer offsets pooled toward the typical reviewer (the prior stated), and the
 * style-controlled ratings beside the plain ones; each opens with the sentence a team lead reads, then its table.
 * `verbose` adds the judge pairs and how the pooled offsets moved as sessions arrived.
 */
export function renderCalibratedText(options: {
  calibrated: NonNullable<BiasReportDocument['calibrated']>;
  /** Absent: no style-controlled section. */
  styleControlled?: BiasStyleControlled | undefined;
  style: Style;
  verbose: boolean;
}): string {
  const { calibrated: view, styleControlled, style: s } = options;
  const out: string[] = [];

  out.push(s.bold(`Calibrated leaderboard (${view.note})`));
  if (view.leaderboard.length === 0) {
    out.push('  No answer was scored by another member in this window: nothing to calibrate.');
  } else {
    out.push(
      `  Each member's mean score with each reviewer's offset and the display positions' effects taken out, beside the raw mean (${countNoun(view.observations, 'score')} in ${countNoun(view.sessions, 'session')}, self-reviews left out).`,
    );
    if (!view.identified)
      out.push(
        s.yellow(
          "  These records cannot put every reviewer's offset and display position on one scale (reviewers who never scored a common answer, or answers always shown in the same place to all): the calibrated column repeats the raw one.",
        ),
      );
    else out.push(`  ${noSpreadSentence(view) ?? calibratedOrderSentence(view)}`);
    out.push(
      renderTable({
        head: [
          'rank',
          'member',
          `calibrated [${Math.round(view.level * 100)}% interval]`,
          'raw [interval]',
          'raw rank',
          'answers',
        ],
        align: ['right', 'left', 'right', 'right', 'right', 'right'],
        style: s,
        rows: view.leaderboard.map((e) => [
          String(e.calibratedRank),
          e.model,
          figureText(e.calibrated),
          figureText(e.raw),
          String(e.rawRank),
          String(e.answers),
        ]),
      }).trimEnd(),
    );
  }
  out.push('');

  const judges = view.effectiveJudges;
  out.push(s.bold('How many judges you really have'));
  out.push(`  ${effectiveJudgesSentence(judges)}`);
  const measured = judges.effective.estimate !== null && Number.isFinite(judges.effective.estimate);
  if (measured && options.verbose) for (const pair of judges.pairs) out.push(`  ${judgePairSentence(pair)}.`);
  else if (measured) {
    // The pair that errs most alike, if any does: the one a team lead may want to replace.
    const alike = [...judges.pairs]
      .filter((p) => p.correlation.estimate !== null && p.correlation.estimate >= 0.5)
      .sort((a, b) => b.correlation.estimate - a.correlation.estimate)[0];
    if (alike !== undefined) out.push(`  ${judgePairSentence(alike)}.`);
  }
  out.push('');

  const pooled = view.partialPooling.reviewerOffsets;
  if (pooled.effects.length > 0) {
    out.push(s.bold('Reviewer offsets pooled toward the typical reviewer (points; negative = harsh)'));
    out.push(`  ${poolingPriorSentence(pooled.prior)}`);
    out.push(
      renderTable({
        head: ['reviewer', 'measured', `pooled [${Math.round(pooled.level * 100)}% interval]`, 'kept'],
        align: ['left', 'right', 'right', 'right'],
        style: s,
        rows: pooled.effects.map((e) => [
          e.subject,
          signed(e.raw),
          figureText(e, { signed: true }),
          `${Math.round(e.shrinkage * 100)}%`,
        ]),
      }).trimEnd(),
    );
    if (options.verbose)
      for (const checkpoint of view.partialPooling.asDataArrives)
        out.push(
          `  after the first ${countNoun(checkpoint.sessions, 'session')}: ${checkpoint.offsets
            .map((o) => pooledOffsetSentence({ ...o, subject: o.reviewer }))
            .join('; ')}`,
        );
    out.push('');
  }

  if (styleControlled === undefined) {
    out.push(s.dim(`  ${ANALYTICS_ONLY}`), '');
    return out.join('\n');
  }
  out.push(s.bold("Style-controlled ratings (Bradley–Terry from the reviewers' rankings, Elo scale)"));
  if (!styleControlled.computable) {
    out.push(`  Not computable: ${styleControlled.reason}.`);
  } else {
    out.push(`  ${styleOrderSentence(styleControlled)}`);
    for (const c of styleControlled.coefficients) out.push(`  ${styleCoefficientSentence(c)}.`);
    const plain = new Map(styleControlled.plain.map((e) => [e.candidate, e]));
    out.push(
      renderTable({
        head: ['rank', 'member', 'style-controlled [interval]', 'plain [interval]', 'plain rank'],
        align: ['right', 'left', 'right', 'right', 'right'],
        style: s,
        rows: styleControlled.styleControlled.map((e) => {
          const p = plain.get(e.candidate);
          return [
            String(e.rank),
            e.candidate,
            `${elo(e.rating)}${span(e.interval)}`,
            p === undefined ? 'n/a' : `${elo(p.rating)}${span(p.interval)}`,
            p === undefined ? '' : String(p.rank),
          ];
        }),
      }).trimEnd(),
    );
    out.push(
      s.dim(
        `  ${countNoun(styleControlled.comparisons, 'pairwise preference')} in ${countNoun(styleControlled.sessions, 'session')}; ${styleControlled.note}.`,
      ),
    );
  }
  out.push(s.dim(`  ${ANALYTICS_ONLY}`));
  out.push('');
  return out.join('\n');
}
