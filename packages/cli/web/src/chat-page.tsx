import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api } from './api.js';
import { readEventStream } from './event-stream.js';
import { applyRunEvent, initialRunState } from './run-state.js';
import type { RunState } from './run-state.js';
import { RunView, runStatusText } from './run-view.js';
import type { VerdictMode } from '@council/core';
import type { Mode, ServeConfig } from './types.js';
import { EVIDENCE_NAME, JuryOptions } from './jury-options.js';
import type { JuryChoices } from './jury-options.js';

interface Turn {
  key: number;
  query: string;
  runId: string;
  state: RunState;
  controller: AbortController;
  /** The jury mode it was asked in (the choice, else config.yaml's); null: the council answers. */
  jury: VerdictMode | null;
}

/** The council options; null or '' is the server's default (the configured council, chairman, strategy, mode). */
interface Choices extends JuryChoices {
  members: string[] | null;
  chairman: string;
  strategy: string;
  mode: Mode | '';
}

function MemberPicker({
  config,
  chosen,
  onChange,
}: {
  config: ServeConfig;
  chosen: string[];
  onChange: (members: string[]) => void;
}) {
  const options = [...new Set([...config.members, ...config.models])];
  const pools = Object.keys(config.pools).map((name) => `@${name}`);
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((m) => m !== id));
  return (
    <fieldset class="picker">
      <legend>Members</legend>
      <div class="picker-options">
        {[...pools, ...options].map((id) => (
          <label key={id} class="check">
            <input
              type="checkbox"
              name="member"
              value={id}
              checked={chosen.includes(id)}
              onChange={(e) => toggle(id, e.currentTarget.checked)}
            />
            {id}
            {id.startsWith('@') && <span class="muted small"> ({config.pools[id.slice(1)]?.length ?? 0} models)</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Choice({
  label,
  value,
  options,
  fallback,
  onChange,
}: {
  label: string;
  value: string;
  options: string[];
  fallback: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">Default{fallback ? ` (${fallback})` : ''}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The options form: shown once the server's config has arrived (the question box does not wait for it). */
function CouncilOptions({
  config,
  choices,
  onChange,
}: {
  config: ServeConfig;
  choices: Choices;
  onChange: (choices: Choices) => void;
}) {
  // No configured council: the members are chosen here, so the options start open.
  return (
    <details class="options" open={config.members.length === 0}>
      <summary>Council options</summary>
      <MemberPicker
        config={config}
        chosen={choices.members ?? config.members}
        onChange={(members) => onChange({ ...choices, members })}
      />
      <div class="row">
        <Choice
          label="Chairman"
          value={choices.chairman}
          options={config.models}
          fallback={config.chairman}
          onChange={(chairman) => onChange({ ...choices, chairman })}
        />
        <Choice
          label="Strategy"
          value={choices.strategy}
          options={config.strategies}
          fallback={config.defaultStrategy}
          onChange={(strategy) => onChange({ ...choices, strategy })}
        />
        {/* Without mode_toggle the organisation fixes the mode: sessions run in defaultMode. */}
        {config.modeToggle && (
          <Choice
            label="Mode"
            value={choices.mode}
            options={config.modes}
            fallback={config.defaultMode}
            onChange={(mode) => onChange({ ...choices, mode: mode as Mode | '' })}
          />
        )}
      </div>
      <JuryOptions
        defaultVerdict={config.defaultVerdict ?? null}
        choices={choices}
        onChange={(jury) => onChange({ ...choices, ...jury })}
      />
    </details>
  );
}

/** The chat: a question box with the council's options, and the conversation's turns as they stream. */
export function ChatPage({ config }: { config: ServeConfig | null }) {
  const [question, setQuestion] = useState('');
  const [choices, setChoices] = useState<Choices>({
    members: null,
    chairman: '',
    strategy: '',
    mode: '',
    verdict: '',
    evidence: '',
    redactSecrets: false,
  });
  const [turns, setTurns] = useState<Turn[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keyRef = useRef(0);
  const turnsRef = useRef<Turn[]>([]);
  turnsRef.current = turns;

  useEffect(() => () => turnsRef.current.forEach((t) => t.controller.abort()), []);

  const last = turns[turns.length - 1];
  const running = last?.state.status === 'running';
  const continueFrom = last?.state.session?.sessionId;

  const update = (key: number, change: (state: RunState) => RunState) =>
    setTurns((list) => list.map((t) => (t.key === key ? { ...t, state: change(t.state) } : t)));

  const send = async () => {
    const text = question.trim();
    if (!text || sending || running) return;
    setSending(true);
    setError(null);
    try {
      const body = {
        query: text,
        ...(choices.members ? { members: choices.members } : {}),
        ...(choices.chairman ? { chairman: choices.chairman } : {}),
        ...(choices.strategy ? { strategy: choices.strategy } : {}),
        ...(choices.mode ? { mode: choices.mode } : {}),
        ...(choices.verdict ? { verdict: choices.verdict } : {}),
        // Pasted evidence goes as one item; the server scans it for secrets before any model is called.
        ...(choices.evidence.trim() ? { evidence: [{ name: EVIDENCE_NAME, text: choices.evidence }] } : {}),
        ...(choices.evidence.trim() && choices.redactSecrets ? { redactSecrets: true } : {}),
        ...(continueFrom ? { continueFrom } : {}),
      };
      const started = await api<{ id: string; events: string }>('/api/sessions', { method: 'POST', body });
      const key = ++keyRef.current;
      const controller = new AbortController();
      const jury = choices.verdict || config?.defaultVerdict || null;
      setTurns((list) => [
        ...list,
        { key, query: text, runId: started.id, state: initialRunState(), controller, jury },
      ]);
      setQuestion('');
      void readEventStream({
        url: started.events,
        finalEvent: 'done',
        signal: controller.signal,
        onEvent: (event) => update(key, (state) => applyRunEvent(state, event)),
        onError: (e) =>
          update(key, (state) => ({
            ...state,
            status: 'failed',
            error: { code: 'STREAM', message: `The event stream failed: ${e.message}` },
          })),
      });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setSending(false);
    }
  };

  const cancel = async (turn: Turn) => {
    try {
      await api(`/api/sessions/${encodeURIComponent(turn.runId)}/cancel`, { method: 'POST', body: {} });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  const newConversation = () => {
    turns.forEach((t) => t.controller.abort());
    setTurns([]);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <div class="chat">
      <section class="thread" aria-label="Conversation">
        {turns.length === 0 && (
          <p class="muted intro">
            Ask a question: the members answer on their own, review each other's answers blind, and the chairman writes
            the council's answer.
            {config?.demo ? ' This is the demo: simulated members, no API key, nothing leaves this machine.' : ''}
          </p>
        )}
        {turns.map((t, i) => (
          <article key={t.key} class="turn" aria-label={`Turn ${i + 1}`}>
            <p class="question">
              <span class="who">You</span> <span class="model-text">{t.query}</span>
            </p>
            <RunView
              state={t.state}
              modeToggle={config?.modeToggle ?? false}
              idPrefix={`turn-${t.key}`}
              jury={t.jury}
              onCancel={() => void cancel(t)}
            />
          </article>
        ))}
        <p class="status" role="status" aria-live="polite">
          {last ? runStatusText(last.state) : ''}
        </p>
      </section>
      <form
        class="ask"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label for="question">{continueFrom ? 'Follow-up question' : 'Your question'}</label>
        <textarea
          id="question"
          name="question"
          rows={3}
          value={question}
          placeholder="Enter sends, Shift+Enter starts a new line"
          onInput={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        {config && config.members.length === 0 && choices.members === null && (
          <p class="muted small" id="no-council">
            {config.models.length > 0
              ? 'No council is configured: tick two or more members under Council options (the models of your recent sessions are listed), or add members: [a, b, c] to config.yaml.'
              : 'No council is configured: add members: [a, b, c] to config.yaml in your Council home (council config init writes a commented one), then reload this page.'}
          </p>
        )}
        {config && <CouncilOptions config={config} choices={choices} onChange={setChoices} />}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="row actions">
          <button type="submit" disabled={sending || running || !question.trim()}>
            {continueFrom ? 'Ask a follow-up' : 'Ask the council'}
          </button>
          {turns.length > 0 && (
            <button type="button" class="secondary" onClick={newConversation} disabled={running}>
              New conversation
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
