import type { ReadBiasRecordsOptions } from './read-bias-records.js';

/**
 * The window and filters an analytics engine applies (`bias-report --engine duckdb|clickhouse`), with
 * `readBiasRecords`' meanings and defaults. An engine returns what `readBiasRecords` returns for the same records:
 * its counts, and the window's records as columns.
 */
export type EngineWindowOptions = Pick<ReadBiasRecordsOptions, 'maxSessions' | 'maxDays' | 'now' | 'model' | 'configVersion'>;
