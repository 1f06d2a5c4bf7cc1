import { describeReason } from '@council/core';
import type { CouncilSession, JuryDecision, SessionOutcome } from '@council/core';
import { describeShortfalls } from '../council-outcome.js';
import type { EvidenceExclusion, EvidenceRedaction } from '../evidence/read-evidence.js';
import { flipSentence } from '../jury-sentences.js';

/** `council gate`'s exit codes: 0 approve, 1 reject, 2 unclear or the council incomplete (or the gate could not run). */
export const GATE_EXIT_CODES = { approve: 0, reject: 1, unclear: 2 } as const satisfies Record<JuryDecision, number>;

/** What the gate decided, from the session: the verdict, unless the council is incomplete (then unclear) or a threshold holds it back. */
export interface GateDecision {
  decision: JuryDecision;
  exitCode: 0 | 1 | 2;
  /** Why the decision differs from the verdict's, when it does (incomplete council, --require-unanimous). */
  override: string | null;
}

export function gateDecision(
  session: Pick<CouncilSession, 'verdict'>,
  outcome: SessionOutcome,
  options: { requireUnanimous: boolean },
): GateDecision {
  const verdict = session.verdict;
  if (verdict === undefined) return { decision: 'unclear', exitCode: 2, override: 'the session has no verdict' };
  // A council that did not finish (a failed chairman, no review read) never passes a gate: its rationale is missing.
  if (!outcome.complete)
    return {
      decision: 'unclear',
      exitCode: 2,
      override: `the council is incomplete (${describeShortfalls(outcome)}), so the gate does not pass`,
    };
  if (options.requireUnanimous && verdict.decision === 'approve') {
    const others = verdict.votes.filter((v) => v.decision !== 'approve');
    if (others.length > 0)
      return {
        decision: 'unclear',
        exitCode: 2,
        override: `--require-unanimous: ${others.map((v) => `${v.member} (${v.decision ?? 'failed'})`).join(', ')} did not approve`,
      };
  }
  return { decision: verdict.decision, exitCode: GATE_EXIT_CODES[verdict.decision], override: null };
}

const ICON: Record<JuryDecision, string> = { approve: '✅', reject: '❌', unclear: '⚠️' };
const signed = (margin: number) => `${margin >= 0 ? '+' : '−'}${Math.abs(margin).toFixed(2)}`;

/** One table cell: no pipes or line breaks. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** At most `max` characters, cut at a word, with an ellipsis. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 20))} …`;
}

export interface GateSummaryOptions {
  session: CouncilSession;
  gate: GateDecision;
  /** What the question was: the policy file's name, or null for a question given as text. */
  policy: string | null;
  excluded: readonly EvidenceExclusion[];
  redacted: readonly EvidenceRedaction[];
  transcript: { path: string; sha256: string } | null;
  simulated: boolean;
}

/**
 * The one-screen Markdown summary of a gate run, for a pull request comment or `$GITHUB_STEP_SUMMARY`: the decision
 * and exit code, the verdict's reason and margin, flip sensitivity, each member's decision (a reviewer the bias store
 * flagged named beside its vote), the rationale and the dissent (clipped), what evidence was cut, excluded, redacted
 * or flagged, and the transcript's hash.
 */
export function renderGateSummary(options: GateSummaryOptions): string {
  const { session, gate } = options;
  const verdict = session.verdict!;
  const lines: string[] = [];
  lines.push(`## ${ICON[gate.decision]} Council gate: ${gate.decision.toUpperCase()} (exit ${gate.exitCode})`, '');
  const question =
    options.policy === null ? clip(session.query.split('\n')[0]!, 200) : `the policy in \`${options.policy}\``;
  lines.push(`**Question:** ${question}`);
  const decided = verdict.votes.filter((v) => v.decision === 'approve' || v.decision === 'reject').length;
  const reason = describeReason({ ...verdict, decided }, verdict);
  lines.push(
    `**Verdict:** ${verdict.decision} — ${reason} (${verdict.mode} mode, threshold ${verdict.minMargin.toFixed(2)}, quorum ${verdict.quorum}).`,
  );
  if (gate.override !== null) lines.push(`**Gate:** ${gate.override}.`);
  lines.push(`**Sensitivity:** ${flipSentence(verdict)}`, '');
  lines.push('| Member | Decision | Weight | Confidence | Known reviewer bias |', '| --- | --- | ---: | ---: | --- |');
  for (const v of verdict.votes) {
    const decision = v.decision === null ? 'failed' : v.read === 'unread' ? 'unclear (unreadable)' : v.decision;
    lines.push(
      `| ${cell(v.member)} | ${decision} | ${v.decision === null ? '—' : v.weight.toFixed(2)} | ${v.confidence === null ? '—' : v.confidence.toFixed(2)} | ${v.reviewerFlags.length === 0 ? '—' : cell(v.reviewerFlags.join(', '))} |`,
    );
  }
  lines.push(
    '',
    `Weighted margin ${signed(verdict.margin)} (approve ${verdict.approveWeight.toFixed(2)}, reject ${verdict.rejectWeight.toFixed(2)}, unclear ${verdict.unclearWeight.toFixed(2)}); each vote weighs 1 + its Borda score from the blind peer review.`,
  );
  if (verdict.rationale !== null && verdict.rationale !== '')
    lines.push('', '### Rationale', '', clip(verdict.rationale, 900));
  lines.push(
    '',
    '### Dissent',
    '',
    verdict.dissent === null ? '_The chairman wrote none._' : clip(verdict.dissent, 600),
  );
  const evidence: string[] = [];
  for (const item of session.evidence ?? []) {
    const size = item.cut ? `cut to ${item.keptChars} of ${item.chars} characters` : `${item.chars} characters`;
    evidence.push(`- \`${item.name}\`: ${size}`);
    for (const i of item.injections)
      evidence.push(`  - line ${i.line} looks like a prompt injection (${i.signals.join(', ')})`);
  }
  for (const e of options.excluded) evidence.push(`- excluded \`${e.name}\`: ${e.reason}`);
  for (const r of options.redacted) evidence.push(`- redacted \`${r.name}\` line ${r.line}: ${r.description}`);
  if (evidence.length > 0) lines.push('', '<details><summary>Evidence</summary>', '', ...evidence, '', '</details>');
  const footer = [
    options.transcript === null
      ? null
      : `Transcript \`${options.transcript.path}\`, sha256 \`${options.transcript.sha256}\`.`,
    options.simulated ? 'Simulated members (offline demo): the decisions are not real reviews.' : null,
  ].filter((x) => x !== null);
  if (footer.length > 0) lines.push('', `<sub>${footer.join(' ')}</sub>`);
  return `${lines.join('\n')}\n`;
}
