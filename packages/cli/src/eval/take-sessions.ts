import type { HistoryEntry } from '../history-entry.js';
import { CliError } from '../cli-error.js';
import { sessionDocument } from '../session-document.js';
import type { EvalItem } from './eval-item.js';
import { runsCouncil } from './eval-item.js';

/** A session already run, matched to the item whose question it answered. */
export type TakenSessions = Map<string, ReturnType<typeof sessionDocument>>;

/**
 * `--sessions id,…`: sessions from the history, each matched to the dataset's item by its question (the history keeps
 * it by default; white space at the ends ignored). An id may be a unique prefix of at least 8 characters, as `history
 * show` takes. A session not in the history, without its question, answering no item's question, or answering an item
 * another given session answers, is an error that says so: a session is never silently left out or counted twice.
 */
export function takeSessions(options: {
  ids: readonly string[];
  items: readonly EvalItem[];
  entries: readonly HistoryEntry[];
}): TakenSessions {
  const byQuestion = new Map(options.items.filter(runsCouncil).map((i) => [i.question.trim(), i]));
  const taken: TakenSessions = new Map();
  for (const id of options.ids) {
    const matches = options.entries.filter(
      (e) => e.session.sessionId === id || (id.length >= 8 && e.session.sessionId.startsWith(id)),
    );
    if (matches.length === 0)
      throw new CliError({
        code: 'USAGE',
        message: `--sessions: no session ${id} in the history; \`council history list\` shows the sessions and their ids.`,
      });
    if (matches.length > 1)
      throw new CliError({
        code: 'USAGE',
        message: `--sessions: ${id} starts ${matches.length} sessions' ids; give more of the id.`,
      });
    const entry = matches[0]!;
    const sessionId = entry.session.sessionId;
    if (entry.question === undefined)
      throw new CliError({
        code: 'USAGE',
        message: `--sessions: session ${sessionId} kept no question (history_questions: false or --no-keep-question), so it cannot be matched to an item of the dataset.`,
      });
    const item = byQuestion.get(entry.question.trim());
    if (item === undefined)
      throw new CliError({
        code: 'USAGE',
        message: `--sessions: session ${sessionId} answers a question that no item with key content or a reference answer asks; check the dataset or leave the session out.`,
      });
    const other = taken.get(item.id);
    if (other !== undefined)
      throw new CliError({
        code: 'USAGE',
        message: `--sessions: sessions ${other.sessionId} and ${sessionId} both answer item "${item.id}"; give one session per item.`,
      });
    taken.set(item.id, sessionDocument(entry.session));
  }
  return taken;
}
