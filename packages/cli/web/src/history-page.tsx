import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, query } from './api.js';
import { dayBound, formatTime } from './format.js';
import { SessionDetail } from './session-detail.js';
import { percent } from './session-view-model.js';
import type { ServeConfig, SessionDocument, SessionList, SessionListItem } from './types.js';

interface Filters {
  model: string;
  from: string;
  to: string;
}

function outcome(item: SessionListItem): string {
  if (item.running) return 'running';
  if (item.mode === 'voting') return item.winner ? `winner ${item.winner}` : 'no winner';
  if (!item.contributors?.length) return 'no contributors';
  const [top, ...rest] = [...item.contributors].sort((a, b) => b.weight - a.weight);
  return `led by ${top!.id} (${percent(top!.weight)})${rest.length ? ` and ${rest.length} more` : ''}`;
}

/** Past sessions from the history log, filtered by model and date; one opens with the same view as the chat. */
export function HistoryPage({ config }: { config: ServeConfig }) {
  const [filters, setFilters] = useState<Filters>({ model: '', from: '', to: '' });
  const [applied, setApplied] = useState<Filters>(filters);
  const [list, setList] = useState<SessionListItem[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<SessionDocument | null>(null);

  const load = async (before: string | null) => {
    setError(null);
    try {
      const params = {
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
      const { session } = await api<{ session: SessionDocument }>(`/api/sessions/${encodeURIComponent(id)}`);
      setOpen(session);
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
        <h2>Session of {formatTime(open.timestamp)}</h2>
        <p class="muted small">The history keeps no question texts, only what the council answered.</p>
        <SessionDetail session={open} modeToggle={config.modeToggle} idPrefix={`history-${open.sessionId}`} />
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
                <th scope="col">Members</th>
                <th scope="col">Chairman</th>
                <th scope="col">Strategy · mode</th>
                <th scope="col">Outcome</th>
                <th scope="col">
                  <span class="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id} class="session-row">
                  <td>{formatTime(s.timestamp)}</td>
                  <td>{s.members.join(', ')}</td>
                  <td>{s.chairman}</td>
                  <td>
                    {s.strategy} · {s.mode}
                  </td>
                  <td>{outcome(s)}</td>
                  <td>
                    {!s.running && (
                      <button
                        type="button"
                        class="secondary small"
                        aria-label={`Open the session of ${formatTime(s.timestamp)}`}
                        onClick={() => void openSession(s.id)}
                      >
                        Open
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
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
