import { AnswerTabs } from './answer-tabs.js';
import { renderMarkdown } from './markdown.js';
import { liveEvaluations, ReviewList } from './review-list.js';
import type { VerdictMode } from '@council/core';
import type { RunState, Stage } from './run-state.js';
import { stageProgressText } from './run-state.js';
import { deanonymiseRanking } from './session-view-model.js';
import { SessionDetail } from './session-detail.js';

const stageNames: Record<Stage, string> = { 1: 'Answers', 2: 'Reviews', 3: 'Synthesis' };

/** The one-line status the live region announces. */
export function runStatusText(state: RunState): string {
  if (state.status === 'cancelled') return 'Cancelled.';
  if (state.status === 'failed') return `Failed: ${state.error?.message ?? 'the run stopped.'}`;
  if (state.status === 'finished') return state.session ? 'Finished.' : 'Finished without a session.';
  const stage = ([3, 2, 1] as const).find((s) => state.stages[s].status !== 'waiting');
  if (!stage) return 'Starting…';
  const s = state.stages[stage];
  return s.status === 'running'
    ? `Stage ${stage} of 3: ${stageNames[stage].toLowerCase()}…`
    : `Stage ${stage} of 3 done.`;
}

function StageProgress({ state }: { state: RunState }) {
  return (
    <ol class="stages" aria-label="Stages">
      {([1, 2, 3] as const).map((stage) => {
        const s = state.stages[stage];
        return (
          <li key={stage} class={`stage-step stage-${s.status}`}>
            <span class="stage-name">
              {stage}. {stageNames[stage]}
            </span>{' '}
            <span class="muted small">{stageProgressText(s)}</span>
          </li>
        );
      })}
    </ol>
  );
}

/** One run of the chat: live while it streams, the session once it ends. */
export function RunView({
  state,
  modeToggle,
  idPrefix,
  jury = null,
  onCancel,
}: {
  state: RunState;
  modeToggle: boolean;
  idPrefix: string;
  /** A jury's mode: while it runs, the view says a verdict is coming. */
  jury?: VerdictMode | null;
  onCancel: () => void;
}) {
  if (state.session && state.status !== 'running')
    return <SessionDetail session={state.session} modeToggle={modeToggle} idPrefix={idPrefix} />;
  const answers = state.answers.map((a) => ({
    ...a,
    note: a.failure ?? (a.latencyMs !== null ? `${(a.latencyMs / 1000).toFixed(1)} s` : null),
  }));
  const reviews = state.reviews.map((r) => ({
    ...r,
    ranking: deanonymiseRanking(state.session, r),
    evaluations: liveEvaluations(r.scores, r.critiques ?? null),
  }));
  return (
    <div class="session live">
      <div class="run-head">
        <StageProgress state={state} />
        {state.status === 'running' && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {jury !== null && state.status === 'running' && (
        <p class="muted small jury-pending">
          Jury ({jury}): each member decides approve, reject or unclear; the verdict shows here once the chairman has
          written its rationale.
        </p>
      )}
      {state.error && (
        <p class="error" role="alert">
          {state.error.message}
        </p>
      )}
      {state.notes.length > 0 && (
        <ul class="notes small">
          {state.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      {(state.stages[3].status !== 'waiting' || state.synthesis) && (
        <section class="final" aria-label="Synthesis in progress">
          <h3>Synthesis{state.chairman ? ` by ${state.chairman}` : ''}</h3>
          <div class="answer-text model-text markdown synthesis-stream" aria-busy={state.status === 'running'}>
            {state.synthesis ? renderMarkdown(state.synthesis) : <span class="muted">Waiting for the chairman…</span>}
          </div>
        </section>
      )}
      <details class="stage" open>
        <summary>Stage 1 · answers ({state.answers.filter((a) => a.status === 'answered').length})</summary>
        <AnswerTabs answers={answers} idPrefix={idPrefix} />
      </details>
      <details class="stage" open={state.stages[2].status !== 'waiting'}>
        <summary>Stage 2 · reviews ({state.reviews.length})</summary>
        <ReviewList reviews={reviews} anonymous={!state.session} />
      </details>
    </div>
  );
}
