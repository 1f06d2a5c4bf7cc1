import { AnswerTabs } from './answer-tabs.js';
import { FinalAnswer } from './final-answer.js';
import { ReviewList } from './review-list.js';
import { SessionLeaderboard } from './session-leaderboard.js';
import { sessionReviews } from './session-view-model.js';
import type { SessionDocument } from './types.js';
import { VerdictView } from './verdict-view.js';

/**
 * A finished session: a jury's verdict (with what became of the evidence), the final answer with its toggle, stage-1 answers in tabs, each reviewer's evaluation
 * (de-anonymised) and the session's leaderboard.
 */
export function SessionDetail({
  session,
  modeToggle,
  idPrefix,
}: {
  session: SessionDocument;
  modeToggle: boolean;
  idPrefix: string;
}) {
  const answers = session.stage1.map((s) => ({
    member: s.member,
    model: s.model,
    status: s.text === null ? ('failed' as const) : ('answered' as const),
    text: s.text,
    note: s.error ? `${s.error.reason}: ${s.error.message}` : `${(s.latencyMs / 1000).toFixed(1)} s`,
  }));
  return (
    <div class="session">
      <VerdictView verdict={session.verdict} evidence={session.evidence} idPrefix={idPrefix} />
      <FinalAnswer session={session} modeToggle={modeToggle} />
      <details class="stage" open>
        <summary>Stage 1 · answers ({answers.length})</summary>
        <AnswerTabs answers={answers} idPrefix={idPrefix} />
      </details>
      <details class="stage">
        <summary>Stage 2 · reviews ({session.stage2.length})</summary>
        <ReviewList reviews={sessionReviews(session)} anonymous={false} />
      </details>
      <details class="stage" open>
        <summary>Leaderboard</summary>
        <SessionLeaderboard session={session} />
      </details>
      {session.warnings.length > 0 && (
        <ul class="warnings">
          {session.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      <p class="muted small">
        Session {session.sessionId} · {session.config.strategy} · {session.usage.tokens.toLocaleString('en-US')} tokens
        {session.usage.costUsd !== null ? ` · $${session.usage.costUsd.toFixed(4)}` : ''}
      </p>
    </div>
  );
}
