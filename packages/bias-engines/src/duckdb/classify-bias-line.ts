import { isUtf8 } from 'node:buffer';
import { safeParseBiasMetricRecord, noRank, parseIsoTimestamp } from '@council/bias-store';
import type { JsonlLine } from '@council/bias-store/internal';
import {
  BiasLineFields,
  biasRecordCountProblem,
  foreignBiasRecordVersion,
  isBlankLine,
  parseBiasLineFast,
  skipByteOrderMark,
} from '@council/bias-store/internal';
import type { SkipReason } from '@council/bias-store';

/** A record as the reader keeps it: the fields a report reads (`null` where the reader holds NaN, noRank or no id). */
export interface LineRecord {
  session: string;
  reviewer: string;
  candidate: string;
  ms: number;
  zoned: boolean;
  position: number;
  len: number;
  score: number | null;
  rank: number | null;
  config: string | null;
  category: string | null;
  pido: boolean;
}

/** What the reader makes of one line: nothing (blank), a record, or a skip with its reason and detail. */
export type LineVerdict =
  | { kind: 'blank' }
  | { kind: 'record'; record: LineRecord }
  | { kind: 'skip'; reason: SkipReason; detail: string; major?: number };

const tornDetail = 'the last line has no newline and does not parse (a write was interrupted)';
const blank: LineVerdict = { kind: 'blank' };
const fields = new BiasLineFields();

/**
 * One JSONL line judged by the rules of `readBiasRecords`' line visitor, step for step and with its words: the byte-order
 * mark, blank lines, invalid UTF-8, the fast path, then JSON.parse, the object check, a later major version, the schema
 * and the limit on counts. (The reader's visitor is a closure inside `readBiasRecords`; this is its copy for the DuckDB
 * map, held to the reader by duckdb/bias-read.test.ts.) Moves `line.start` past a byte-order mark, as the reader does.
 */
export function classifyBiasLine(line: JsonlLine): LineVerdict {
  skipByteOrderMark(line);
  if (isBlankLine(line)) return blank;
  const { buf, start, end } = line;
  if (!line.utf8 && !isUtf8(buf.subarray(start, end))) {
    if (line.terminated)
      return {
        kind: 'skip',
        reason: 'invalid_utf8',
        detail:
          'the line is not valid UTF-8; the rest of the file was read (a tool that rewrote the file in another encoding? re-save it as UTF-8)',
      };
    return { kind: 'skip', reason: 'torn_line', detail: tornDetail };
  }
  if (parseBiasLineFast(buf, start, end, fields)) {
    const text = (from: number, to: number): string => buf.toString('utf8', from, to);
    return {
      kind: 'record',
      record: {
        session: text(fields.sessionStart, fields.sessionEnd),
        reviewer: text(fields.reviewerStart, fields.reviewerEnd),
        candidate: text(fields.modelStart, fields.modelEnd),
        ms: fields.time,
        zoned: fields.hasZone,
        position: fields.position,
        len: fields.responseLengthChars,
        score: Number.isNaN(fields.score) ? null : fields.score,
        rank: fields.rankPosition === noRank ? null : fields.rankPosition,
        config: fields.configStart === -1 ? null : text(fields.configStart, fields.configEnd),
        category: fields.categoryStart === -1 ? null : text(fields.categoryStart, fields.categoryEnd),
        pido: fields.positionIsDisplayOrder,
      },
    };
  }
  return slowLine(line);
}

function slowLine(line: JsonlLine): LineVerdict {
  const body = line.buf.toString('utf8', line.start, line.end);
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    if (line.terminated) return { kind: 'skip', reason: 'invalid_json', detail: 'the line is not valid JSON' };
    return { kind: 'skip', reason: 'torn_line', detail: tornDetail };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { kind: 'skip', reason: 'invalid_record', detail: 'the line is not a JSON object' };
  const foreign = foreignBiasRecordVersion(raw as Record<string, unknown>);
  if (foreign !== undefined)
    return { kind: 'skip', reason: 'unsupported_version', detail: foreign.detail, major: foreign.major };
  const parsed = safeParseBiasMetricRecord(raw);
  if (!parsed.success)
    return {
      kind: 'skip',
      reason: 'invalid_record',
      detail: parsed.error.message.replace(/^Not a bias metric record \((.*)\)\.$/, '$1'),
    };
  const record = parsed.value;
  const countProblem = biasRecordCountProblem(record);
  if (countProblem !== undefined) return { kind: 'skip', reason: 'invalid_record', detail: countProblem };
  const time = parseIsoTimestamp(record.timestamp)!;
  return {
    kind: 'record',
    record: {
      session: record.sessionId,
      reviewer: record.reviewerId,
      candidate: record.modelId,
      ms: time.ms,
      zoned: time.hasZone,
      // + 0: a count written -0 is 0 in the reader's Uint32Array columns.
      position: record.position + 0,
      len: record.responseLengthChars + 0,
      score: record.scoreValue,
      rank: record.rankPosition === null ? null : record.rankPosition + 0,
      config: record.councilConfigVersion,
      category: record.queryMetadata?.category ?? null,
      pido: record.positionIsDisplayOrder,
    },
  };
}
