import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { BiasColumnsBuilder } from './bias-columns-builder.js';
import { checkWindowOptions } from './engine-window-options.js';
import type { EngineWindowOptions } from './engine-window-options.js';
import { settleWindowRecords } from './settle-window-records.js';
import type { BiasRow } from './bias-columns-builder.js';
import { foreignBiasRecordVersion, safeParseBiasMetricRecord } from './bias-metric-record.js';
import { biasRecordCountProblem } from './bias-record-fields.js';
import type { BiasRecordColumns } from './bias-record-columns.js';
import { noRank } from './bias-record-columns.js';
import { BiasStoreError } from './bias-store-error.js';
import { IdInterner } from './id-interner.js';
import type { RepeatedRecords } from './drop-repeated-records.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import type { BadLine, SkipReason, SkipReport } from './skip-report.js';
import { BiasLineFields, parseBiasLineFast } from './parse-bias-line.js';
import type { BiasInputFile } from './resolve-bias-inputs.js';
import { resolveBiasInputs } from './resolve-bias-inputs.js';
import type { BiasParquetRow, BiasParquetSupport } from './bias-parquet-support.js';
import { parquetNeedsEngines } from './bias-parquet-support.js';
import type { JsonlLine, JsonlLinePlace } from './scan-jsonl-lines.js';
import { scanJsonlLines } from './scan-jsonl-lines.js';
import { SessionWindow } from './session-window.js';

export interface ReadBiasRecordsOptions extends EngineWindowOptions {
  /** Store files, directories of stores, or globs over file names (relative to `cwd`). Each store's closed and compacted segments are read too. */
  inputs: readonly string[];
  /** Where relative inputs start; default the current directory. */
  cwd?: string;
  /** Longest line read; longer ones are skipped and counted. Default 1 MiB. */
  maxLineBytes?: number;
  /**
   * Sessions to leave out whatever their records say: those not yet saved whole (`unsavedSessionIds` of the home's
   * journal), whose records a reader must not count before every file holds the session. Counted in `excluded.unsaved`.
   */
  leaveOutSessions?: ReadonlySet<string>;
  /**
   * Reads Parquet inputs (`council store export`'s files and directories): `biasParquet` of `@council/bias-engines`.
   * Without it a Parquet input is an `INVALID_OPTION` error saying so; JSONL and gzip need nothing.
   */
  parquet?: BiasParquetSupport;
}

/** Records the window left out, by the filter that left them out (each record counts under the first that applies). */
export interface BiasWindowExclusions {
  model: number;
  configVersion: number;
  /** Older than the window's `days`. */
  beforeWindow: number;
  /** Timestamped after `now`. */
  future: number;
  /** Of sessions older than the window's last `sessions`. */
  beyondSessions: number;
  /** Of sessions in `leaveOutSessions` (not saved whole yet). An engine that reads a table or other files counts none. */
  unsaved: number;
}

export interface ReadBiasRecordsResult extends SkipReport {
  /** The window's records, by session, oldest session first. */
  columns: BiasRecordColumns;
  /** Files read, in order, with their lines. */
  files: { path: string; lines: number }[];
  /** Lines read, blank lines aside. */
  lines: number;
  /** Valid bias records read, before the window. */
  records: number;
  /** Sessions with a record that passed the model, config-version and time filters (before the window's `sessions`). */
  sessions: number;
  excluded: BiasWindowExclusions;
  /** Repeated records in the window (counted once). */
  repeated: RepeatedRecords;
  /** Majors of the `unsupported_version` lines, e.g. [2] (the first ten distinct). */
  foreignMajors: number[];
  timestampsWithoutZone: number;
  /** Records in the window whose `position` may be a rank (older writers). */
  positionNotDisplayOrder: number;
  /** Records in the window with a simulated member (`simulated:…`). */
  simulatedRecords: number;
  /** Human-readable warnings: zone-less timestamps, conflicting records. */
  warnings: string[];
}

/** The shortest bias record line is about 150 bytes: an upper bound of the records that the files can hold. */
const minimumLineBytes = 128;

/**
 * How many records to make room for: what the files can hold (a gzipped file's own trailer says how large it
 * is uncompressed), or — with a session window — what a few times the sessions the reader holds at once need.
 */
async function recordsUpperBound(inputs: readonly BiasInputFile[], sessionLimit: number): Promise<number> {
  let bytes = 0;
  for (const { file, parquet } of inputs)
    bytes +=
      parquet === true
        ? file.bytes * parquetExpansion
        : file.compressed
          ? await gzipSize(file.path, file.bytes)
          : file.bytes;
  const fromFiles = bytes / minimumLineBytes;
  // Beyond this the columns grow as records come (a reservation of gigabytes can fail where memory is capped).
  const reserveAtMost = 1 << 24;
  return Math.min(
    reserveAtMost,
    sessionLimit === Number.POSITIVE_INFINITY ? fromFiles : Math.min(fromFiles, Math.max(4 * sessionLimit, 4096) * 64),
  );
}

/** How many times larger than its Parquet export a store's lines are, at least (≈ 440-byte lines, ≈ 5 bytes a row in Parquet): a generous bound on the rows. */
const parquetExpansion = 32;

/** The uncompressed size a gzip file records in its last four bytes (modulo 4 GiB), or a generous guess. */
async function gzipSize(path: string, compressedBytes: number): Promise<number> {
  const guess = compressedBytes * 40;
  try {
    const handle = await open(path, 'r');
    try {
      const trailer = Buffer.alloc(4);
      const { bytesRead } = await handle.read(trailer, 0, 4, Math.max(0, compressedBytes - 4));
      const size = bytesRead === 4 ? trailer.readUInt32LE(0) : 0;
      // Deflate cannot shrink data more than about 1,032 to 1: a larger claim is a damaged or foreign trailer.
      return size >= compressedBytes && size <= compressedBytes * 1032 ? size : guess;
    } finally {
      await handle.close();
    }
  } catch {
    return guess; // read errors are reported when the file itself is read
  }
}

/**
 * The one reader of bias records: streams every file of every input once, parses each line as JSON (a fast
 * path reads the usual lines without building objects; any other valid JSON formatting reads the same),
 * applies the schema's rules (major 1, any 1.x.y; other majors, torn, invalid, non-UTF-8 and over-long
 * lines skipped and counted with file and line), and applies the window once: model and config-version
 * filters, the days before `now`, then the last `sessions` sessions (bias-audit's `BiasWindow`, checked as every
 * reader checks it). Memory grows with the records in
 * the window (41 bytes each), not with the files: sessions that fall out of the window are dropped as the
 * read goes. Records of one session merge across inputs; repeats count once.
 */
export async function readBiasRecords(options: ReadBiasRecordsOptions): Promise<ReadBiasRecordsResult> {
  const window = checkWindowOptions(options, 'readBiasRecords');
  const { sessions: sessionLimit, nowMs, earliestMs: earliest } = window;
  const maxLineBytes = options.maxLineBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `readBiasRecords: maxLineBytes must be a positive whole number of bytes, got ${String(maxLineBytes)}.`,
    });
  }
  const inputs = await resolveBiasInputs(options.inputs, options.cwd ?? process.cwd());
  const parquet = options.parquet;
  const firstParquet = inputs.find((input) => input.parquet === true);
  if (firstParquet !== undefined && parquet === undefined)
    throw parquetNeedsEngines({ reader: 'readBiasRecords', what: `${firstParquet.file.path} is a Parquet file` });

  const sessionIds = new IdInterner(0xffff_ffff, 'sessions');
  const models = new IdInterner(0xffff, 'model ids');
  const configVersions = new IdInterner(0xfffe, 'config versions');
  const categories = new IdInterner(0xfffe, 'query categories');
  const sessions = new SessionWindow();
  const builder = new BiasColumnsBuilder(await recordsUpperBound(inputs, sessionLimit));
  const modelFilter = window.model;
  const configFilter = window.configVersion;
  // Interned up front, so a record's session is checked by its index (no string per record).
  const leaveOut =
    options.leaveOutSessions === undefined
      ? null
      : new Set([...options.leaveOutSessions].map((id) => sessionIds.of(id)));

  const result: Omit<
    ReadBiasRecordsResult,
    'columns' | 'repeated' | 'sessions' | 'positionNotDisplayOrder' | 'simulatedRecords' | 'warnings'
  > = {
    files: [],
    lines: 0,
    records: 0,
    excluded: { model: 0, configVersion: 0, beforeWindow: 0, future: 0, beyondSessions: 0, unsaved: 0 },
    foreignMajors: [],
    timestampsWithoutZone: 0,
    skipped: 0,
    reasons: {
      invalid_json: 0,
      invalid_record: 0,
      unsupported_version: 0,
      invalid_utf8: 0,
      line_too_long: 0,
      torn_line: 0,
      corrupt_segment: 0,
    },
    firstBadLines: [],
  };
  let currentFile = '';
  const skip = (line: number, reason: SkipReason, detail: string): void => {
    result.skipped++;
    result.reasons[reason]++;
    if (result.firstBadLines.length < 20)
      result.firstBadLines.push({ file: currentFile, line, reason, detail } satisfies BadLine);
  };

  // Holding more sessions than this triggers a prune back to `sessionLimit`.
  const holdLimit =
    sessionLimit === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : Math.max(4 * sessionLimit, 4096);
  const prune = (): void => {
    const order: number[] = [];
    for (let i = 0; i < sessionIds.names.length; i++) if (sessions.state[i] === 1) order.push(i);
    order.sort((a, b) => sessions.key[b]! - sessions.key[a]! || (sessionIds.names[a]! < sessionIds.names[b]! ? 1 : -1));
    for (const i of order.slice(sessionLimit)) sessions.state[i] = 2;
    sessions.held = Math.min(order.length, sessionLimit);
    builder.retain((s) => sessions.state[s] === 1);
  };

  const fields = new BiasLineFields();
  const row: BiasRow = {
    session: 0,
    reviewer: 0,
    candidate: 0,
    position: 0,
    responseLengthChars: 0,
    score: 0,
    rankPosition: 0,
    time: 0,
    configVersion: 0,
    queryCategory: 0,
    positionIsDisplayOrder: false,
  };
  // Set for the second pass: only these sessions' records are collected.
  let only: Set<number> | null = null;
  let firstPass = true;

  /** Takes one valid record (`fields` filled, ids interned into `row`); applies the window. */
  const accept = (): void => {
    const ids = row;
    if (firstPass) {
      result.records++;
      if (!fields.hasZone) result.timestampsWithoutZone++;
    }
    if (only !== null && !only.has(ids.session)) return;
    let excludedBy: keyof BiasWindowExclusions | null = null;
    if (leaveOut !== null && leaveOut.has(ids.session)) excludedBy = 'unsaved';
    else if (
      modelFilter !== undefined &&
      models.names[ids.reviewer] !== modelFilter &&
      models.names[ids.candidate] !== modelFilter
    )
      excludedBy = 'model';
    else if (
      configFilter !== undefined &&
      (ids.configVersion === 0 ? null : configVersions.names[ids.configVersion - 1]) !== configFilter
    )
      excludedBy = 'configVersion';
    else if (fields.time > nowMs) excludedBy = 'future';
    else if (fields.time < earliest) excludedBy = 'beforeWindow';
    if (excludedBy !== null) {
      if (firstPass) result.excluded[excludedBy]++;
      return;
    }
    const id = ids.session;
    sessions.ensure(id);
    if (sessions.state[id] === 0) {
      sessions.state[id] = 1;
      sessions.key[id] = fields.time;
      sessions.held++;
    } else if (fields.time < sessions.key[id]!) {
      sessions.key[id] = fields.time;
    }
    if (firstPass) sessions.records[id]!++;
    if (sessions.state[id] === 2 && firstPass) return;
    row.position = fields.position;
    row.responseLengthChars = fields.responseLengthChars;
    row.score = fields.score;
    row.rankPosition = fields.rankPosition;
    row.time = fields.time;
    row.positionIsDisplayOrder = fields.positionIsDisplayOrder;
    builder.add(row);
    if (sessions.held > holdLimit) prune();
  };

  const slowLine = (line: JsonlLine): void => {
    const body = line.buf.toString('utf8', line.start, line.end);
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch {
      if (firstPass) {
        if (line.terminated) skip(line.line, 'invalid_json', 'the line is not valid JSON');
        else skip(line.line, 'torn_line', 'the last line has no newline and does not parse (a write was interrupted)');
      }
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      if (firstPass) skip(line.line, 'invalid_record', 'the line is not a JSON object');
      return;
    }
    const foreign = foreignBiasRecordVersion(raw as Record<string, unknown>);
    if (foreign !== undefined) {
      if (firstPass) {
        skip(line.line, 'unsupported_version', foreign.detail);
        const { major } = foreign;
        if (result.foreignMajors.length < 10 && !result.foreignMajors.includes(major)) result.foreignMajors.push(major);
      }
      return;
    }
    const parsed = safeParseBiasMetricRecord(raw);
    if (!parsed.success) {
      if (firstPass)
        skip(line.line, 'invalid_record', parsed.error.message.replace(/^Not a bias metric record \((.*)\)\.$/, '$1'));
      return;
    }
    const record = parsed.value;
    const countProblem = biasRecordCountProblem(record);
    if (countProblem !== undefined) {
      if (firstPass) skip(line.line, 'invalid_record', countProblem);
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
    accept();
  };

  const visitor = {
    line: (line: JsonlLine): void => {
      // A byte-order mark some Windows editors put before the first line is not part of the record.
      if (
        line.line === 1 &&
        line.buf[line.start] === 0xef &&
        line.buf[line.start + 1] === 0xbb &&
        line.buf[line.start + 2] === 0xbf
      )
        line.start += 3;
      const { buf, start, end } = line;
      let first = start;
      while (first < end && (buf[first] === 0x20 || buf[first] === 0x09 || buf[first] === 0x0d)) first++;
      if (first === end) return; // a blank line
      if (firstPass) result.lines++;
      if (!line.utf8 && !isUtf8(buf.subarray(start, end))) {
        // A last line cut inside a character is a torn write, not a corrupt one.
        if (firstPass) {
          if (line.terminated)
            skip(
              line.line,
              'invalid_utf8',
              'the line is not valid UTF-8; the rest of the file was read (a tool that rewrote the file in another encoding? re-save it as UTF-8)',
            );
          else
            skip(line.line, 'torn_line', 'the last line has no newline and does not parse (a write was interrupted)');
        }
        return;
      }
      if (!parseBiasLineFast(buf, start, end, fields)) {
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
      accept();
    },
    tooLong: ({ line }: JsonlLinePlace, bytes: number): void => {
      if (firstPass) {
        result.lines++;
        skip(line, 'line_too_long', `the line is ${bytes} bytes, over the limit of ${maxLineBytes}`);
      }
    },
    corrupt: ({ line }: { line: number }): void => {
      if (firstPass)
        skip(
          line,
          'corrupt_segment',
          `the compressed segment is damaged from about line ${line}; the lines before it were read`,
        );
    },
  };

  // Parquet rows are checked by the scanner; a row is then taken as a line the fast path read.
  const parquetVisitor = {
    row: (r: BiasParquetRow): void => {
      if (firstPass) result.lines++;
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
      accept();
    },
    bad: (rowNumber: number, reason: SkipReason, detail: string): void => {
      if (!firstPass) return;
      if (reason !== 'corrupt_segment') result.lines++;
      skip(rowNumber, reason, detail);
    },
  };

  const readAll = async (files: readonly BiasInputFile[]): Promise<void> => {
    for (const { storePath, file, parquet: isParquet } of files) {
      currentFile = file.path;
      const lines =
        isParquet === true
          ? await parquet!.scan({ path: file.path, ...parquetVisitor })
          : await scanJsonlLines({ storePath, file, maxLineBytes, visitor });
      if (firstPass) result.files.push({ path: file.path, lines });
    }
  };
  await readAll(inputs);

  // The last sessionLimit sessions by their earliest record; ties by id.
  const ranked: number[] = [];
  for (let i = 0; i < sessionIds.names.length; i++)
    if (i < sessions.state.length && sessions.state[i] !== 0) ranked.push(i);
  ranked.sort((a, b) => sessions.key[a]! - sessions.key[b]! || (sessionIds.names[a]! < sessionIds.names[b]! ? -1 : 1));
  const chosen = sessionLimit < ranked.length ? ranked.slice(ranked.length - sessionLimit) : ranked;
  for (let r = 0; r < ranked.length - chosen.length; r++)
    result.excluded.beyondSessions += sessions.records[ranked[r]!]!;
  const missing = chosen.filter((s) => sessions.state[s] === 2);
  const place = new Int32Array(sessionIds.names.length).fill(-1);
  chosen.forEach((s, i) => (place[s] = i));
  builder.retain((s) => place[s]! >= 0);
  if (missing.length > 0) {
    // A session dropped early whose earliest record turned out later to be among the last N: read it again.
    firstPass = false;
    only = new Set(missing);
    await readAll(inputs);
  }

  const settled = settleWindowRecords(
    builder.finish({
      place,
      sessionIds: chosen.map((s) => sessionIds.names[s]!),
      sessionTime: Float64Array.from(chosen, (s) => sessions.key[s]!),
      models: models.names,
      configVersions: configVersions.names,
      queryCategories: categories.names,
    }),
    result.timestampsWithoutZone,
  );
  return { ...result, ...settled, sessions: ranked.length };
}
