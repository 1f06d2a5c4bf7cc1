import type { ContributionRecord } from './contribution-record.js';
import { contributionRecordSchema, contributionWriteProblem } from './contribution-record.js';
import type { JsonlStore } from './jsonl-store.js';
import { createJsonlStore } from './jsonl-store.js';

export interface ContributionStoreOptions {
  /** The active file; usually `councilPaths(home).contributions` (`<home>/contributions.jsonl`). */
  path: string;
  /** Default 64 MiB. */
  segmentBytes?: number;
  /** fsync each append (default false). */
  fsync?: boolean;
}

/**
 * The JSONL store of `ContributionRecord`s, on the machinery of the bias store: whole-line appends on one
 * O_APPEND write, rotation and compaction of segments, schema major 1 on read (other majors skipped and counted),
 * windows by record time and session, and the write rules of `contributionWriteProblem`.
 */
export function createContributionStore(options: ContributionStoreOptions): JsonlStore<ContributionRecord> {
  return createJsonlStore<ContributionRecord>({
    path: options.path,
    schema: contributionRecordSchema,
    ...(options.segmentBytes === undefined ? {} : { segmentBytes: options.segmentBytes }),
    ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
    version: { field: 'schema_version', major: 1 },
    timeOf: (record) => record.timestamp,
    sessionOf: (record) => record.sessionId,
    checkWrite: contributionWriteProblem,
  });
}
