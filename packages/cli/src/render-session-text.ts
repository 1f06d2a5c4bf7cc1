import { flagName } from './bias-findings.js';
import { responseLabel } from '@council/core';
import type { CallError, CouncilSession, Exclusion, Stage1Result, Stage2Result } from '@council/core';
import type { Style } from './create-style.js';
import { renderTable } from './render-table.js';
import { renderTerminalMarkdown } from './render-terminal-markdown.js';
import type { SessionShow } from './session-show.js';
import { SHOW_NONE } from './session-show.js';
import { stripTerminalControls } from './strip-terminal-controls.js';
import { answerHeading } from './synthesis-stream-printer.js';

function n(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
}

function cost(costUsd: number | null): string {
  return costUsd === null ? 'cost not reported' : `$${costUsd.toFixed(costUsd < 0.01 ? 4 : 2)}`;
}

/**
 * A finished session for the terminal: the members' answers and the reviews as `show` asks, the chairman's answer,
 * the attribution footer, the leaderboard, agreement, the bias indicators (none of the three for an unranked
 * session), the session's notes and what was excluded. `simulated` labels every part as simulated;
 * `answerStreamed` leaves out the answer already printed, and `shownBefore` the answers and reviews printed before
 * it (`renderAnswersAndReviews`). A session without a synthesis (every chairman failed, or the cost cap stopped it)
 * always shows the members' answers: they are then all the council said.
 */
export function renderSessionText(options: {
  session: Omit<CouncilSession, 'query'>;
  style: Style;
  simulated: boolean;
  answerStreamed?: boolean;
  /** Answers and reviews to show beyond the synthesis; default neither. */
  show?: SessionShow;
  /** What `show` asks for was printed already, before the streamed synthesis. */
  shownBefore?: boolean;
}): string {
  const { session, style: s } = options;
  const show = options.show ?? SHOW_NONE;
  const shownBefore = options.shownBefore === true;
  const tag = options.simulated ? ` ${s.magenta('[simulated]')}` : '';
  const out: string[] = [];
  const synthesis = session.synthesis;
  const answersAbove = shownBefore && show.answers;
  // What is still to show here: with no synthesis, the answers whatever `show` says, unless they are above.
  const rest: SessionShow = {
    answers: !answersAbove && (show.answers || synthesis === null),
    reviews: !shownBefore && show.reviews,
  };
  const sections = renderAnswersAndReviews({
    stage1: session.stage1,
    stage2: session.stage2,
    show: rest,
    style: s,
    simulated: options.simulated,
    notReviewed: session.costCap?.stoppedBeforeStage === 2,
  });
  if (synthesis) {
    if (sections.length > 0) out.push(...sections, '');
    // When the answer was streamed as it was written (`createSynthesisStreamPrinter`), only what follows it is left.
    if (options.answerStreamed !== true) {
      out.push(
        answerHeading({
          chairman: synthesis.model,
          strategy: synthesis.strategy,
          mode: synthesis.mode,
          style: s,
          simulated: options.simulated,
        }),
      );
      out.push('');
      out.push(stripTerminalControls(synthesis.text.trim()));
    }
    out.push('');
    if (synthesis.contributors && synthesis.contributors.length > 0) {
      out.push(
        s.dim(
          `Synthesised from: ${synthesis.contributors.map((c) => `${c.id} (${Math.round(c.weight * 100)}%)`).join(', ')}`,
        ),
      );
    } else {
      out.push(s.dim(`Synthesised from: not reported${synthesis.warnings[0] ? ` (${synthesis.warnings[0]})` : ''}`));
    }
    if (synthesis.winner)
      out.push(
        `Winner (voting mode): ${synthesis.winner}${synthesis.winnerSource === 'borda-leader' ? ' (the Borda leader: the chairman named no winner)' : ''}`,
      );
    for (const w of synthesis.warnings.slice(synthesis.contributors ? 0 : 1)) out.push(s.yellow(`warning: ${w}`));
  } else {
    if (session.costCap?.stoppedBeforeStage != null) {
      const stage = session.costCap.stoppedBeforeStage;
      out.push(
        s.yellow(
          `No synthesis: the cost cap stopped the council before stage ${stage} (${stage === 2 ? 'review' : 'synthesis'}); what finished is kept (see the note below).`,
        ) + tag,
      );
    } else if (session.config.synthesis === false) {
      out.push(
        s.dim(`No synthesis: none was asked for (--no-synthesis); the ranking below is the council's result.`) + tag,
      );
    } else {
      const board = session.leaderboard.length > 0;
      const kept = answersAbove
        ? `The members' answers above${board ? ' and the leaderboard below' : ''} are kept.`
        : `The members' answers${board ? ' and the leaderboard' : ''} below are kept.`;
      out.push(s.red(`No synthesis: every chairman failed. ${kept}`) + tag);
    }
    if (sections.length > 0) out.push('', ...sections);
  }
  out.push('');
  // An unranked session (fewer than three answers): no table, agreement or indicators; its warning below says why, once.
  if (session.leaderboard.length > 0) out.push(...rankingLines({ session, style: s, tag }));
  for (const w of session.warnings) out.push(s.yellow(`note: ${w}`));
  for (const x of session.excluded)
    out.push(
      s.yellow(
        `Excluded: ${x.member} at stage ${x.stage} (${x.reason === 'too-large' ? 'reply too large' : x.reason}): ${exclusionMessage(x)}`,
      ),
    );
  if (session.conversation)
    out.push(
      s.dim(`Conversation ${session.conversation.id} · follows session ${session.conversation.previousSessionId}`),
    );
  out.push(
    s.dim(
      `Session ${session.sessionId} · ${session.usage.tokens.toLocaleString('en-US')} tokens · ${cost(session.usage.costUsd)}`,
    ),
  );
  return out.join('\n') + '\n';
}

const FAILURES: Record<string, string> = {
  timeout: 'timed out',
  error: 'failed',
  empty: 'empty answer',
  aborted: 'aborted',
  'too-large': 'reply too large',
};

/** Why a call failed: " (timed out): " and the first line of the provider's message, cut at 160 characters. */
function failure(error: CallError | null): string {
  if (error === null) return ' (failed)';
  const first = stripTerminalControls(error.message.split('\n')[0] ?? '').trim();
  const message = first.length > 160 ? `${first.slice(0, 159)}…` : first;
  return ` (${FAILURES[error.reason] ?? error.reason})${message === '' ? '' : `: ${message}`}`;
}

/** "alpha", or "careful (openai/gpt-4o)" when a personality or an alias played by another model. */
function who(member: string, model: string | undefined): string {
  return model === undefined || model === member ? member : `${member} (${model})`;
}

/**
 * The members' answers (stage-1 order; a failed member as one line saying why) and the reviews, de-anonymised:
 * per reviewer its ranking in member ids and, per answer it saw (with the label it saw it under), its score,
 * strengths and weaknesses; a review that failed or whose ranking could not be read says so. Answers and critiques
 * are Markdown for the terminal (`renderTerminalMarkdown`). Lines without a trailing newline; empty when `show`
 * asks for nothing. `notReviewed` marks the answers of a session the cost cap stopped before stage 2.
 */
export function renderAnswersAndReviews(options: {
  stage1: readonly Stage1Result[];
  stage2: readonly Stage2Result[];
  show: SessionShow;
  style: Style;
  simulated: boolean;
  notReviewed?: boolean;
}): string[] {
  const { stage1, show, style: s } = options;
  const tag = options.simulated ? ` ${s.magenta('[simulated]')}` : '';
  const blocks: string[][] = [];
  if (show.answers) {
    for (const answer of stage1) {
      if (answer.text === null) {
        blocks.push([s.yellow(`No answer from ${who(answer.member, answer.model)}${failure(answer.error)}`)]);
        continue;
      }
      const notes = [
        options.notReviewed ? ' (not reviewed)' : '',
        answer.suspectedInjection === true ? ` ${s.yellow('[looks like it tries to steer its reviewers]')}` : '',
      ].join('');
      blocks.push([
        s.bold(`Answer from ${who(answer.member, answer.model)}`) + notes + tag,
        '',
        ...renderTerminalMarkdown(answer.text.trim(), s).split('\n'),
      ]);
    }
  }
  if (show.reviews) {
    const position = new Map(stage1.map((a, i) => [a.member, i]));
    const reviews = [...options.stage2].sort(
      (a, b) => (position.get(a.reviewer) ?? Infinity) - (position.get(b.reviewer) ?? Infinity),
    );
    if (reviews.length === 0) {
      blocks.push([
        s.bold('Reviews') + tag,
        s.dim(
          options.notReviewed ? 'None: the cost cap stopped the council before stage 2.' : 'None: no member reviewed.',
        ),
      ]);
    } else {
      blocks.push([
        s.bold('Reviews') + tag,
        s.dim('The reviewers saw the answers anonymised, as Response A, B, …; each is named here after the session.'),
      ]);
      for (const review of reviews) blocks.push(reviewLines({ review, stage1, style: s }));
    }
  }
  return blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
}

/** `renderAnswersAndReviews` as one piece of stdout, ending in a blank line before what follows; empty when `show` asks for nothing. */
export function answersAndReviewsText(options: Parameters<typeof renderAnswersAndReviews>[0]): string {
  const lines = renderAnswersAndReviews(options);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n\n`;
}

/** Whether a review's ranking was read: its `readPath`, or for sessions saved before it was recorded, a non-empty ranking. */
function rankingRead(review: Stage2Result): boolean {
  if (review.readPath !== undefined && review.readPath !== null) return review.readPath !== 'unread';
  return (review.evaluation?.ranking.length ?? 0) > 0;
}

/** The label a reviewer saw a member's answer under: from its label map, else from its place in the order shown. */
function labelOf(review: Stage2Result, member: string): string | null {
  for (const [label, entry] of Object.entries(review.labelToModel ?? {})) {
    const model = typeof entry === 'string' ? entry : (entry as { model?: unknown } | undefined)?.model;
    if (model === member) return label;
  }
  const index = (review.order ?? []).indexOf(member);
  return index === -1 ? null : responseLabel(index);
}

/** One reviewer's review: its ranking, then its score and critique of each answer it saw; or why there is none. */
function reviewLines(options: { review: Stage2Result; stage1: readonly Stage1Result[]; style: Style }): string[] {
  const { review, style: s } = options;
  const heading = s.bold(
    `Review by ${who(review.reviewer, review.model === review.reviewer ? undefined : review.model)}`,
  );
  const evaluation = review.evaluation;
  if (review.error !== null || evaluation === null) return [heading + s.yellow(`: no review${failure(review.error)}`)];
  const lines = [heading];
  if (!rankingRead(review)) {
    // Core marks an unread review abstained too; only a review read as a refusal declined.
    lines.push(
      s.yellow(
        review.readPath !== 'unread' && evaluation.abstained
          ? '  it declined to rank the answers (abstained), so it gave no ballot.'
          : '  no ranking could be read from its reply, so it gave no ballot.',
      ),
    );
  } else {
    lines.push(`  ranking: ${evaluation.ranking.join(' > ')}`);
    if (review.readPath === 'structured-repaired' || review.readPath === 'text-repaired')
      lines.push(s.dim('  (read from its reply to a repair request)'));
  }
  // The answers it saw, in the order it saw them; else (older sessions without the order) those it scored or critiqued.
  const seen =
    review.order !== undefined && review.order.length > 0
      ? review.order
      : options.stage1.map((a) => a.member).filter((m) => m in evaluation.scores || m in evaluation.critiques);
  for (const member of seen) {
    const score = evaluation.scores[member];
    const critique = evaluation.critiques[member];
    if (score === undefined && critique === undefined) continue;
    const label = labelOf(review, member);
    const own = member === review.reviewer ? ', its own' : '';
    const about = label === null ? (own === '' ? '' : ' (its own)') : ` (${label}${own})`;
    lines.push(`  ${s.bold(member)}${about}: ${score === undefined ? 'no score' : `${score}/10`}`);
    for (const [name, text] of [
      ['strengths', critique?.strengths],
      ['weaknesses', critique?.weaknesses],
    ] as const) {
      if (text === undefined || text.trim() === '') continue;
      const [first, ...more] = renderTerminalMarkdown(text.trim(), s).split('\n');
      lines.push(`    ${name}: ${first!}`, ...more.map((line) => (line === '' ? '' : `      ${line}`)));
    }
  }
  return lines;
}

/** An exclusion's message in one line; a reply too large names the key that raises the limit. */
function exclusionMessage(x: Exclusion): string {
  const line = x.message.split('\n')[0]!;
  return x.reason === 'too-large'
    ? `${line.split('. ')[0]!.replace(/^reply too large: /, '')}. Raise max_reply_bytes in config.yaml to accept longer replies.`
    : line;
}

/** The leaderboard table, reviewer agreement and the bias indicators line of a ranked session. */
function rankingLines(options: { session: Omit<CouncilSession, 'query'>; style: Style; tag: string }): string[] {
  const { session, style: s, tag } = options;
  const out: string[] = [];
  out.push(s.bold('Leaderboard') + tag);
  const modelOf = new Map(session.stage1.map((r) => [r.member, r.model]));
  out.push(
    renderTable({
      head: ['rank', 'member', 'Borda score', 'points', 'votes', 'wins', 'coverage'],
      align: ['right', 'left', 'right', 'right', 'right', 'right', 'left'],
      style: s,
      rows: session.leaderboard.map((e) => [
        String(e.finalRank),
        modelOf.get(e.candidate) && modelOf.get(e.candidate) !== e.candidate
          ? `${e.candidate} (${modelOf.get(e.candidate)})`
          : e.candidate,
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
    // In words ("position bias, harsh reviewer"); the codes stay in --json.
    const flags = b.flags.length ? b.flags.map((f) => flagName(f).toLowerCase()).join(', ') : 'none';
    out.push(
      `Bias indicators (one session: indicators, not proof): position variance ${n(b.position_variance, 3)}, length correlation ${n(b.length_correlation, 3)}, reviewer agreement (α on scores) ${n(b.reviewer_agreement, 3)}; flags: ${b.flags.length ? s.yellow(flags) : flags}`,
    );
  } else {
    out.push(s.dim('Bias indicators: not computed for this session.'));
  }
  return out;
}
