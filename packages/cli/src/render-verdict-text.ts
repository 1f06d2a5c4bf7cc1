import { describeReason } from '@council/core';
import type { CouncilSession, EvidenceReport, SessionVerdict } from '@council/core';
import type { Style } from './create-style.js';
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

/** Who could flip the verdict alone, in one sentence. */
export function flipSentence(verdict: SessionVerdict): string {
  if (!verdict.flipSensitive) return 'No single member changing its vote would change the verdict.';
  const who = verdict.pivotal.join(', ');
  return `Fragile: ${verdict.pivotal.length === 1 ? `${who} changing its vote` : `any one of ${who} changing its vote`} would change the verdict.`;
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

/** Per evidence item: what was cut, and which lines looked like injections; empty when nothing is to say. */
export function evidenceNotes(evidence: readonly EvidenceReport[] | undefined): string[] {
  const notes: string[] = [];
  for (const item of evidence ?? []) {
    if (item.cut)
      notes.push(
        item.keptChars === 0
          ? `evidence ${item.name}: left out by the evidence cap (${item.chars} characters).`
          : `evidence ${item.name}: cut to ${item.keptChars} of ${item.chars} characters by the evidence cap.`,
      );
    for (const injection of item.injections)
      notes.push(
        `evidence ${item.name}:${injection.line}: looks like a prompt injection (${injection.signals.join(', ')}); the members were told to treat it as data.`,
      );
  }
  return notes;
}

/** The session's verdict and evidence notes for the text output; empty outside jury mode without evidence. */
export function renderJuryText(session: Pick<CouncilSession, 'verdict' | 'evidence'>, style: Style): string {
  const verdict = session.verdict === undefined ? '' : renderVerdictText(session.verdict, style);
  const notes = evidenceNotes(session.evidence).map((n) => style.dim(n));
  return `${verdict}${notes.length > 0 ? `\n${notes.join('\n')}\n` : ''}`;
}
