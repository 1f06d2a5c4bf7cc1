import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ioError, notRegularFileError } from './io-error.js';
import type { PrivateName } from './private-names.js';
import { parsePrivateName } from './private-names.js';

/** One file of a store: a closed segment (plain or gzipped) or the active file. */
export interface SegmentFile {
  /** Absolute path. */
  path: string;
  /** Sequence number; the active file's is one past the highest closed segment's. */
  segment: number;
  compressed: boolean;
  active: boolean;
  bytes: number;
  /** Device and inode, so a file linked under two names is read once. */
  identity: string;
}

/** How the segments of `path` are named: `bias_metrics.jsonl` → `bias_metrics.000001.jsonl[.gz]`. */
export function segmentNaming(path: string): {
  dir: string;
  segmentPath: (segment: number, compressed: boolean) => string;
  match: (name: string) => { segment: number; compressed: boolean } | null;
} {
  const dir = dirname(path);
  const base = basename(path);
  const stem = base.endsWith('.jsonl') ? base.slice(0, -'.jsonl'.length) : base;
  const ext = base.endsWith('.jsonl') ? '.jsonl' : '';
  const escaped = `${stem}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${escaped}\\.(\\d{6,})${ext.replace('.', '\\.')}(\\.gz)?$`);
  return {
    dir,
    segmentPath: (segment, compressed) =>
      join(dir, `${stem}.${String(segment).padStart(6, '0')}${ext}${compressed ? '.gz' : ''}`),
    match: (name) => {
      const m = pattern.exec(name);
      return m === null ? null : { segment: Number(m[1]), compressed: m[2] !== undefined };
    },
  };
}

/** What the directory of a store holds: the numbers in use (plain, gzipped or both), and private names left beside them. */
export interface StoreDirectory {
  segments: Map<number, { plain: boolean; compressed: boolean }>;
  /** Pins, rotated names and temporary copies made beside the store's files, with their full path. */
  privateNames: (PrivateName & { path: string })[];
}

/** Reads the directory of the store at `path` once. A missing directory is an empty store. */
export async function readStoreDirectory(path: string): Promise<StoreDirectory> {
  const naming = segmentNaming(path);
  const base = basename(path);
  const stem = base.endsWith('.jsonl') ? base.slice(0, -'.jsonl'.length) : base;
  let names: string[];
  try {
    names = await readdir(naming.dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { segments: new Map(), privateNames: [] };
    throw ioError({ action: 'list the directory of', path, cause: error });
  }
  const segments = new Map<number, { plain: boolean; compressed: boolean }>();
  const privateNames: StoreDirectory['privateNames'] = [];
  for (const name of names) {
    const m = naming.match(name);
    if (m !== null) {
      const entry = segments.get(m.segment) ?? { plain: false, compressed: false };
      if (m.compressed) entry.compressed = true;
      else entry.plain = true;
      segments.set(m.segment, entry);
      continue;
    }
    if (!name.startsWith(stem)) continue; // history.jsonl and the like, beside the store
    const owned = parsePrivateName(name);
    // Pins and rotated names sit beside the active file; temporary copies beside a segment's `.gz`.
    if (
      owned !== null &&
      (owned.base === base || (owned.kind === 'tmp' && naming.match(owned.base)?.compressed === true))
    ) {
      privateNames.push({ ...owned, path: join(naming.dir, name) });
    }
  }
  return { segments, privateNames };
}

/**
 * Lists the store's files in read order: closed segments by number, then the active file. Where a number has both a
 * plain and a gzipped file, the `.gz` is read: compaction publishes it only once it is verified to hold the whole
 * segment, so the plain file beside it is either the same bytes (a compactor stopped before removing it) or a stray
 * name a rotator has not yet taken back (see `link-new-segment.ts`). A file under two names is listed once, under the
 * first. A missing directory or file is an empty store.
 */
export async function listSegments(path: string): Promise<SegmentFile[]> {
  const { segments } = await readStoreDirectory(path);
  const numbers = [...segments.keys()].sort((a, b) => a - b);
  const files: SegmentFile[] = [];
  const seen = new Set<string>();
  const add = async (file: Omit<SegmentFile, 'bytes' | 'identity'>): Promise<void> => {
    let info;
    try {
      info = await stat(file.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // rotated or compacted meanwhile
      throw ioError({ action: 'read', path: file.path, cause: error });
    }
    // A FIFO would hang the reader, a device never ends: only regular files are a store's files.
    if (!info.isFile()) throw notRegularFileError({ action: 'read', path: file.path, info });
    const identity = `${info.dev}:${info.ino}`;
    if (seen.has(identity)) return;
    seen.add(identity);
    files.push({ ...file, bytes: info.size, identity });
  };
  const naming = segmentNaming(path);
  for (const segment of numbers) {
    const compressed = segments.get(segment)!.compressed;
    await add({ path: naming.segmentPath(segment, compressed), segment, compressed, active: false });
  }
  await add({ path, segment: (numbers.at(-1) ?? 0) + 1, compressed: false, active: true });
  return files;
}

/**
 * Whether `candidate` names one of the files of the store at `storePath`: its active file, a closed segment (plain or
 * gzipped), or a name a process gives them for itself (pins, rotated names, temporary copies, the rotation lock).
 * Both paths are compared as given: resolve symbolic links first. For a writer of other files (a report's `--output`)
 * that must never write over a store's file, existing or to come.
 */
export function isStoreFile(storePath: string, candidate: string): boolean {
  const naming = segmentNaming(storePath);
  if (dirname(candidate) !== naming.dir) return false;
  const name = basename(candidate);
  const base = basename(storePath);
  if (name === base || naming.match(name) !== null || name === `${base}.rotate.lock`) return true;
  const owned = parsePrivateName(name);
  return owned !== null && (owned.base === base || naming.match(owned.base) !== null);
}
