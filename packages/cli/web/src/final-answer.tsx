import { useState } from 'preact/hooks';
import { renderMarkdown } from './markdown.js';
import { displayedAnswer, percent } from './session-view-model.js';
import type { Mode, SessionDocument } from './types.js';

const modeNames: Record<Mode, string> = { consensus: 'Consensus', voting: 'Voting' };

/**
 * The council's answer after the session: Consensus shows the chairman's synthesis with the attribution
 * footer, Voting the winning member's own answer. The toggle appears only where the organisation allows it.
 */
export function FinalAnswer({ session, modeToggle }: { session: SessionDocument; modeToggle: boolean }) {
  const [mode, setMode] = useState<Mode>(session.synthesis?.mode ?? session.config.mode);
  const shown = displayedAnswer(session, mode);
  return (
    <section class="final" aria-label="The council's answer">
      <div class="final-head">
        <h3>{mode === 'voting' ? 'Winning answer' : 'Synthesis'}</h3>
        {modeToggle && (
          <div role="group" aria-label="Answer mode" class="toggle">
            {(['consensus', 'voting'] as const).map((m) => (
              <button key={m} type="button" class="toggle-button" aria-pressed={mode === m} onClick={() => setMode(m)}>
                {modeNames[m]}
              </button>
            ))}
          </div>
        )}
      </div>
      <div class={`answer-text model-text markdown mode-${mode}`} data-mode={mode}>
        {shown.text !== null ? renderMarkdown(shown.text) : <span class="muted">{shown.missing}</span>}
      </div>
      {shown.mode === 'voting' && shown.winner && (
        <p class="attribution">
          <span class="badge badge-winner">Winner: {shown.winner}</span>
        </p>
      )}
      {shown.mode === 'consensus' && (
        <footer class="attribution">
          {shown.contributors && shown.contributors.length > 0 ? (
            <>
              <span>Synthesized from inputs by:</span>{' '}
              <ul class="badges" aria-label="Contributors">
                {shown.contributors.map((c) => (
                  <li key={c.id} class="badge" title={`${c.id} contributed ${percent(c.weight)} of the synthesis`}>
                    {c.id} <span class="badge-weight">{percent(c.weight)}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <span class="muted">{session.synthesis ? 'The chairman named no contributors.' : ''}</span>
          )}
        </footer>
      )}
    </section>
  );
}
