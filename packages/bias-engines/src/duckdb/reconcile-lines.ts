import { isUtf8 } from 'node:buffer';
import { BiasStoreError } from '@council/bias-store';
import type { BiasInputFile, JsonlLine, JsonlLinePlace } from '@council/bias-store/internal';
import { scanJsonlLines, SkipCounter } from '@council/bias-store/internal';
import type { LineRecord, LineVerdict } from './classify-bias-line.js';
import { classifyBiasLine } from './classify-bias-line.js';

/** What DuckDB's scan holds of one input file: its rows and the first row's `ord` (rows follow it one by one). */
export interface ScannedFile {
  rows: number;
  firstOrd: number;
}

export interface ReconcileOptions {
  inputs: readonly BiasInputFile[];
  /** Inputs DuckDB did not read (it could not read them as the reader does): the reader's code reads them whole. */
  jsOwned: ReadonlySet<number>;
  /** Per input index, what `scan` holds of it. */
  scanned: ReadonlyMap<number, ScannedFile>;
  /** Per input index, the rows of `scan` SQL did not accept, by `ord`: 1 for the reader to decide, 2 rejected by the rules. */
  unaccepted: ReadonlyMap<number, ReadonlyMap<number, number>>;
  maxLineBytes: number;
}

/** A record the reader's code read, for `scan`. */
export interface ReadRecord {
  ord: number;
  file: number;
  record: LineRecord;
}

/** The reader's account of the lines (counts and skips) and the corrections `scan` needs to hold exactly its records. */
export interface Reconciled {
  files: { path: string; lines: number }[];
  lines: number;
  skips: SkipCounter;
  foreignMajors: number[];
  /** Rows of `scan` that are no record of the reader's (a line the reader decided otherwise, or read no further). */
  remove: number[];
  /** Per input index, the `ord` from which its rows go (the lines after a damaged part of a gzip file). */
  removeFrom: { file: number; ord: number }[];
  add: ReadRecord[];
  /** Lines the reader's code judged (SQL could not, or DuckDB read them otherwise). */
  judged: number;
}

/** A UTF-16 surrogate without its pair (a pair is one code point under the u flag). */
const loneSurrogate = /\p{Cs}/u;

/** The first `ord` of an input's lines or rows, as record-sql.ts's `ordBase`. */
export const ordBaseOf = (index: number): number => index * 4294967296;

// Bytes DuckDB's JSON reader takes as white space between values, beyond JSON's own (space, tab, CR, LF).
const isDuckdbSpace = (c: number | undefined): boolean =>
  c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0b || c === 0x0c;
/**
 * What DuckDB's parser reads otherwise than JSON.parse: a comma before a closing brace (DuckDB allows trailing commas)
 * and vertical tab or form feed (white space to DuckDB, not to JSON). A line holding one is judged by the reader's code.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const readOtherwise = /,[ \t\r]*\}|[\x0b\x0c]/g;

/** The byte offsets in `buf` where DuckDB might read otherwise than the reader (usually none). */
function suspectOffsets(buf: Buffer): number[] {
  // Compact JSON, as Council writes it, has none of these: the chunk needs no closer look (native searches, no string).
  if (
    buf.indexOf(0x0b) === -1 &&
    buf.indexOf(0x0c) === -1 &&
    buf.indexOf(',}') === -1 &&
    buf.indexOf(', ') === -1 &&
    buf.indexOf(',\t') === -1 &&
    buf.indexOf(',\r') === -1
  )
    return [];
  const offsets: number[] = [];
  const text = buf.toString('latin1');
  readOtherwise.lastIndex = 0;
  for (let m = readOtherwise.exec(text); m !== null; m = readOtherwise.exec(text)) offsets.push(m.index);
  return offsets;
}

/**
 * Goes through the inputs in read order with the reader's own line scanner and rules: counts the lines as the reader
 * does, and judges with the reader's code (`classifyBiasLine`, `scanBiasParquet`) every line SQL did not accept and
 * every line DuckDB may have read otherwise — so each skipped line's reason and detail are the reader's own, and a
 * line the reader reads differently from SQL is corrected in `scan`. A line SQL's rules rejected but the reader accepts,
 * or a file whose lines DuckDB counted otherwise, is a fault of the SQL, and throws.
 */
export async function reconcileLines(options: ReconcileOptions): Promise<Reconciled> {
  const out: Reconciled = {
    files: [],
    lines: 0,
    skips: new SkipCounter(),
    foreignMajors: [],
    remove: [],
    removeFrom: [],
    add: [],
    judged: 0,
  };
  for (let index = 0; index < options.inputs.length; index++) {
    const input = options.inputs[index]!;
    const lines =
      input.parquet === true ? await reconcileParquet(options, index, out) : await reconcileJsonl(options, index, out);
    out.files.push({ path: input.file.path, lines });
  }
  return out;
}

function skip(
  out: Reconciled,
  place: { file: string; line: number },
  verdict: Extract<LineVerdict, { kind: 'skip' }>,
): void {
  out.skips.add({ file: place.file, line: place.line, reason: verdict.reason, detail: verdict.detail });
  if (verdict.major !== undefined && out.foreignMajors.length < 10 && !out.foreignMajors.includes(verdict.major))
    out.foreignMajors.push(verdict.major);
}

async function reconcileJsonl(options: ReconcileOptions, index: number, out: Reconciled): Promise<number> {
  const { storePath, file } = options.inputs[index]!;
  const owned = options.jsOwned.has(index);
  const scanned = options.scanned.get(index) ?? { rows: 0, firstOrd: 0 };
  const unaccepted = options.unaccepted.get(index) ?? new Map<number, number>();
  let rows = 0; // DuckDB's rows so far in this file
  let damaged = false;
  let suspectBuf: Buffer | null = null;
  let suspects: number[] = [];
  let next = 0;

  const judge = (line: JsonlLine, ord: number | null): void => {
    const status = ord === null ? undefined : (unaccepted.get(ord) ?? 0);
    out.judged++;
    const verdict = classifyBiasLine(line);
    if (status === 0) out.remove.push(ord!);
    if (verdict.kind === 'blank') return;
    out.lines++;
    if (verdict.kind === 'skip') return skip(out, { file: file.path, line: line.line }, verdict);
    if (status === 2) {
      throw new Error(
        `DuckDB's record rules rejected line ${line.line} of ${file.path}, which the bias reader accepts: the SQL of duckdb/record-sql.ts disagrees with the reader (a bug; report it with the line).`,
      );
    }
    const r = verdict.record;
    if (
      [r.session, r.reviewer, r.candidate, r.config ?? '', r.category ?? ''].some((text) => loneSurrogate.test(text))
    ) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `Line ${line.line} of ${file.path} names a session, member, config version or category with a lone UTF-16 surrogate (a \\ud800-style escape without its pair), which DuckDB's UTF-8 text cannot hold: read these inputs without --engine duckdb, or correct the line.`,
      });
    }
    out.add.push({ ord: ord ?? ordBaseOf(index) + line.line, file: index, record: r });
  };

  const lines = await scanJsonlLines({
    storePath,
    file,
    maxLineBytes: options.maxLineBytes,
    visitor: {
      line: (line: JsonlLine): void => {
        const { buf, start, end } = line;
        let ord: number | null = null;
        if (!owned) {
          let first = start;
          while (first < end && isDuckdbSpace(buf[first])) first++;
          if (first < end) ord = scanned.firstOrd + rows++;
        }
        if (owned) return judge(line, null);
        if (buf !== suspectBuf) {
          suspectBuf = buf;
          suspects = suspectOffsets(buf);
          next = 0;
        }
        while (next < suspects.length && suspects[next]! < start) next++;
        const suspect = next < suspects.length && suspects[next]! < end;
        const bom = line.line === 1 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf;
        if (
          ord === null ||
          suspect ||
          bom ||
          !line.terminated ||
          (!line.utf8 && !isUtf8Line(line)) ||
          unaccepted.has(ord)
        )
          return judge(line, ord);
        out.lines++; // a record SQL read as the reader does
      },
      tooLong: (place: JsonlLinePlace, bytes: number): void => {
        out.lines++;
        if (!owned) {
          const ord = scanned.firstOrd + rows++;
          if ((unaccepted.get(ord) ?? 0) === 0) out.remove.push(ord);
        }
        out.skips.add({
          file: file.path,
          line: place.line,
          reason: 'line_too_long',
          detail: `the line is ${bytes} bytes, over the limit of ${options.maxLineBytes}`,
        });
      },
      corrupt: ({ line }: { line: number }): void => {
        damaged = true;
        if (!owned) out.removeFrom.push({ file: index, ord: scanned.firstOrd + rows });
        out.skips.add({
          file: file.path,
          line,
          reason: 'corrupt_segment',
          detail: `the compressed segment is damaged from about line ${line}; the lines before it were read`,
        });
      },
    },
  });
  if (!owned && !damaged && rows !== scanned.rows) {
    throw new Error(
      `DuckDB read ${scanned.rows} lines of ${file.path} where the bias reader reads ${rows}: their lines no longer line up (a bug in duckdb/reconcile-lines.ts; report it with the file).`,
    );
  }
  return lines;
}

function isUtf8Line(line: JsonlLine): boolean {
  return isUtf8(line.buf.subarray(line.start, line.end));
}

async function reconcileParquet(options: ReconcileOptions, index: number, out: Reconciled): Promise<number> {
  const { file } = options.inputs[index]!;
  const owned = options.jsOwned.has(index);
  const scanned = options.scanned.get(index) ?? { rows: 0, firstOrd: 0 };
  const unaccepted = options.unaccepted.get(index) ?? new Map<number, number>();
  if (!owned && unaccepted.size === 0) {
    out.lines += scanned.rows;
    return scanned.rows;
  }
  // The rows SQL rejected, or a file DuckDB could not read: the reader's Parquet scanner judges the file.
  const { scanBiasParquet } = await import('../scan-bias-parquet.js');
  const badRows: number[] = [];
  const rows = await scanBiasParquet({
    path: file.path,
    row: (row, rowNumber) => {
      out.lines++;
      if (!owned) {
        if (unaccepted.has(ordBaseOf(index) + rowNumber))
          throw new Error(
            `DuckDB's record rules rejected row ${rowNumber} of ${file.path}, which the bias reader accepts (a bug in duckdb/record-sql.ts; report it with the file).`,
          );
        return;
      }
      out.add.push({
        ord: ordBaseOf(index) + rowNumber,
        file: index,
        record: {
          session: row.sessionId,
          reviewer: row.reviewerId,
          candidate: row.modelId,
          ms: row.time,
          zoned: true,
          position: row.position,
          len: row.responseLengthChars,
          score: Number.isNaN(row.score) ? null : row.score,
          rank: row.rankPosition === 4294967295 ? null : row.rankPosition,
          config: row.councilConfigVersion,
          category: row.queryCategory,
          pido: row.positionIsDisplayOrder,
        },
      });
    },
    bad: (rowNumber, reason, detail) => {
      if (reason !== 'corrupt_segment') out.lines++;
      if (reason !== 'corrupt_segment') badRows.push(rowNumber);
      out.skips.add({ file: file.path, line: rowNumber, reason, detail });
    },
  });
  if (
    !owned &&
    (badRows.length !== unaccepted.size ||
      badRows.some((r) => !unaccepted.has(ordBaseOf(index) + r)) ||
      rows !== scanned.rows)
  ) {
    throw new Error(
      `DuckDB's record rules and the bias reader disagree on which rows of ${file.path} are records (a bug in duckdb/record-sql.ts; report it with the file).`,
    );
  }
  return rows;
}
