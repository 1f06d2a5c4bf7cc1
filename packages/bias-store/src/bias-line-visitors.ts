import { isUtf8 } from 'node:buffer';
import { foreignBiasRecordVersion, safeParseBiasMetricRecord } from './bias-metric-record.js';
import type { BiasParquetRow } from './bias-parquet-support.js';
import { noRank } from './bias-record-columns.js';
import { biasRecordCountProblem } from './bias-record-fields.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { isBlankLine, skipByteOrderMark } from './jsonl-line-start.js';
import { parseBiasLine } from './parse-bias-line.js';
import type { JsonlLine, JsonlLinePlace } from './scan-jsonl-lines.js';
import type { SkipReason } from './skip-report.js';
import type { WindowCollector } from './window-collector.js';

/**
 * The JSONL lines' visitor of `readBiasRecords`: a blank line is passed over, a byte-order mark on line 1 dropped, a
 * line not in UTF-8, too long or in a damaged segment skipped; the usual line is read by the fast parser without
 * building an object, and any other through `JSON.parse` and the schema (a later major version, an invalid record or
 * an impossible count skipped with its reason). Each record read goes to `c.accept()`. In the second pass nothing is
 * counted or skipped again.
 */
export function jsonlLineVisitor(
  c: WindowCollector,
  maxLineBytes: number,
): {
  line: (line: JsonlLine) => void;
  tooLong: (place: JsonlLinePlace, bytes: number) => void;
  corrupt: (place: { line: number }) => void;
} {
  // The collector's objects are fixed: taken once, so the per-line code reads locals as it did inline.
  const { fields, row, sessionIds, models, configVersions, categories, result } = c;
  const slowLine = (line: JsonlLine): void => {
    const body = line.buf.toString('utf8', line.start, line.end);
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      if (c.firstPass) {
        if (line.terminated) c.skip(line.line, 'invalid_json', 'the line is not valid JSON');
        else
          c.skip(line.line, 'torn_line', 'the last line has no newline and does not parse (a write was interrupted)');
      }
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      if (c.firstPass) c.skip(line.line, 'invalid_record', 'the line is not a JSON object');
      return;
    }
    const foreign = foreignBiasRecordVersion(raw as Record<string, unknown>);
    if (foreign !== undefined) {
      if (c.firstPass) {
        c.skip(line.line, 'unsupported_version', foreign.detail);
        const { major } = foreign;
        if (result.foreignMajors.length < 10 && !result.foreignMajors.includes(major)) result.foreignMajors.push(major);
      }
      return;
    }
    const parsed = safeParseBiasMetricRecord(raw);
    if (!parsed.success) {
      if (c.firstPass)
        c.skip(
          line.line,
          'invalid_record',
          parsed.error.message.replace(/^Not a bias metric record \((.*)\)\.$/, '$1'),
        );
      return;
    }
    const record = parsed.value;
    const countProblem = biasRecordCountProblem(record);
    if (countProblem !== undefined) {
      if (c.firstPass) c.skip(line.line, 'invalid_record', countProblem);
      return;
    }
    const time = parseIsoTimestamp(record.timestamp)!;
    fields.time = time.ms;
    fields.hasZone = time.hasZone;
    fields.position = record.position;
    fields.responseLengthChars = record.responseLengthChars;
    fields.score = record.scoreValue ?? Number.NaN;
    fields.rankPosition = record.rankPosition ?? noRank;
    fields.positionIsDisplayOrder = record.positionIsDisplayOrder;
    row.session = sessionIds.of(record.sessionId);
    row.reviewer = models.of(record.reviewerId);
    row.candidate = models.of(record.modelId);
    row.configVersion = record.councilConfigVersion === null ? 0 : configVersions.of(record.councilConfigVersion) + 1;
    row.queryCategory = record.queryMetadata?.category == null ? 0 : categories.of(record.queryMetadata.category) + 1;
    c.accept();
  };

  return {
    line: (line: JsonlLine): void => {
      skipByteOrderMark(line);
      if (isBlankLine(line)) return;
      const { buf, start, end } = line;
      if (c.firstPass) result.lines++;
      if (!line.utf8 && !isUtf8(buf.subarray(start, end))) {
        // A last line cut inside a character is a torn write, not a corrupt one.
        if (c.firstPass) {
          if (line.terminated)
            c.skip(
              line.line,
              'invalid_utf8',
              'the line is not valid UTF-8; the rest of the file was read (a tool that rewrote the file in another encoding? re-save it as UTF-8)',
            );
          else
            c.skip(line.line, 'torn_line', 'the last line has no newline and does not parse (a write was interrupted)');
        }
        return;
      }
      if (!parseBiasLine(line, fields)) {
        slowLine(line);
        return;
      }
      row.session = sessionIds.ofBytes(buf, fields.sessionStart, fields.sessionEnd);
      row.reviewer = models.ofBytes(buf, fields.reviewerStart, fields.reviewerEnd);
      row.candidate = models.ofBytes(buf, fields.modelStart, fields.modelEnd);
      row.configVersion =
        fields.configStart === -1 ? 0 : configVersions.ofBytes(buf, fields.configStart, fields.configEnd) + 1;
      row.queryCategory =
        fields.categoryStart === -1 ? 0 : categories.ofBytes(buf, fields.categoryStart, fields.categoryEnd) + 1;
      c.accept();
    },
    tooLong: ({ line }: JsonlLinePlace, bytes: number): void => {
      if (c.firstPass) {
        result.lines++;
        c.skip(line, 'line_too_long', `the line is ${bytes} bytes, over the limit of ${maxLineBytes}`);
      }
    },
    corrupt: ({ line }: { line: number }): void => {
      if (c.firstPass)
        c.skip(
          line,
          'corrupt_segment',
          `the compressed segment is damaged from about line ${line}; the lines before it were read`,
        );
    },
  };
}

/** The Parquet rows' visitor of `readBiasRecords`: rows are checked by the scanner; a row is then taken as a line the fast path read. */
export function parquetRowVisitor(c: WindowCollector): {
  row: (r: BiasParquetRow) => void;
  bad: (rowNumber: number, reason: SkipReason, detail: string) => void;
} {
  const { fields, row, sessionIds, models, configVersions, categories, result } = c;
  return {
    row: (r: BiasParquetRow): void => {
      if (c.firstPass) result.lines++;
      fields.time = r.time;
      fields.hasZone = true;
      fields.position = r.position;
      fields.responseLengthChars = r.responseLengthChars;
      fields.score = r.score;
      fields.rankPosition = r.rankPosition;
      fields.positionIsDisplayOrder = r.positionIsDisplayOrder;
      row.session = sessionIds.of(r.sessionId);
      row.reviewer = models.of(r.reviewerId);
      row.candidate = models.of(r.modelId);
      row.configVersion = r.councilConfigVersion === null ? 0 : configVersions.of(r.councilConfigVersion) + 1;
      row.queryCategory = r.queryCategory === null ? 0 : categories.of(r.queryCategory) + 1;
      c.accept();
    },
    bad: (rowNumber: number, reason: SkipReason, detail: string): void => {
      if (!c.firstPass) return;
      if (reason !== 'corrupt_segment') result.lines++;
      c.skip(rowNumber, reason, detail);
    },
  };
}
