import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ioError } from './io-error.js';

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
export function segmentNaming(path: string): { dir: string; segmentPath: (segment: number, compressed: boolean) => string; match: (name: string) => { segment: number; compressed: boolean } | null } {
  const dir = dirname(path);
  const base = basename(path);
  const stem = base.endsWith('.jsonl') ? base.slice(0, -'.jsonl'.length) : base;
  const ext = base.endsWith('.jsonl') ? '.jsonl' : '';
  const escaped = `${stem}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${escaped}\\.(\\d{6,})${ext.replace('.', '\\.')}(\\.gz)?$`);
  return {
    dir,
    segmentPath: (segment, compressed) => join(dir, `${stem}.${String(segment).padStart(6, '0')}${ext}${compressed ? '.gz' : ''}`),
    match: (name) => {
      const m = pattern.exec(name);
      return m === null ? null : { segment: Number(m[1]), compressed: m[2] !== undefined };
    },
  };
}

/**
 * Lists the store's files in read order: closed segments by number (a plain file wins over a gzipped
 * one of the same number, which is left by an interrupted compaction), then the active file.
 * A missing directory or file is an empty store.
 */
export async function listSegments(path: string): Promise<SegmentFile[]> {
  const naming = segmentNaming(path);
  let names: string[];
  try {
    names = await readdir(naming.dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw ioError({ action: 'list the directory of', path, cause: error });
  }
  const closed = new Map<number, { compressed: boolean }>();
  for (const name of names) {
    const m = naming.match(name);
    if (m === null) continue;
    const existing = closed.get(m.segment);
    if (existing === undefined || (existing.compressed && !m.compressed)) closed.set(m.segment, { compressed: m.compressed });
  }
  const numbers = [...closed.keys()].sort((a, b) => a - b);
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
    if (info.isDirectory()) throw ioError({ action: 'read', path: file.path, cause: Object.assign(new Error('is a directory'), { code: 'EISDIR' }) });
    const identity = `${info.dev}:${info.ino}`;
    if (seen.has(identity)) return;
    seen.add(identity);
    files.push({ ...file, bytes: info.size, identity });
  };
  for (const segment of numbers) {
    const compressed = closed.get(segment)!.compressed;
    await add({ path: naming.segmentPath(segment, compressed), segment, compressed, active: false });
  }
  await add({ path, segment: (numbers.at(-1) ?? 0) + 1, compressed: false, active: true });
  return files;
}
