import { createReadStream, existsSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { BiasObservation } from '@council/bias-audit';
import { createBiasStore, safeParseBiasMetricRecord, toObservation } from '@council/bias-store';
import { CliError } from './cli-error.js';

export interface LoadedObservations {
  path: string;
  observations: BiasObservation[];
  /** Lines read (every file of the store). */
  lines: number;
  /** Records of the sessions in the window, validated and kept. */
  records: number;
  /** Records outside the window: located cheaply (session and time only), not validated, not kept. */
  outsideWindow: number;
  /** Lines the window needed that could not be used (torn, invalid, another schema major), with the first few. */
  skipped: number;
  firstBadLines: { file: string; line: number; reason: string }[];
  /** Records whose `position` may be a ranking index (old files), kept but counted. */
  positionNotDisplayOrder: number;
  /** Records of a simulated provider (model ids `simulated:…`). */
  simulatedRecords: number;
}

export interface LoadObservationsOptions {
  path: string;
  /** A missing file is an error only when the user named it. */
  explicit: boolean;
  /** The window, with `aggregateBiasAudit`'s rules: records in [now − maxDays, now]; the last maxSessions sessions by their earliest such record. */
  window: { now: number; maxDays: number; maxSessions: number };
  /** Filters applied before the session window, as the aggregation applies them. */
  filter?: { model?: string; configVersion?: string };
}

/** A string field of a compact JSON line, found without parsing; undefined when absent or escaped. */
function stringField(line: string, name: string): string | null | undefined {
  const key = `"${name}":`;
  const at = line.indexOf(key);
  if (at < 0) return undefined;
  const start = at + key.length;
  if (line.startsWith('null', start)) return null;
  if (line.charCodeAt(start) !== 34) return undefined;
  const end = line.indexOf('"', start + 1);
  if (end < 0) return undefined;
  const value = line.slice(start + 1, end);
  return value.includes('\\') ? undefined : value;
}

function timeOf(timestamp: string): number {
  // Timestamps without a zone are UTC, as the store reads them.
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(timestamp) ? timestamp : `${timestamp}Z`;
  return Date.parse(zoned);
}

/** Where a block of lines starts: its byte offset and the number of its first line, to resume reading there. */
interface BlockStart {
  offset: number;
  line: number;
}

/**
 * Calls `onLine` for every line of a (possibly gzipped) file, synchronously within each chunk: far cheaper
 * than an async iterator per line over millions of lines. `block` identifies where the line's chunk
 * starts, so a second pass can seek past everything before it. Reports whether the last line lacked its newline.
 */
async function forEachLine(
  file: { path: string; compressed: boolean },
  onLine: (line: string, n: number, block: number) => void,
  from: BlockStart = { offset: 0, line: 0 },
): Promise<{ lines: number; tornTail: boolean; blocks: BlockStart[] }> {
  const input = createReadStream(file.path, { highWaterMark: 1 << 20, start: file.compressed ? 0 : from.offset });
  const stream = file.compressed ? input.pipe(createGunzip()) : input;
  const blocks: BlockStart[] = [];
  let rest = '';
  let restBytes = 0;
  let offset = file.compressed ? 0 : from.offset;
  let n = file.compressed ? 0 : from.line;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    // The block starts where the carried-over partial line started.
    blocks.push({ offset: offset - restBytes, line: n });
    const block = blocks.length - 1;
    offset += chunk.length;
    const text = rest + chunk.toString('utf8');
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl >= 0) {
      onLine(text.slice(start, nl), ++n, block);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    rest = text.slice(start);
    restBytes = rest === '' ? 0 : Buffer.byteLength(rest, 'utf8');
  }
  if (rest !== '') onLine(rest, ++n, blocks.length - 1);
  return { lines: n, tornTail: rest !== '', blocks };
}

/** A copy of a substring that does not keep its (megabyte-sized) parent chunk alive. */
function detach(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

function majorOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    const m = /^(\d+)(?:\.|$)/.exec(value);
    return m ? Number(m[1]) : null;
  }
  return null;
}

/**
 * Reads the bias store at `path` (every segment, compressed ones too) for a report over a window, in two
 * streaming passes so that a store of 100,000 sessions needs memory only for the window: the first pass
 * finds each session and time without parsing JSON and picks the window's sessions; the second validates
 * and keeps only their records. Unusable lines the window needs are skipped and counted, never fatal.
 */
export async function loadObservations(options: LoadObservationsOptions): Promise<LoadedObservations> {
  const { path, window } = options;
  const result: LoadedObservations = { path, observations: [], lines: 0, records: 0, outsideWindow: 0, skipped: 0, firstBadLines: [], positionNotDisplayOrder: 0, simulatedRecords: 0 };
  if (!existsSync(path)) {
    if (options.explicit) throw new CliError({ code: 'RUNTIME', message: `No bias records at ${path}: the file does not exist. Check --input, or run sessions first (council demo writes some).` });
    return result;
  }
  if (statSync(path).isDirectory()) throw new CliError({ code: 'RUNTIME', message: `${path} is a directory, not a bias records file. Pass the .jsonl file with --input.` });
  const files = await createBiasStore({ path }).files();
  const earliest = window.now - window.maxDays * 86_400_000;
  const filter = options.filter ?? {};

  // Pass 1: each session's earliest in-window record time, from two fields found by position.
  const sessionTime = new Map<string, number>();
  const unlocated = new Set<string>(); // "file:line" of lines pass 1 could not read cheaply
  // Per file, the first block that pass 2 must read: the earliest block holding a line of a kept session.
  const firstBlockOf = new Map<string, Map<string, number>>(); // file → session → block of its first line
  const blocksOf = new Map<string, BlockStart[]>();
  const linesIn = new Map<string, number>();
  const unlocatedBlock = new Map<string, number>();
  let lastTimestamp = '';
  let lastTime = NaN;
  for (const file of files) {
    const sessionBlock = new Map<string, number>();
    firstBlockOf.set(file.path, sessionBlock);
    const read = await forEachLine(file, (line, n, block) => {
      if (line.trim() === '') return;
      const session = stringField(line, 'session_id');
      const timestamp = stringField(line, 'timestamp');
      if (typeof session !== 'string' || typeof timestamp !== 'string') {
        unlocated.add(`${file.path}:${n}`);
        if (!unlocatedBlock.has(file.path)) unlocatedBlock.set(file.path, block);
        return;
      }
      // A session's records share one timestamp: parse it once.
      if (timestamp !== lastTimestamp) {
        lastTimestamp = detach(timestamp);
        lastTime = timeOf(timestamp);
      }
      const time = lastTime;
      if (!(time >= earliest && time <= window.now)) return;
      if (filter.model !== undefined && stringField(line, 'reviewer_id') !== filter.model && stringField(line, 'model_id') !== filter.model) return;
      if (filter.configVersion !== undefined && stringField(line, 'council_config_version') !== filter.configVersion) return;
      const known = sessionTime.get(session);
      if (known === undefined) sessionTime.set(detach(session), time);
      else if (time < known) sessionTime.set(session, time);
      if (!sessionBlock.has(session)) sessionBlock.set(detach(session), block);
    });
    blocksOf.set(file.path, read.blocks);
    linesIn.set(file.path, read.lines);
    result.lines += read.lines;
  }
  const ranked = [...sessionTime].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const inWindow = new Set(ranked.slice(Math.max(0, ranked.length - window.maxSessions)).map(([id]) => id));

  // Pass 2: validate and keep the window's records (and look properly at the lines pass 1 could not read).
  const skip = (file: string, line: number, reason: string) => {
    result.skipped++;
    if (result.firstBadLines.length < 5) result.firstBadLines.push({ file, line, reason });
  };
  for (const file of files) {
    // Seek past the blocks that hold no kept session and no line pass 1 could not read.
    const blocks = blocksOf.get(file.path) ?? [];
    let startBlock = unlocatedBlock.get(file.path) ?? blocks.length;
    for (const [session, block] of firstBlockOf.get(file.path) ?? []) if (block < startBlock && inWindow.has(session)) startBlock = block;
    if (startBlock >= blocks.length) {
      result.outsideWindow += linesIn.get(file.path) ?? 0;
      continue;
    }
    const from = blocks[startBlock]!;
    const read = await forEachLine(
      file,
      (line, n) => {
      if (line.trim() === '') return;
      const session = stringField(line, 'session_id');
      const located = !unlocated.has(`${file.path}:${n}`);
      if (located && (typeof session !== 'string' || !inWindow.has(session))) {
        result.outsideWindow++;
        return;
      }
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        skip(file.path, n, 'invalid_json');
        return;
      }
      const version = majorOf((raw as Record<string, unknown> | null)?.['schema_version']);
      if (version !== 1) {
        skip(file.path, n, 'unsupported_version');
        return;
      }
      const parsed = safeParseBiasMetricRecord(raw);
      if (!parsed.success) {
        skip(file.path, n, 'invalid_record');
        return;
      }
      const record = parsed.value;
      if (!located && !inWindow.has(record.sessionId)) {
        result.outsideWindow++;
        return;
      }
      result.records++;
      if (!record.positionIsDisplayOrder) result.positionNotDisplayOrder++;
      const observation = toObservation(record);
      if (observation.reviewer.startsWith('simulated:') || observation.candidate.startsWith('simulated:')) result.simulatedRecords++;
      result.observations.push(observation);
      },
      from,
    );
    // Lines before the block pass 2 started at were outside the window (pass 1 saw them).
    result.outsideWindow += from.line;
    // A last line without its newline is a torn write (a crash mid-append): name it so.
    const lastBad = result.firstBadLines.at(-1);
    if (read.tornTail && lastBad !== undefined && lastBad.file === file.path && lastBad.line === read.lines && lastBad.reason === 'invalid_json') lastBad.reason = 'torn_line';
  }
  return result;
}
