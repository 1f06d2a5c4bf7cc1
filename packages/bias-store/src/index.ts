export { BiasStoreError } from './bias-store-error.js';
export type { BiasStoreErrorCode } from './bias-store-error.js';

export {
  ConsentLevel,
  consentAcceptedValues,
  consentLevelNames,
  isConsentLevel,
  parseConsentLevel,
  safeParseConsentLevel,
} from './consent-level.js';

export {
  biasMetricRecordSchema,
  biasSchemaVersion,
  parseBiasMetricRecord,
  safeParseBiasMetricRecord,
} from './bias-metric-record.js';
export type { BiasMetricRecord } from './bias-metric-record.js';
// The one zod-error describer (`path: message`, first three issues), for messages about any stored or sent shape.
export { describeZodError } from './describe-zod-error.js';
export type { ZodIssueList } from './describe-zod-error.js';

export { deriveQueryMetadata } from './query-metadata.js';
export type { QueryMetadata } from './query-metadata.js';
export { detectQueryCategory, queryCategories } from './query-category.js';
export type { QueryCategory } from './query-category.js';
export { tokenCountBucket, tokenCountBuckets } from './token-count-bucket.js';
export type { TokenCountBucket } from './token-count-bucket.js';
export { detectQueryLanguage } from './query-language.js';
export { hashQuery } from './query-hash.js';

export { recordsFromObservations } from './records-from-observations.js';
export type { RecordsFromObservationsOptions } from './records-from-observations.js';
export { toObservation } from './to-observation.js';

export { appendPrepared, createJsonlStore } from './jsonl-store.js';
export { defaultMaxLineBytes } from './jsonl-store-settings.js';
export type { JsonlStore, JsonlStoreOptions, PreparedAppend } from './jsonl-store.js';
export type { JsonlCompactResult } from './compact-segments.js';
export type { JsonlEntry } from './jsonl-entry.js';
export type { JsonlReadOptions } from './jsonl-read-window.js';
export type { JsonlReadResult } from './read-jsonl-store.js';
export type { JsonlStoreStats } from './jsonl-store-stats.js';
export { skipReasons } from './skip-report.js';
export type { BadLine, SkipReason, SkipReport } from './skip-report.js';
export { isStoreFile } from './segment-files.js';
export type { SegmentFile } from './segment-files.js';
export { createBiasStore } from './create-bias-store.js';
export type { BiasStoreOptions } from './create-bias-store.js';

export {
  contributionRecordId,
  contributionRecordSchema,
  contributionSchemaVersion,
  safeParseContributionRecord,
} from './contribution-record.js';
export type { ContributionMode, ContributionRecord } from './contribution-record.js';
export { createContributionStore } from './create-contribution-store.js';
export type { ContributionStoreOptions } from './create-contribution-store.js';
export { readContributionRecords } from './read-contribution-records.js';
export type { ReadContributionRecordsOptions, ReadContributionRecordsResult } from './read-contribution-records.js';
export { parseIsoTimestamp } from './iso-timestamp.js';
export type { ParsedTimestamp } from './iso-timestamp.js';

export { councilPaths } from './council-paths.js';
export type { CouncilPaths } from './council-paths.js';

// The session history log (history.jsonl): whole lines of at most 1 MiB, one write each, torn lines skipped on read.
export { appendHistory, historyMaxLineBytes, prepareHistory, readHistory } from './history-log.js';
export type { HistoryEntry, HistoryReadResult, HistorySessionFields } from './history-log.js';
export { appendJsonLines } from './append-json-lines.js';

// A session saved as one unit across its files: the journal, the readers' leave-out list, and completing a failed save.
export { completeUnsavedSessions, listWhat, saveSessionWhole, SessionSaveError } from './save-session-whole.js';
export type { CompleteUnsavedResult, SessionPart } from './save-session-whole.js';
export { isAbandoned, listJournal, unsavedSessionIds } from './session-journal.js';
export type { JournalFile, JournalState } from './session-journal.js';

export { parseJsonlCursor, safeParseJsonlCursor, startCursor } from './jsonl-cursor.js';
export type { JsonlCursor } from './jsonl-cursor.js';
export { readCursorFile, writeCursorFile } from './cursor-file.js';
export { createTelemetryOutboxStore, openTelemetryOutbox } from './telemetry-outbox.js';
export type { TelemetryOutbox, TelemetryOutboxPaths } from './telemetry-outbox.js';
export { deadLetterEntrySchema } from './dead-letter-entry.js';
export type { DeadLetterEntry } from './dead-letter-entry.js';
export { writeFileAtomic } from './write-file-atomic.js';
export { createNewFile, replaceFileWhole, writeTemporaryFile } from './write-new-file.js';
export { readRegularFile } from './read-regular-file.js';
export { makeDirectory } from './make-directory.js';

export { readBiasRecords } from './read-bias-records.js';
export type { ReadBiasRecordsOptions, ReadBiasRecordsResult } from './read-bias-records.js';
export type { BiasWindowExclusions } from './window-exclusions.js';
export { noRank } from './bias-record-columns.js';
export type { BiasRecordColumns } from './bias-record-columns.js';
export type { RepeatedRecords } from './drop-repeated-records.js';
export { columnsToObservations } from './columns-to-observations.js';

// Team scale: the records as canonical JSONL (or Parquet, given @council/bias-engines), partitioned by UTC day (`council store export`).
export { canonicalBiasLine, exportBiasRecords } from './export-bias-records.js';
export type {
  BiasExportFormat,
  BiasExportPartition,
  ExportBiasRecordsOptions,
  ExportBiasRecordsResult,
} from './export-bias-records.js';
// What readBiasRecords and exportBiasRecords take as `parquet` to read and write Parquet: @council/bias-engines' biasParquet.
export type { BiasParquetRow, BiasParquetSupport, ScanBiasParquetOptions } from './bias-parquet-support.js';
export { streamBiasRecords } from './stream-bias-records.js';
export type { StreamBiasRecordsOptions, StreamBiasRecordsResult } from './stream-bias-records.js';
// The window an analytics engine reads (@council/bias-engines: DuckDB, ClickHouse); an engine returns readBiasRecords' result.
export type { EngineWindowOptions } from './engine-window-options.js';
