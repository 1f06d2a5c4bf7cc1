import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasMetricRecordSchema, decodeBiasMetricRecordFast } from './bias-metric-record.js';
import { biasField, biasRecordCountProblem } from './bias-record-fields.js';
import { BiasStoreError } from './bias-store-error.js';
import { blankLine, LineProblem, lineDecoder, tornLine } from './decode-jsonl-line.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
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

const decode = lineDecoder<BiasMetricRecord>({
  schema: biasMetricRecordSchema,
  version: { field: biasField('schemaVersion').key, major: 1 },
  fastDecode: decodeBiasMetricRecordFast,
});

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
      visitor: {
        line: (line) => {
          const decoded = decode(line);
          if (decoded === blankLine) return;
          // As the reader: a last line without its newline that does not parse (or decode as UTF-8) is torn.
          const problem =
            decoded instanceof LineProblem
              ? !line.terminated && (decoded.reason === 'invalid_json' || decoded.reason === 'invalid_utf8')
                ? tornLine
                : decoded
              : undefined;
          if (problem !== undefined)
            return skips.add({ file: file.path, line: line.line, reason: problem.reason, detail: problem.detail });
          const record = decoded as BiasMetricRecord;
          const countProblem = biasRecordCountProblem(record);
          if (countProblem !== undefined)
            return skips.add({ file: file.path, line: line.line, reason: 'invalid_record', detail: countProblem });
          const time = parseIsoTimestamp(record.timestamp)!;
          if (!time.hasZone) result.timestampsWithoutZone++;
          result.records++;
          options.onRecord(record, time.ms);
        },
        tooLong: ({ line }, bytes) =>
          skips.add({
            file: file.path,
            line,
            reason: 'line_too_long',
            detail: `the line is ${bytes} bytes, over the limit of ${maxLineBytes}`,
          }),
        corrupt: ({ line }) =>
          skips.add({
            file: file.path,
            line,
            reason: 'corrupt_segment',
            detail: `the compressed segment is damaged from about line ${line}; the lines before it were read`,
          }),
      },
    });
    result.files.push({ path: file.path, lines });
  }
  result.skipped = skips.skipped;
  return result;
}
