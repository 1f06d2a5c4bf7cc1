import type { BiasMetricRecord } from './bias-metric-record.js';
import { biasMetricRecordSchema, decodeBiasMetricRecordFast } from './bias-metric-record.js';
import type { BiasParquetSupport } from './bias-parquet-support.js';
import { noRank } from './bias-record-columns.js';
import { biasField, biasRecordCountProblem } from './bias-record-fields.js';
import { blankLine, LineProblem, lineDecoder } from './decode-jsonl-line.js';
import type { OutOfRangeRanks, OutOfRangeRank } from './drop-out-of-range-ranks.js';
import { isBlankLine, skipByteOrderMark } from './jsonl-line-start.js';
import { BiasLineFields, parseBiasLine } from './parse-bias-line.js';
import type { BiasInputFile } from './resolve-bias-inputs.js';
import type { JsonlLine } from './scan-jsonl-lines.js';
import { scanJsonlChunks } from './scan-jsonl-lines.js';
import type { BadLine, SkipReport } from './skip-report.js';

const decode = lineDecoder<BiasMetricRecord>({
  schema: biasMetricRecordSchema,
  version: { field: biasField('schemaVersion').key, major: 1 },
  fastDecode: decodeBiasMetricRecordFast,
});

/** A record looked for: its key and rank as bytes (the fast parser's ranges are compared without a string). */
interface Wanted {
  record: OutOfRangeRank;
  session: Buffer;
  reviewer: Buffer;
  model: Buffer;
  found: BadLine | null;
}

const sameBytes = (buf: Buffer, [start, end]: [number, number], want: Buffer): boolean =>
  end - start === want.length && buf.compare(want, 0, want.length, start, end) === 0;

/**
 * Where the window's out-of-range ranks are (`settleWindowRecords`' `outOfRangeRanks.first`): one more scan of the
 * inputs, in the reader's order, for the first valid record of each one's (session, reviewer, reviewed member) with that
 * rank — the record the window kept, since repeats keep the first one read. Only a read that found such ranks (rare)
 * pays for it; nothing is kept per record for it. A JSONL record's place is its file and 1-based line; a Parquet row's,
 * its file and 1-based row number, as the reader places a bad Parquet row. Stops once each is found. Each comes back as
 * an `invalid_record` bad line with the judge's detail; one not found again (the files changed since the read) has
 * line 0 and says so.
 */
export async function locateRecordLines(options: {
  inputs: readonly BiasInputFile[];
  maxLineBytes: number;
  parquet?: BiasParquetSupport | undefined;
  records: readonly OutOfRangeRank[];
}): Promise<BadLine[]> {
  const wanted: Wanted[] = options.records.map((record) => ({
    record,
    session: Buffer.from(record.sessionId, 'utf8'),
    reviewer: Buffer.from(record.reviewerId, 'utf8'),
    model: Buffer.from(record.modelId, 'utf8'),
    found: null,
  }));
  let left = wanted.length;
  let file = '';
  const take = (w: Wanted, line: number): void => {
    w.found = { file, line, reason: 'invalid_record', detail: w.record.detail };
    left--;
  };
  const byRecord = (values: { sessionId: string; reviewerId: string; modelId: string; rank: number }, line: number) => {
    for (const w of wanted) {
      const r = w.record;
      if (w.found === null && r.sessionId === values.sessionId && r.reviewerId === values.reviewerId)
        if (r.modelId === values.modelId && r.rank === values.rank) return take(w, line);
    }
  };
  const fields = new BiasLineFields();
  const line = (l: JsonlLine): void => {
    skipByteOrderMark(l);
    if (isBlankLine(l)) return;
    const { buf } = l;
    if (parseBiasLine(l, fields)) {
      for (const w of wanted) {
        if (w.found !== null || fields.rankPosition !== w.record.rank) continue;
        if (!sameBytes(buf, [fields.sessionStart, fields.sessionEnd], w.session)) continue;
        if (!sameBytes(buf, [fields.reviewerStart, fields.reviewerEnd], w.reviewer)) continue;
        if (sameBytes(buf, [fields.modelStart, fields.modelEnd], w.model)) return take(w, l.line);
      }
      return;
    }
    const record = decode(l);
    if (record === blankLine || record instanceof LineProblem || biasRecordCountProblem(record) !== undefined) return;
    byRecord({ ...record, rank: record.rankPosition ?? noRank }, l.line);
  };
  const visitor = { line, tooLong: (): void => {}, corrupt: (): void => {} };
  for (const { storePath, file: segment, parquet } of options.inputs) {
    if (left === 0) break;
    file = segment.path;
    if (parquet === true) {
      await options.parquet?.scan({
        path: segment.path,
        row: (row, rowNumber) => byRecord({ ...row, rank: row.rankPosition }, rowNumber),
        bad: () => {},
      });
      continue;
    }
    const chunks = scanJsonlChunks({ storePath, file: segment, maxLineBytes: options.maxLineBytes, visitor });
    for (;;) {
      if ((await chunks.next()).done === true) break;
      if (left === 0) {
        await chunks.return(0);
        break;
      }
    }
  }
  return wanted.map(
    (w) =>
      w.found ?? {
        file: '',
        line: 0,
        reason: 'invalid_record',
        detail: `${w.record.detail} (its line was not found again: did the files change during the read?)`,
      },
  );
}

/**
 * The skip report of a read with the window's out-of-range ranks added as invalid records: each counted under
 * `invalid_record`, and placed (`lines`, from `locateRecordLines`) after the lines the read skipped, up to the report's
 * 20. The report given is left as it was.
 */
export function withInvalidRecords(
  skips: SkipReport,
  outOfRange: OutOfRangeRanks,
  lines: readonly BadLine[],
): SkipReport {
  if (outOfRange.count === 0)
    return { skipped: skips.skipped, reasons: skips.reasons, firstBadLines: skips.firstBadLines };
  return {
    skipped: skips.skipped + outOfRange.count,
    reasons: { ...skips.reasons, invalid_record: skips.reasons.invalid_record + outOfRange.count },
    firstBadLines: [...skips.firstBadLines, ...lines].slice(0, 20),
  };
}

/** `locateRecordLines` and `withInvalidRecords` in one, for a reader's last step: the skip report with the window's out-of-range ranks. */
export async function reportOutOfRangeRanks(options: {
  skips: SkipReport;
  outOfRange: OutOfRangeRanks;
  inputs: readonly BiasInputFile[];
  maxLineBytes: number;
  parquet?: BiasParquetSupport | undefined;
}): Promise<SkipReport> {
  const { skips, outOfRange } = options;
  if (outOfRange.count === 0) return withInvalidRecords(skips, outOfRange, []);
  // Only as many as the report still has room for are looked for.
  const room = Math.max(0, 20 - skips.firstBadLines.length);
  const lines = room === 0 ? [] : await locateRecordLines({ ...options, records: outOfRange.first.slice(0, room) });
  return withInvalidRecords(skips, outOfRange, lines);
}
