import type { CalibratedFigure, CalibratedView } from '@council/bias-audit';
import type { Style } from '../create-style.js';
import { countNoun } from '../count-noun.js';
import { renderTable } from '../render-table.js';

const points = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
const interval = (f: CalibratedFigure, signed = false): string =>
  f.lower === null || f.upper === null
    ? 'n/a'
    : `[${signed ? points(f.lower) : f.lower.toFixed(2)}, ${signed ? points(f.upper) : f.upper.toFixed(2)}]`;

/**
 * `council leaderboard --calibrated` in text: the scores' leaderboard raw beside calibrated (each reviewer's offset
 * and the display positions' effects taken out), the offsets and position effects that were taken out, and the line
 * that says nothing of it reached a live vote.
 */
export function renderCalibratedLeaderboard(view: CalibratedView, s: Style): string {
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
    if (view.reviewerOffsets.length > 0)
      lines.push(
        `Taken out: reviewer offsets from the median reviewer ${view.reviewerOffsets
          .map((o) => `${o.reviewer} ${points(o.estimate)} ${interval(o, true)}`)
          .join(', ')}; display positions ${view.positionEffects
          .map((p) => `${p.position + 1}: ${points(p.estimate)}`)
          .join(', ')}.`,
      );
  }
  lines.push(`${view.note[0]!.toUpperCase()}${view.note.slice(1)}.`);
  return `${lines.join('\n')}\n`;
}
