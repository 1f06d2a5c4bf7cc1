import type { BiasColumns } from '@council/bias-audit';
import { BiasColumnsBuilder } from './bias-columns-builder.js';
import { jsonlLineVisitor, parquetRowVisitor } from './bias-line-visitors.js';
import type { BiasParquetSupport } from './bias-parquet-support.js';
import { parquetNeedsEngines } from './bias-parquet-support.js';
import type { BiasRecordColumns } from './bias-record-columns.js';
import { BiasStoreError } from './bias-store-error.js';
import type { RepeatedRecords } from './drop-repeated-records.js';
import { checkWindowOptions } from './engine-window-options.js';
import type { EngineWindowOptions } from './engine-window-options.js';
import { recordsUpperBound } from './records-upper-bound.js';
import { reportOutOfRangeRanks } from './locate-record-lines.js';
import type { BiasInputFile } from './resolve-bias-inputs.js';
import { resolveBiasInputs } from './resolve-bias-inputs.js';
import { scanJsonlLines } from './scan-jsonl-lines.js';
import type { SkipReport } from './skip-report.js';
import type { BiasWindowExclusions } from './window-exclusions.js';
import { WindowCollector } from './window-collector.js';

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

export interface ReadBiasRecordsResult<C extends BiasColumns = BiasRecordColumns> extends SkipReport {
  /**
   * The window's records, by session, oldest session first: every column, or (an engine's report read,
   * `columns: 'report'`) the columns the statistics read.
   */
  columns: C;
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
  // 1. The options: the window (checked as every reader checks it), the longest line, the inputs.
  const window = checkWindowOptions(options, 'readBiasRecords');
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

  // 2. Every file once, each record through the window as it comes (window-collector.ts).
  const builder = new BiasColumnsBuilder(await recordsUpperBound(inputs, window.sessions));
  const collector = new WindowCollector(window, builder, options.leaveOutSessions);
  const visitor = jsonlLineVisitor(collector, maxLineBytes);
  const parquetVisitor = parquetRowVisitor(collector);
  const { result } = collector;
  const readAll = async (files: readonly BiasInputFile[]): Promise<void> => {
    for (const { storePath, file, parquet: isParquet } of files) {
      collector.currentFile = file.path;
      const lines =
        isParquet === true
          ? await parquet!.scan({ path: file.path, ...parquetVisitor })
          : await scanJsonlLines({ storePath, file, maxLineBytes, visitor });
      if (collector.firstPass) result.files.push({ path: file.path, lines });
    }
  };
  await readAll(inputs);

  // 3. The last sessions; a session dropped early whose earliest record turned out later to be among them is read again.
  const missing = collector.chooseSessions();
  if (missing.length > 0) {
    collector.readAgain(missing);
    await readAll(inputs);
  }

  // 4. The window's records as columns, repeats and out-of-range ranks dropped; those ranks are invalid records, whose
  // lines a further scan finds (locate-record-lines.ts: rare, and nothing is kept per record for it).
  const { outOfRangeRanks, ...settled } = collector.finish();
  const skips = await reportOutOfRangeRanks({
    skips: result,
    outOfRange: outOfRangeRanks,
    inputs,
    maxLineBytes,
    parquet,
  });
  // Valid records read: an out-of-range rank was read as one, and is an invalid record now.
  return { ...result, ...settled, ...skips, records: result.records - outOfRangeRanks.count };
}
