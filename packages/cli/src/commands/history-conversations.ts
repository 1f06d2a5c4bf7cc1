import type { HistoryEntry } from '../history-entry.js';

/** The longest title a history row shows, in characters; a longer first line ends with "…". */
export const TITLE_MAX_CHARS = 72;

/**
 * A session's title: the first non-blank line of its question, its runs of white space made one space, cut to
 * `TITLE_MAX_CHARS` (with "…"); null when the history kept no question (`history_questions: false`, or a line saved
 * before questions were kept).
 */
export function sessionTitle(entry: Pick<HistoryEntry, 'question'>): string | null {
  if (entry.question === undefined) return null;
  const line =
    entry.question
      .split(/\r?\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l !== '') ?? '';
  if (line === '') return null;
  const chars = [...line];
  return chars.length <= TITLE_MAX_CHARS ? line : `${chars.slice(0, TITLE_MAX_CHARS - 1).join('')}…`;
}

/** The conversation a session belongs to: its follow-ups' `conversation.id`, which is the first session's own id. */
export function conversationOf(entry: HistoryEntry): string {
  return entry.session.conversation?.id ?? entry.session.sessionId;
}

/**
 * Whether the session's question contains every word of `text` (case-insensitive; words are split on white space).
 * A session whose question was not kept matches nothing.
 */
export function questionMatches(entry: Pick<HistoryEntry, 'question'>, text: string): boolean {
  if (entry.question === undefined) return false;
  const question = entry.question.toLowerCase();
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return words.length > 0 && words.every((w) => question.includes(w));
}

/** One conversation of a list: its sessions oldest first (the question that started it, then its follow-ups). */
export interface ConversationGroup {
  id: string;
  sessions: HistoryEntry[];
}

/**
 * Sessions grouped into their conversations, the conversation with the newest session first, each conversation's
 * sessions in the order they were asked. A follow-up whose first session is not among `entries` (older than the
 * list, or filtered out) still groups with its siblings under the conversation's id.
 */
export function groupConversations(entries: readonly HistoryEntry[]): ConversationGroup[] {
  const groups = new Map<string, { group: ConversationGroup; newest: number }>();
  for (const entry of entries) {
    const id = conversationOf(entry);
    const time = Date.parse(entry.session.timestamp);
    const found = groups.get(id);
    if (found === undefined) groups.set(id, { group: { id, sessions: [entry] }, newest: time });
    else {
      found.group.sessions.push(entry);
      found.newest = Math.max(found.newest, time);
    }
  }
  const byTime = (a: HistoryEntry, b: HistoryEntry) =>
    Date.parse(a.session.timestamp) - Date.parse(b.session.timestamp);
  return [...groups.values()]
    .sort((a, b) => b.newest - a.newest)
    .map(({ group }) => ({ id: group.id, sessions: [...group.sessions].sort(byTime) }));
}
