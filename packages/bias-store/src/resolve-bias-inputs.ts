import type { Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import type { SegmentFile } from './segment-files.js';
import { listSegments } from './segment-files.js';

/** One file to read and the store it belongs to (its segments' naming is the store's). */
export interface BiasInputFile {
  storePath: string;
  file: SegmentFile;
  /** A Parquet file (by its `.parquet` name or its `PAR1` magic), such as `council store export` writes. */
  parquet?: true;
}

const wildcard = /[*?[]/;
const storeFileName = /\.jsonl(?:\.gz)?$/;
const parquetName = /\.parquet$/;
/** A Hive-style partition directory (`day=2026-11-24`), as an export writes: a directory input reads those inside it. */
const partitionDirectory = /^[^.=][^=]*=[^=]+$/;

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close === -1) source += '\\[';
      else {
        const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
        source += body.startsWith('!') ? `[^${body.slice(1)}]` : `[${body}]`;
        i = close;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** A store (its active file, with the segments beside it), one standalone gzipped file, or one Parquet file. */
type Source = { kind: 'store' | 'gzip' | 'parquet'; path: string };

const segmentName = /^(.*)\.\d{6,}\.jsonl(?:\.gz)?$/;

/** What a file named by the user is: a segment or active file of a store, or a gzipped file on its own. */
function sourceOf(path: string): Source {
  if (parquetName.test(path)) return { kind: 'parquet', path };
  const m = segmentName.exec(basename(path));
  if (m !== null) return { kind: 'store', path: join(dirname(path), `${m[1]}.jsonl`) };
  if (path.endsWith('.gz')) return { kind: 'gzip', path };
  return { kind: 'store', path };
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return null;
    throw ioError({ action: 'read', path, cause: error });
  }
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    throw ioError({ action: 'list the directory of', path: join(dir, '.'), cause: error });
  }
}

// Council's own JSONL files that hold no bias records (a home directory given as an input holds them).
const notBiasStores = new Set(['history.jsonl', 'outbox.jsonl', 'dead-letter.jsonl']);

/** Whether a file that is not named like a store starts with Parquet's magic `PAR1`. */
async function startsWithParquetMagic(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString('latin1') === 'PAR1';
  } catch {
    return false; // reading it reports what is wrong
  } finally {
    await handle?.close();
  }
}

/** `sourceOf`, and a file named neither `.jsonl`, `.gz` nor `.parquet` that holds Parquet is read as Parquet. */
async function sourceOfFile(path: string): Promise<Source> {
  const source = sourceOf(path);
  if (source.kind === 'store' && !storeFileName.test(path) && (await startsWithParquetMagic(path)))
    return { kind: 'parquet', path };
  return source;
}

/** The stores and Parquet files of a directory and of the partition directories (`key=value`) inside it, sorted by name. */
async function sourcesInDirectory(dir: string): Promise<Source[]> {
  const sources: Source[] = [];
  for (const name of await namesIn(dir)) {
    const path = join(dir, name);
    if (partitionDirectory.test(name) && (await statOrNull(path))?.isDirectory() === true) {
      sources.push(...(await sourcesInDirectory(path)));
      continue;
    }
    if (parquetName.test(name) && !name.startsWith('.')) sources.push({ kind: 'parquet', path });
    else if (storeFileName.test(name) && !notBiasStores.has(name.replace(segmentName, '$1.jsonl').replace(/\.gz$/, '')))
      sources.push(sourceOf(path));
  }
  return sources;
}

function dedupe(sources: Source[]): Source[] {
  const seen = new Set<string>();
  return sources.filter((source) => (seen.has(source.path) ? false : (seen.add(source.path), true)));
}

/** The stores and files one input names: a store file, a directory of stores, or a glob over file names. */
async function sourcesOf(input: string, cwd: string): Promise<Source[]> {
  const path = resolve(cwd, input);
  if (wildcard.test(basename(input))) {
    if (wildcard.test(dirname(input))) {
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `The input ${input}: only the file name may hold wildcards (*, ?, [ ]), not the directories above it.`,
      });
    }
    const pattern = globToRegExp(basename(input));
    const dir = dirname(path);
    const matched: string[] = [];
    for (const name of await namesIn(dir)) {
      if (!pattern.test(name)) continue;
      const info = await statOrNull(join(dir, name));
      if (info?.isFile() === true) matched.push(join(dir, name)); // a directory the pattern also matches is not a store
    }
    if (matched.length === 0)
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `The input ${input} matches no file. Check the pattern (quote it so the shell does not expand it).`,
      });
    return dedupe(await Promise.all(matched.map(sourceOfFile)));
  }
  if (wildcard.test(dirname(input))) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `The input ${input}: only the file name may hold wildcards (*, ?, [ ]), not the directories above it.`,
    });
  }
  const info = await statOrNull(path);
  if (info?.isDirectory()) {
    const sources = await sourcesInDirectory(path);
    if (sources.length === 0)
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `The input ${input} is a directory with no .jsonl, .jsonl.gz or .parquet file of bias records (nor a day=… partition holding one). Name a bias store file or a directory of them.`,
      });
    return dedupe(sources);
  }
  const source = info === null ? sourceOf(path) : await sourceOfFile(path);
  if (info === null && (source.kind !== 'store' || (await listSegments(source.path)).length === 0)) {
    throw new BiasStoreError({
      code: 'IO_ERROR',
      message: `No bias records at ${path}: the file does not exist. Check the input path, or run sessions first (council demo writes some).`,
    });
  }
  return [source];
}

/**
 * The files that `inputs` name, each once (a file named twice, or by two patterns, is read once): every
 * segment of each store, oldest first, then its active file; a gzipped file that is no store's segment on its own.
 */
export async function resolveBiasInputs(inputs: readonly string[], cwd: string): Promise<BiasInputFile[]> {
  if (!Array.isArray(inputs))
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: "readBiasRecords: inputs must be an array of paths, e.g. ['bias_metrics.jsonl'].",
    });
  const files: BiasInputFile[] = [];
  const seen = new Set<string>();
  const add = (storePath: string, file: SegmentFile): void => {
    if (seen.has(file.identity)) return;
    seen.add(file.identity);
    files.push({ storePath, file });
  };
  for (const input of inputs as readonly unknown[]) {
    if (typeof input !== 'string')
      throw new BiasStoreError({
        code: 'INVALID_OPTION',
        message: `readBiasRecords: every input must be a path string, got ${typeof input}.`,
      });
    for (const source of await sourcesOf(input, cwd)) {
      if (source.kind !== 'store') {
        const info = await statOrNull(source.path);
        if (info === null) continue;
        const file = {
          path: source.path,
          segment: 0,
          compressed: source.kind === 'gzip',
          active: false,
          bytes: info.size,
          identity: `${info.dev}:${info.ino}`,
        };
        if (source.kind === 'parquet') {
          if (!seen.has(file.identity)) files.push({ storePath: source.path, file, parquet: true });
          seen.add(file.identity);
        } else add(source.path, file);
        continue;
      }
      for (const file of await listSegments(source.path)) add(source.path, file);
    }
  }
  return files;
}
