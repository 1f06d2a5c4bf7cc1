import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasRecordVisitor } from './bias-record-visitor.js';
import { BiasStoreError } from './bias-store-error.js';
import { resolveBiasInputs } from './resolve-bias-inputs.js';
import { scanJsonlLines } from './scan-jsonl-lines.js';
import type { SkipReport } from './skip-report.js';
import { SkipCounter } from './skip-report.js';

export interface StreamBiasRecordsOptions {
  /** Store files, directories of stores, or globs over file names, as `readBiasRecords` takes them (JSONL only). */
  inputs: readonly string[];
  cwd?: string;
  maxLineBytes?: number;
  /** Called with every valid record, in file order, and its time (epoch ms, a zone-less time read as UTC). */
  onRecord: (record: BiasMetricRecord, ms: number) => void;
}

export interface StreamBiasRecordsResult extends SkipReport {
  files: { path: string; lines: number }[];
  records: number;
  timestampsWithoutZone: number;
}

/**
 * Every valid bias record of `inputs`, whole (every ADR-018 field), one at a time: what an export needs, where
 * `readBiasRecords` keeps only the columns a report uses. Lines are skipped and counted by the reader's rules,
 * including its limit on counts (`biasRecordCountProblem`), so an export holds exactly the records a report reads. Memory does not grow with the files.
 */
export async function streamBiasRecords(options: StreamBiasRecordsOptions): Promise<StreamBiasRecordsResult> {
  const files = await resolveBiasInputs(options.inputs, options.cwd ?? process.cwd());
  const parquet = files.find((f) => f.parquet === true);
  if (parquet !== undefined) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `${parquet.file.path} is a Parquet file: export reads JSONL bias stores (an export's Parquet is read by bias-report directly).`,
    });
  }
  const skips = new SkipCounter();
  const result: StreamBiasRecordsResult = {
    files: [],
    records: 0,
    timestampsWithoutZone: 0,
    skipped: 0,
    reasons: skips.reasons,
    firstBadLines: skips.firstBadLines,
  };
  const maxLineBytes = options.maxLineBytes ?? 1024 * 1024;
  for (const { storePath, file } of files) {
    const lines = await scanJsonlLines({
      storePath,
      file,
      maxLineBytes,
      visitor: biasRecordVisitor({
        path: file.path,
        maxLineBytes,
        skips,
        record: (record, time) => {
          if (!time.hasZone) result.timestampsWithoutZone++;
          result.records++;
          options.onRecord(record, time.ms);
        },
      }),
    });
    result.files.push({ path: file.path, lines });
  }
  result.skipped = skips.skipped;
  return result;
}
