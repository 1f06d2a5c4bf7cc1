import { Markdown } from './markdown.js';
import type { AnswerEvaluation } from './session-view-model.js';

export interface ReviewItem {
  reviewer: string;
  model: string;
  ranking: string[];
  /** Its score and critique of each answer it saw (while the session runs: scores by label, no critiques). */
  evaluations: AnswerEvaluation[];
  /** Its reply as written (a finished session's), under the labels it saw. */
  text?: string | null;
  failure?: string | null;
}

/**
 * A streamed review's scores and critiques, by the labels it saw (the members behind them are shown with the
 * finished session), in label order.
 */
export function liveEvaluations(
  scores: Record<string, number> | null,
  critiques: Record<string, { strengths: string; weaknesses: string }> | null = null,
): AnswerEvaluation[] {
  const text = (t: string | undefined) => (t === undefined || t.trim() === '' ? null : t.trim());
  return [...new Set([...Object.keys(scores ?? {}), ...Object.keys(critiques ?? {})])]
    .sort((a, b) => a.localeCompare(b))
    .map((label) => ({
      member: null,
      label,
      own: false,
      score: scores?.[label] ?? null,
      strengths: text(critiques?.[label]?.strengths),
      weaknesses: text(critiques?.[label]?.weaknesses),
    }));
}

function AnswerEvaluationBlock({ e }: { e: AnswerEvaluation }) {
  const about =
    e.member === null ? null : e.label === null ? (e.own ? 'its own' : null) : `${e.label}${e.own ? ', its own' : ''}`;
  return (
    <li class="evaluation">
      <p class="evaluation-head">
        <strong class="evaluation-of">{e.member ?? e.label}</strong>
        {about && <span class="muted"> ({about})</span>}
        {': '}
        <span class="score">{e.score === null ? 'no score' : `${e.score}/10`}</span>
      </p>
      {(e.strengths !== null || e.weaknesses !== null) && (
        <dl class="critique">
          {e.strengths !== null && (
            <>
              <dt>Strengths</dt>
              <dd>
                <Markdown text={e.strengths} />
              </dd>
            </>
          )}
          {e.weaknesses !== null && (
            <>
              <dt>Weaknesses</dt>
              <dd>
                <Markdown text={e.weaknesses} />
              </dd>
            </>
          )}
        </dl>
      )}
    </li>
  );
}

/**
 * Stage-2 reviews, each reviewer's evaluation as its own block: its ranking (best first), then its score and
 * critique of each answer it saw, named after the session as `history show --show reviews` does.
 */
export function ReviewList({ reviews, anonymous }: { reviews: ReviewItem[]; anonymous: boolean }) {
  if (reviews.length === 0) return <p class="muted">No reviews yet.</p>;
  return (
    <>
      {anonymous ? (
        <p class="muted small">Labels stay anonymous until the session ends.</p>
      ) : (
        <p class="muted small">
          The reviewers saw the answers anonymised, as Response A, B, …; each is named here after the session.
        </p>
      )}
      <ul class="reviews">
        {reviews.map((r, i) => (
          <li key={`${r.reviewer}-${i}`} class="review" aria-label={`Review by ${r.reviewer}`}>
            <h4 class="review-by">
              Review by {r.reviewer}
              {r.model !== r.reviewer && <span class="muted"> ({r.model})</span>}
            </h4>
            {r.failure ? (
              <p class="muted">{r.failure}</p>
            ) : (
              <div class="review-ranking">
                <span class="muted small">Ranking, best first:</span>
                <ol class="ranking">
                  {r.ranking.map((label) => (
                    <li key={label}>{label}</li>
                  ))}
                </ol>
              </div>
            )}
            {r.evaluations.length > 0 && (
              <ul class="evaluations" aria-label={`${r.reviewer}'s scores`}>
                {r.evaluations.map((e) => (
                  <AnswerEvaluationBlock key={e.member ?? e.label} e={e} />
                ))}
              </ul>
            )}
            {r.text && (
              <details class="review-text">
                <summary>Its reply as written (under the labels it saw)</summary>
                <Markdown text={r.text} />
              </details>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
