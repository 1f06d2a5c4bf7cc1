import { useRef, useState } from 'preact/hooks';
import { Markdown } from './markdown.js';

export interface TabAnswer {
  member: string;
  model: string;
  status: 'running' | 'answered' | 'failed';
  text: string | null;
  note: string | null;
}

/** Stage-1 answers, one tab per member (WAI-ARIA tabs: arrow keys, Home and End move between tabs). */
export function AnswerTabs({ answers, idPrefix }: { answers: TabAnswer[]; idPrefix: string }) {
  const [selected, setSelected] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  if (answers.length === 0) return <p class="muted">Waiting for the members…</p>;
  const current = Math.min(selected, answers.length - 1);
  const focus = (index: number) => {
    const next = (index + answers.length) % answers.length;
    setSelected(next);
    tabs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') focus(current + 1);
    else if (event.key === 'ArrowLeft') focus(current - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(answers.length - 1);
    else return;
    event.preventDefault();
  };
  const answer = answers[current];
  return (
    <div class="tabs">
      <div role="tablist" aria-label="Stage 1 answers" class="tablist" onKeyDown={onKeyDown}>
        {answers.map((a, i) => (
          <button
            key={a.member}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${i}`}
            aria-selected={i === current}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={i === current ? 0 : -1}
            class={`tab tab-${a.status}`}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            onClick={() => setSelected(i)}
          >
            {a.member}
            <span class="tab-status">{a.status === 'running' ? ' …' : a.status === 'failed' ? ' ✕' : ''}</span>
          </button>
        ))}
      </div>
      {answer && (
        <div
          role="tabpanel"
          id={`${idPrefix}-panel`}
          aria-labelledby={`${idPrefix}-tab-${current}`}
          tabIndex={0}
          class="tabpanel"
        >
          <p class="muted small">
            {answer.model}
            {answer.note ? ` · ${answer.note}` : ''}
          </p>
          {answer.status === 'running' && <p class="muted">Answering…</p>}
          {answer.text !== null && <Markdown text={answer.text} class="model-text" />}
        </div>
      )}
    </div>
  );
}
