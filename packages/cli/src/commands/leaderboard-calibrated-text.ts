import type { CalibratedFigure, CalibratedView, EffectiveJudges } from '@council/bias-audit';
import type { StyleControlledRatings } from '@council/scoring';
import {
  ANALYTICS_ONLY,
  effectiveJudgesSentence,
  figureText,
  noSpreadSentence,
  signed,
  styleCoefficientSentence,
  styleOrderSentence,
} from '../calibrated-findings.js';
import type { Style } from '../create-style.js';
import type { StyleNotComputable } from './leaderboard-command.js';
import { countNoun } from '../count-noun.js';
import { renderTable } from '../render-table.js';

const interval = (f: CalibratedFigure): string =>
  f.lower === null || f.upper === null ? 'n/a' : `[${f.lower.toFixed(2)}, ${f.upper.toFixed(2)}]`;

const elo = (x: number): string => x.toFixed(0);

/**
 * `council leaderboard --calibrated` in text: the scores' leaderboard raw beside calibrated (each reviewer's offset
 * and the display positions' effects taken out), the offsets and position effects that were taken out, how many
 * independent judges the reviewers are worth, the style-controlled Bradley–Terry ratings beside the plain ones, and
 * the line that says nothing of it reached a live vote.
 */
export function renderCalibratedLeaderboard(
  report: {
    view: CalibratedView & { effectiveJudges?: EffectiveJudges };
    styleControlled?: StyleControlledRatings | StyleNotComputable | undefined;
  },
  s: Style,
): string {
  const { view, styleControlled } = report;
  const lines: string[] = [];
  lines.push(
    `${s.bold('Calibrated leaderboard')} (mean score of each member's answers, from ${countNoun(view.observations, 'score')} in ${countNoun(view.sessions, 'session')}; self-reviews left out)`,
  );
  if (view.leaderboard.length === 0) {
    lines.push('No answer was scored by another member yet: nothing to calibrate.');
  } else {
    if (!view.identified)
      lines.push(
        'The reviewers never scored a common answer, so their offsets cannot be compared: the calibrated column repeats the raw one.',
      );
    lines.push(
      renderTable({
        head: ['rank', 'member', 'calibrated', '95% interval', 'raw', '95% interval', 'raw rank', 'answers'],
        align: ['right', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
        style: s,
        rows: view.leaderboard.map((e) => [
          String(e.calibratedRank),
          e.model,
          e.calibrated.estimate.toFixed(2),
          interval(e.calibrated),
          e.raw.estimate.toFixed(2),
          interval(e.raw),
          String(e.rawRank),
          String(e.answers),
        ]),
      }).trimEnd(),
    );
    const flat = noSpreadSentence(view);
    if (flat !== null) lines.push(flat);
    if (view.reviewerOffsets.length > 0)
      lines.push(
        `Taken out: reviewer offsets from the median reviewer ${view.reviewerOffsets
          .map((o) => `${o.reviewer} ${figureText(o, { signed: true })}`)
          .join(', ')}; display positions ${view.positionEffects
          .map((p) => `${p.position + 1}: ${signed(p.estimate)}`)
          .join(', ')}.`,
      );
  }
  // n_eff in the bias report's words (calibrated-findings.ts), so the two commands say it one way.
  if (view.effectiveJudges !== undefined)
    lines.push(s.bold('How many judges you really have'), effectiveJudgesSentence(view.effectiveJudges));
  if (styleControlled !== undefined) {
    if (!('plain' in styleControlled))
      lines.push(`Style-controlled ratings: not computable (${styleControlled.reason})`);
    else {
      const plain = new Map(styleControlled.plain.map((e) => [e.candidate, e]));
      lines.push(
        `${s.bold('Style-controlled Bradley–Terry')} (Elo scale, ${countNoun(styleControlled.comparisons, 'pairwise preference')}; length and style as covariates, beside the plain fit)`,
      );
      const span = (i: { lower: number; upper: number } | null): string =>
        i === null ? 'n/a' : `[${elo(i.lower)}, ${elo(i.upper)}]`;
      lines.push(
        renderTable({
          head: ['rank', 'member', 'style-controlled', '95% interval', 'plain', '95% interval', 'plain rank'],
          align: ['right', 'left', 'right', 'right', 'right', 'right', 'right'],
          style: s,
          rows: styleControlled.styleControlled.map((e) => {
            const p = plain.get(e.candidate)!;
            return [
              String(e.rank),
              e.candidate,
              elo(e.rating),
              span(e.interval),
              elo(p.rating),
              span(p.interval),
              String(p.rank),
            ];
          }),
        }).trimEnd(),
      );
      // Each feature's pull in the bias report's words (calibrated-findings.ts), not its machine name.
      lines.push(styleOrderSentence(styleControlled));
      for (const c of styleControlled.coefficients) lines.push(`${styleCoefficientSentence(c)}.`);
    }
  }
  lines.push(ANALYTICS_ONLY);
  return `${lines.join('\n')}\n`;
}
