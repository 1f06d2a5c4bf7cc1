import type * as z from 'zod';
import { CliError } from '../cli-error.js';
import { questionMatches, sessionTitle } from '../commands/history-conversations.js';
import type { HistoryEntry } from '../history-entry.js';
import type { sessionListQuerySchema, sessionListSchema, sessionSummarySchema } from './api-schemas.js';
import type { HubRun } from './session-hub.js';

type SessionSummary = z.infer<typeof sessionSummarySchema>;
type SessionListQuery = z.infer<typeof sessionListQuerySchema>;

/** How many sessions a page holds when the request names no `limit`. */
export const DEFAULT_PAGE_SIZE = 50;

function fromHistory(entry: HistoryEntry): SessionSummary {
  const session = entry.session;
  return {
    id: session.sessionId,
    timestamp: session.timestamp,
    title: sessionTitle(entry),
    conversation: session.conversation?.id ?? null,
    previousSessionId: session.conversation?.previousSessionId ?? null,
    members: session.config.members,
    chairman: session.synthesis?.model ?? session.config.chairman,
    strategy: session.config.strategy,
    mode: session.config.mode,
    winner: session.synthesis?.winner ?? null,
    contributors: session.synthesis?.contributors?.map((c) => ({ id: c.id, weight: c.weight })) ?? null,
    category: entry.query_metadata?.category ?? null,
    running: false,
  };
}

function fromRun(run: HubRun): SessionSummary {
  return {
    id: run.id,
    timestamp: run.startedAt,
    title: null,
    conversation: run.conversation,
    previousSessionId: null,
    members: [...run.members],
    chairman: run.chairman,
    strategy: run.strategy,
    mode: run.mode,
    winner: null,
    contributors: null,
    category: run.category,
    running: true,
  };
}

/** Whether a session involved the model: as a member, the model playing one, or the chairman. */
function involves(entry: HistoryEntry, model: string): boolean {
  const session = entry.session;
  return (
    session.config.members.includes(model) ||
    session.stage1.some((s) => s.model === model) ||
    session.config.chairman === model ||
    session.synthesis?.model === model
  );
}

/** An end of the window as milliseconds: a bare date (`2026-11-22`) as `to` takes in that whole day. */
function bound(text: string | undefined, end: boolean): number | null {
  if (text === undefined) return null;
  const ms = Date.parse(text);
  return end && /^\d{4}-\d{2}-\d{2}$/.test(text) ? ms + 86_400_000 - 1 : ms;
}

/**
 * `GET /api/sessions`: the runs in progress, then the history newest first, filtered by model, date and words of the
 * question (`q`), one page after the session `before`. Each finished session is titled by its question's first line,
 * when the local history kept it.
 */
export function listSessions(options: {
  entries: readonly HistoryEntry[];
  runs: readonly HubRun[];
  query: SessionListQuery;
}): z.infer<typeof sessionListSchema> {
  const { query } = options;
  const from = bound(query.from, false);
  const to = bound(query.to, true);
  const inWindow = (timestamp: string) => {
    const ms = Date.parse(timestamp);
    return (from === null || ms >= from) && (to === null || ms <= to);
  };
  // A run has the id its session is saved under: one being saved may already be in the history, and is listed once.
  const saved = new Set(options.entries.map((e) => e.session.sessionId));
  // A search is over the kept questions: a running session has none yet.
  const running = options.runs
    .filter(
      (r) =>
        query.q === undefined &&
        r.status === 'running' &&
        !saved.has(r.id) &&
        inWindow(r.startedAt) &&
        (query.model === undefined || r.members.includes(query.model) || r.chairman === query.model),
    )
    .reverse()
    .map(fromRun);
  const past = options.entries
    .filter(
      (e) =>
        inWindow(e.session.timestamp) &&
        (query.model === undefined || involves(e, query.model)) &&
        (query.q === undefined || questionMatches(e, query.q)),
    )
    .map(fromHistory)
    // Newest first; the history is in the order sessions ended, which concurrent runs can interleave.
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || (a.id < b.id ? -1 : 1));
  const all = [...running, ...past];
  const after = query.before === undefined ? -1 : all.findIndex((s) => s.id === query.before);
  if (query.before !== undefined && after === -1)
    throw new CliError({
      code: 'USAGE',
      message: `before: no session "${query.before}" in this list (with these filters); pass the "next" of the previous page.`,
    });
  const start = after + 1;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const page = all.slice(start, start + limit);
  return { sessions: page, next: start + limit < all.length ? page[page.length - 1]!.id : null };
}
