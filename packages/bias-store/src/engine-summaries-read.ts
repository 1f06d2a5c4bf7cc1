import type { BiasSessionSummaries } from '@council/bias-audit';
import type { ReadBiasRecordsOptions, ReadBiasRecordsResult } from './read-bias-records.js';

/** The window and filters an analytics engine's map step applies, with `readBiasRecords`' meanings and defaults. */
export type EngineWindowOptions = Pick<ReadBiasRecordsOptions, 'maxSessions' | 'maxDays' | 'now' | 'model' | 'configVersion'>;

/**
 * What an analytics engine's map step (`bias-report --engine duckdb|clickhouse`) returns: the window's per-session
 * summaries, for `aggregateBiasAudit` to reduce, and the reader's counts with `readBiasRecords`' meanings — so a
 * report from an engine says what was read exactly as the embedded reader's does.
 */
export interface EngineSummariesRead extends Omit<ReadBiasRecordsResult, 'columns'> {
  summaries: BiasSessionSummaries;
  /** Records in the window (filters, time and `maxSessions` applied, repeats counted once): the reader's `columns.length`. */
  kept: number;
}
