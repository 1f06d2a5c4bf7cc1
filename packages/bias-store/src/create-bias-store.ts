import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasMetricRecordSchema, biasRecordWriteProblem, decodeBiasMetricRecordFast } from './bias-metric-record.js';
import { biasField } from './bias-record-fields.js';
import type { JsonlStore } from './jsonl-store.js';
import { createJsonlStore } from './jsonl-store.js';

export interface BiasStoreOptions {
  /** The active file; usually the bias store path of the settings the CLI resolves (`councilPaths(home).biasMetrics` by default). */
  path: string;
  /** Default 64 MiB. */
  segmentBytes?: number;
  /** fsync each append (default false). */
  fsync?: boolean;
}

/**
 * The JSONL store of `BiasMetricRecord`s: schema major 1 on read (other majors skipped and counted),
 * windows by record time and session, and the write rules of `biasRecordWriteProblem`.
 */
export function createBiasStore(options: BiasStoreOptions): JsonlStore<BiasMetricRecord> {
  return createJsonlStore<BiasMetricRecord>({
    path: options.path,
    schema: biasMetricRecordSchema,
    ...(options.segmentBytes === undefined ? {} : { segmentBytes: options.segmentBytes }),
    ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
    version: { field: biasField('schemaVersion').key, major: 1 },
    timeOf: (record) => record.timestamp,
    sessionOf: (record) => record.sessionId,
    checkWrite: biasRecordWriteProblem,
    fastDecode: decodeBiasMetricRecordFast,
  });
}
