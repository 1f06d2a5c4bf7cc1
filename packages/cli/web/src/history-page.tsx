import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, query } from './api.js';
import { dayBound, formatTime } from './format.js';
import { SessionDetail } from './session-detail.js';
import { percent } from './session-view-model.js';
import type { ServeConfig, SessionDocument, SessionList, SessionListItem } from './types.js';

interface Filters {
  /** Words of the question (the server's `q`). */
  text: string;
  model: string;
  from: string;
  to: string;
}

/**
 * The loaded sessions grouped into their conversations: the conversation with the newest session first, its
 * sessions in the order they were asked (the first question, then its follow-ups). Running sessions stay on top.
 */
export function groupByConversation(list: readonly SessionListItem[]): SessionListItem[][] {
  const groups = new Map<string, { items: SessionListItem[]; newest: number }>();
  for (const item of list) {
    const key = item.running ? `running:${item.id}` : (item.conversation ?? item.id);
    const time = Date.parse(item.timestamp);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { items: [item], newest: item.running ? Infinity : time });
    else {
      group.items.push(item);
      group.newest = Math.max(group.newest, time);
    }
  }
  return [...groups.values()]
    .sort((a, b) => b.newest - a.newest)
    .map((g) => [...g.items].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp)));
}

function council(item: SessionListItem): string {
  return `${item.members.join(', ')} · chairman ${item.chairman ?? 'n/a'} · ${item.strategy ?? ''} ${item.mode ?? ''}`.trim();
}

function outcome(item: SessionListItem): string {
  if (item.running) return 'running';
  if (item.mode === 'voting') return item.winner ? `winner ${item.winner}` : 'no winner';
  if (!item.contributors?.length) return 'no contributors';
  const [top, ...rest] = [...item.contributors].sort((a, b) => b.weight - a.weight);
  return `led by ${top!.id} (${percent(top!.weight)})${rest.length ? ` and ${rest.length} more` : ''}`;
}

/**
 * Past sessions from the history log, titled by their questions, follow-ups under the question that started their
 * conversation, searched by words of the question and filtered by model and date; one opens with the same view as
 * the chat, its question above it.
 */
export function HistoryPage({ config }: { config: ServeConfig }) {
  const [filters, setFilters] = useState<Filters>({ text: '', model: '', from: '', to: '' });
  const [applied, setApplied] = useState<Filters>(filters);
  const [list, setList] = useState<SessionListItem[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<{ session: SessionDocument; question: string | null } | null>(null);

  const load = async (before: string | null) => {
    setError(null);
    try {
      const params = {
        q: applied.text.trim(),
        model: applied.model,
        from: dayBound(applied.from, false),
        to: dayBound(applied.to, true),
        limit: 25,
        before: before ?? undefined,
      };
      const page = await api<SessionList>(`/api/sessions${query(params)}`);
      setList((old) => (before && old ? [...old, ...page.sessions] : page.sessions));
      setNext(page.next);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  useEffect(() => {
    void load(null);
  }, [applied]);

  const openSession = async (id: string) => {
    setError(null);
    try {
      const found = await api<{ session: SessionDocument; question?: string | null }>(
        `/api/sessions/${encodeURIComponent(id)}`,
      );
      setOpen({ session: found.session, question: found.question ?? null });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  if (open) {
    return (
      <div class="history">
        <button type="button" class="secondary" onClick={() => setOpen(null)}>
          ← Back to the list
        </button>
        <h2>Session of {formatTime(open.session.timestamp)}</h2>
        {open.session.conversation && (
          <p class="muted small">Follow-up in a conversation: the council saw the previous answer as context.</p>
        )}
        {open.question === null ? (
          <p class="muted small">
            The history kept no question for this session (history_questions: false, or saved before questions were
            kept).
          </p>
        ) : (
          <p class="question history-question">{open.question}</p>
        )}
        <SessionDetail
          session={open.session}
          modeToggle={config.modeToggle}
          idPrefix={`history-${open.session.sessionId}`}
        />
      </div>
    );
  }

  return (
    <div class="history">
      <h2>History</h2>
      <form
        class="filters row"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filters);
        }}
      >
        <label>
          Question
          <input
            type="text"
            placeholder="Words of the question"
            value={filters.text}
            onInput={(e) => setFilters({ ...filters, text: e.currentTarget.value })}
          />
        </label>
        <label>
          Model
          <input
            type="text"
            list="history-models"
            value={filters.model}
            onInput={(e) => setFilters({ ...filters, model: e.currentTarget.value })}
          />
          <datalist id="history-models">
            {config.models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </label>
        <label>
          From
          <input
            type="date"
            value={filters.from}
            onInput={(e) => setFilters({ ...filters, from: e.currentTarget.value })}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={filters.to}
            onInput={(e) => setFilters({ ...filters, to: e.currentTarget.value })}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {list === null ? (
        <p class="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p class="muted">No sessions match.</p>
      ) : (
        <div class="table-wrap">
          <table class="sessions">
            <caption class="visually-hidden">Sessions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Question</th>
                <th scope="col">Council</th>
                <th scope="col">Outcome</th>
                <th scope="col">
                  <span class="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            {groupByConversation(list).map((group) => (
              <tbody key={group[0]!.id} class="conversation">
                {group.map((s) => {
                  const followUp = s.previousSessionId !== null;
                  const title = s.title ?? (s.running ? 'running…' : null);
                  return (
                    <tr key={s.id} class={followUp ? 'session-row follow-up' : 'session-row'}>
                      <td>{formatTime(s.timestamp)}</td>
                      <td class="session-title">
                        {followUp && (
                          <span aria-label="follow-up" title="A follow-up in this conversation">
                            ↳{' '}
                          </span>
                        )}
                        {title ?? <span class="muted">(question not stored)</span>}
                      </td>
                      <td>{council(s)}</td>
                      <td>{outcome(s)}</td>
                      <td>
                        {!s.running && (
                          <button
                            type="button"
                            class="secondary small"
                            aria-label={`Open the session of ${formatTime(s.timestamp)}${s.title ? `: ${s.title}` : ''}`}
                            onClick={() => void openSession(s.id)}
                          >
                            Open
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            ))}
          </table>
        </div>
      )}
      {next && (
        <button type="button" class="secondary" onClick={() => void load(next)}>
          Older sessions
        </button>
      )}
    </div>
  );
}
