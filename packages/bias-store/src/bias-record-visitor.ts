import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasMetricRecordSchema, decodeBiasMetricRecordFast } from './bias-metric-record.js';
import { biasField, biasRecordCountProblem } from './bias-record-fields.js';
import { blankLine, LineProblem, lineDecoder, tornLine } from './decode-jsonl-line.js';
import type { ParsedTimestamp } from './iso-timestamp.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import type { JsonlLineVisitor } from './jsonl-line-splitter.js';
import type { SkipCounter } from './skip-report.js';

const decode = lineDecoder<BiasMetricRecord>({
  schema: biasMetricRecordSchema,
  version: { field: biasField('schemaVersion').key, major: 1 },
  fastDecode: decodeBiasMetricRecordFast,
});

/**
 * The visitor of one JSONL file's lines for the readers of whole records (`streamBiasRecords`, the ClickHouse load):
 * each valid record goes to `record` with its time, and every other line is skipped into `skips` by the reader's rules —
 * a blank line passed over, a last line without its newline that does not parse (or decode as UTF-8) torn, an invalid
 * or later-major line, a count past the reader's limit (`biasRecordCountProblem`), a line over `maxLineBytes`, and a
 * damaged compressed segment — so a load or an export holds exactly the records a report reads.
 */
export function biasRecordVisitor(options: {
  path: string;
  maxLineBytes: number;
  skips: SkipCounter;
  record: (record: BiasMetricRecord, time: ParsedTimestamp) => void;
}): JsonlLineVisitor {
  const { path: file, maxLineBytes, skips } = options;
  return {
    line: (line) => {
      const decoded = decode(line);
      if (decoded === blankLine) return;
      const problem =
        decoded instanceof LineProblem
          ? !line.terminated && (decoded.reason === 'invalid_json' || decoded.reason === 'invalid_utf8')
            ? tornLine
            : decoded
          : undefined;
      if (problem !== undefined)
        return skips.add({ file, line: line.line, reason: problem.reason, detail: problem.detail });
      const record = decoded as BiasMetricRecord;
      const countProblem = biasRecordCountProblem(record);
      if (countProblem !== undefined)
        return skips.add({ file, line: line.line, reason: 'invalid_record', detail: countProblem });
      options.record(record, parseIsoTimestamp(record.timestamp)!);
    },
    tooLong: ({ line }, bytes) =>
      skips.add({
        file,
        line,
        reason: 'line_too_long',
        detail: `the line is ${bytes} bytes, over the limit of ${maxLineBytes}`,
      }),
    corrupt: ({ line }) =>
      skips.add({
        file,
        line,
        reason: 'corrupt_segment',
        detail: `the compressed segment is damaged from about line ${line}; the lines before it were read`,
      }),
  };
}
