import { describeReason } from '@council/core';
import type { CouncilSession, SessionVerdict } from '@council/core';
import type { Style } from './create-style.js';
import { evidenceNotes, flipSentence } from './jury-sentences.js';
import { stripTerminalControls } from './strip-terminal-controls.js';

const signed = (margin: number) => `${margin >= 0 ? '+' : '−'}${Math.abs(margin).toFixed(2)}`;

/** A juror's line: its decision, weight, confidence, how it was read, and a flag the bias store raised about it as a reviewer. */
function voteLine(vote: SessionVerdict['votes'][number], width: number): string {
  const decision = vote.decision ?? 'failed';
  const parts = [
    `${vote.member.padEnd(width)}  ${decision.padEnd(7)}`,
    vote.decision === null ? 'no vote (its call failed)' : `weight ${vote.weight.toFixed(2)}`,
  ];
  if (vote.confidence !== null) parts.push(`confidence ${vote.confidence.toFixed(2)}`);
  if (vote.read === 'unread') parts.push('no decision could be read: counted unclear');
  else if (vote.read.endsWith('-repaired')) parts.push('read after a repair request');
  if (vote.reviewerFlags.length > 0) parts.push(`flagged as a reviewer: ${vote.reviewerFlags.join(', ')}`);
  return `  ${parts.join('  ')}`;
}

/** The verdict block of `ask`'s text output: the verdict, each member's decision, the margin, flip sensitivity, the dissent. */
export function renderVerdictText(verdict: SessionVerdict, style: Style): string {
  const width = Math.max(...verdict.votes.map((v) => v.member.length));
  const rule = { minMargin: verdict.minMargin, quorum: verdict.quorum };
  const decided = verdict.votes.filter((v) => v.decision === 'approve' || v.decision === 'reject').length;
  const lines = [
    style.bold(
      `Verdict: ${verdict.decision.toUpperCase()} (${describeReason({ ...verdict, decided }, rule)}; ${verdict.mode}, threshold ${verdict.minMargin.toFixed(2)})`,
    ),
    ...verdict.votes.map((v) => voteLine(v, width)),
    `Weighted: approve ${verdict.approveWeight.toFixed(2)}, reject ${verdict.rejectWeight.toFixed(2)}, unclear ${verdict.unclearWeight.toFixed(2)} of ${verdict.totalWeight.toFixed(2)}; margin ${signed(verdict.margin)}.`,
    flipSentence(verdict),
  ];
  if (verdict.chairmanDecision !== null) lines.push(`The chairman's own decision: ${verdict.chairmanDecision}.`);
  lines.push(
    verdict.dissent === null ? 'Dissent: none written.' : `Dissent: ${stripTerminalControls(verdict.dissent)}`,
  );
  for (const warning of verdict.warnings) lines.push(style.dim(`note: ${warning}`));
  return `\n${lines.join('\n')}\n`;
}

/** The session's verdict and evidence notes for the text output; empty outside jury mode without evidence. */
export function renderJuryText(session: Pick<CouncilSession, 'verdict' | 'evidence'>, style: Style): string {
  const verdict = session.verdict === undefined ? '' : renderVerdictText(session.verdict, style);
  const notes = evidenceNotes(session.evidence).map((n) => style.dim(n));
  return `${verdict}${notes.length > 0 ? `\n${notes.join('\n')}\n` : ''}`;
}
