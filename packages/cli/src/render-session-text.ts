import type { CouncilSession, Exclusion } from '@council/core';
import type { Style } from './create-style.js';
import { renderTable } from './render-table.js';
import { answerHeading } from './synthesis-stream-printer.js';

function n(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
}

function cost(costUsd: number | null): string {
  return costUsd === null ? 'cost not reported' : `$${costUsd.toFixed(costUsd < 0.01 ? 4 : 2)}`;
}

/**
 * A finished session for the terminal: the chairman's answer, the attribution footer, the leaderboard,
 * agreement, the bias indicators (none of the three for an unranked session), the session's notes and what
 * was excluded. `simulated` labels every part as simulated; `answerStreamed` leaves out the answer already printed.
 */
export function renderSessionText(options: { session: Omit<CouncilSession, 'query'>; style: Style; simulated: boolean; answerStreamed?: boolean }): string {
  const { session, style: s } = options;
  const tag = options.simulated ? ` ${s.magenta('[simulated]')}` : '';
  const out: string[] = [];
  const synthesis = session.synthesis;
  if (synthesis) {
    // When the answer was streamed as it was written (`createSynthesisStreamPrinter`), only what follows it is left.
    if (options.answerStreamed !== true) {
      out.push(answerHeading({ chairman: synthesis.model, strategy: synthesis.strategy, mode: synthesis.mode, style: s, simulated: options.simulated }));
      out.push('');
      out.push(synthesis.text.trim());
    }
    out.push('');
    if (synthesis.contributors && synthesis.contributors.length > 0) {
      out.push(s.dim(`Synthesised from: ${synthesis.contributors.map((c) => `${c.id} (${Math.round(c.weight * 100)}%)`).join(', ')}`));
    } else {
      out.push(s.dim(`Synthesised from: not reported${synthesis.warnings[0] ? ` (${synthesis.warnings[0]})` : ''}`));
    }
    if (synthesis.winner) out.push(`Winner (voting mode): ${synthesis.winner}${synthesis.winnerSource === 'borda-leader' ? ' (the Borda leader: the chairman named no winner)' : ''}`);
    for (const w of synthesis.warnings.slice(synthesis.contributors ? 0 : 1)) out.push(s.yellow(`warning: ${w}`));
  } else if (session.costCap?.stoppedBeforeStage != null) {
    out.push(...costCapStopLines({ session, style: s, tag }));
  } else {
    out.push(s.red('No synthesis: every chairman failed. The answers and the leaderboard below are kept.') + tag);
  }
  out.push('');
  // An unranked session (fewer than three answers): no table, agreement or indicators; its warning below says why, once.
  if (session.leaderboard.length > 0) out.push(...rankingLines({ session, style: s, tag }));
  for (const w of session.warnings) out.push(s.yellow(`note: ${w}`));
  for (const x of session.excluded) out.push(s.yellow(`Excluded: ${x.member} at stage ${x.stage} (${x.reason === 'too-large' ? 'reply too large' : x.reason}): ${exclusionMessage(x)}`));
  if (session.conversation) out.push(s.dim(`Conversation ${session.conversation.id} · follows session ${session.conversation.previousSessionId}`));
  out.push(s.dim(`Session ${session.sessionId} · ${session.usage.tokens.toLocaleString('en-US')} tokens · ${cost(session.usage.costUsd)}`));
  return out.join('\n') + '\n';
}

/** An exclusion's message in one line; a reply too large names the key that raises the limit. */
function exclusionMessage(x: Exclusion): string {
  const line = x.message.split('\n')[0]!;
  return x.reason === 'too-large' ? `${line.split('. ')[0]!.replace(/^reply too large: /, '')}. Raise max_reply_bytes in config.yaml to accept longer replies.` : line;
}

/** A session the cost cap stopped: which stage it stopped before and, before stage 2, the answers it kept (nobody else shows them). */
function costCapStopLines(options: { session: Omit<CouncilSession, 'query'>; style: Style; tag: string }): string[] {
  const { session, style: s, tag } = options;
  const stage = session.costCap!.stoppedBeforeStage;
  const out = [s.yellow(`No synthesis: the cost cap stopped the council before stage ${stage} (${stage === 2 ? 'review' : 'synthesis'}); what finished is kept (see the note below).`) + tag];
  if (stage !== 2) return out;
  for (const answer of session.stage1.filter((a) => a.text !== null)) out.push('', s.bold(`Answer from ${answer.member} (not reviewed)`) + tag, answer.text!.trim());
  return out;
}

/** The leaderboard table, reviewer agreement and the bias indicators line of a ranked session. */
function rankingLines(options: { session: Omit<CouncilSession, 'query'>; style: Style; tag: string }): string[] {
  const { session, style: s, tag } = options;
  const out: string[] = [];
  out.push(s.bold('Leaderboard') + tag);
  const modelOf = new Map(session.stage1.map((r) => [r.member, r.model]));
  out.push(
    renderTable({
      head: ['rank', 'member', 'Borda score', 'points', 'votes', 'wins', 'confidence'],
      align: ['right', 'left', 'right', 'right', 'right', 'right', 'left'],
      style: s,
      rows: session.leaderboard.map((e) => [
        String(e.finalRank),
        modelOf.get(e.candidate) && modelOf.get(e.candidate) !== e.candidate ? `${e.candidate} (${modelOf.get(e.candidate)})` : e.candidate,
        e.bordaScore.toFixed(3),
        n(e.bordaPoints, 2),
        String(e.voteCount),
        String(e.winCount),
        e.confidence,
      ]),
    }),
  );
  const a = session.agreement;
  out.push(
    `Agreement over ${a.ballots} ballots: Kendall's W ${n(a.kendallW)}${a.kendallWPValue === null ? '' : ` (p ${a.kendallWPValue < 0.001 ? '< 0.001' : a.kendallWPValue.toFixed(3)})`}, Krippendorff's α on rankings ${n(a.krippendorffAlpha)}`,
  );
  const b = session.biasIndicators;
  if (b) {
    const flags = b.flags.length ? b.flags.join(', ') : 'none';
    out.push(
      `Bias indicators (one session: indicators, not proof): position variance ${n(b.position_variance, 3)}, length correlation ${n(b.length_correlation, 3)}, reviewer agreement (α on scores) ${n(b.reviewer_agreement, 3)}; flags: ${b.flags.length ? s.yellow(flags) : flags}`,
    );
  } else {
    out.push(s.dim('Bias indicators: not computed for this session.'));
  }
  return out;
}
