import type { HistoryEntry as HistoryLogEntry } from '@council/bias-store';
import type { CouncilSession } from '@council/core';

// The CLI's types for the history log's lines, which bias-store cannot name (it does not import core). The log
// itself (append with its line limit, read) is @council/bias-store's (its history-log.ts).

/**
 * A session as the history log keeps it: everything but its query field. The question, when kept (the default), is the
 * entry's own `question`, beside the session, so that nothing built from the session (bias records, contributions,
 * telemetry) can carry it.
 */
export type HistorySession = Omit<CouncilSession, 'query'>;

/** One line of `$LLM_COUNCIL_HOME/history.jsonl`, as the CLI writes and reads it. */
export type HistoryEntry = HistoryLogEntry<HistorySession>;
