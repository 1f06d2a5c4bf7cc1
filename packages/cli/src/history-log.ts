import type { HistoryEntry as HistoryLogEntry } from '@council/bias-store';
import type { CouncilSession } from '@council/core';

// The history log itself (append with its line limit, read) is @council/bias-store's (history-log.ts);
// here are only the CLI's types for it, which bias-store cannot name (it does not import core).

/** A session as the history log keeps it: everything but the query text, which never leaves the run. */
export type HistorySession = Omit<CouncilSession, 'query'>;

/** One line of `$LLM_COUNCIL_HOME/history.jsonl`, as the CLI writes and reads it. */
export type HistoryEntry = HistoryLogEntry<HistorySession>;
