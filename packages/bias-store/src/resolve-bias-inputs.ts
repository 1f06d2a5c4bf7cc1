import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioError } from './io-error.js';
import type { SegmentFile } from './segment-files.js';
import { listSegments } from './segment-files.js';

/** One file to read and the store it belongs to (its segments' naming is the store's). */
export interface BiasInputFile {
  storePath: string;
  file: SegmentFile;
}

const wildcard = /[*?[]/;
const storeFileName = /\.jsonl(?:\.gz)?$/;
const defaultStoreName = 'bias_metrics.jsonl';

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

/** The store a file of it belongs to: `x.000003.jsonl.gz` → `x.jsonl`; `x.jsonl` → itself. */
function storeOf(path: string): string {
  const m = /^(.*)\.\d{6,}\.jsonl(?:\.gz)?$/.exec(basename(path));
  return m === null ? path.replace(/\.gz$/, '') : join(dirname(path), `${m[1]}.jsonl`);
}

async function statOrNull(path: string): Promise<Awaited<ReturnType<typeof stat>> | null> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
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

/** The stores one input names: a store file, a directory of stores, or a glob over file names. */
async function storesOf(input: string, cwd: string): Promise<string[]> {
  const path = resolve(cwd, input);
  if (wildcard.test(basename(path))) {
    if (wildcard.test(dirname(path))) {
      throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `The input ${input}: only the file name may hold wildcards (*, ?, [ ]), not the directories above it.` });
    }
    const pattern = globToRegExp(basename(path));
    const matched = (await namesIn(dirname(path))).filter((name) => pattern.test(name)).map((name) => join(dirname(path), name));
    if (matched.length === 0) throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `The input ${input} matches no file. Check the pattern (quote it so the shell does not expand it).` });
    return [...new Set(matched.map(storeOf))];
  }
  const info = await statOrNull(path);
  if (info?.isDirectory()) {
    const names = await namesIn(path);
    // A Council home holds other JSONL files (history, outbox): read only its bias store there.
    if (names.includes(defaultStoreName) || names.some((n) => /^bias_metrics\.\d{6,}\.jsonl(?:\.gz)?$/.test(n))) return [join(path, defaultStoreName)];
    const stores = [...new Set(names.filter((n) => storeFileName.test(n)).map((n) => storeOf(join(path, n))))];
    if (stores.length === 0) throw new BiasStoreError({ code: 'INVALID_OPTIONS', message: `The input ${input} is a directory with no .jsonl or .jsonl.gz file. Name a bias store file or a directory of them.` });
    return stores;
  }
  if (info === null && (await listSegments(storeOf(path))).length === 0) {
    throw new BiasStoreError({ code: 'IO_ERROR', message: `No bias records at ${path}: the file does not exist. Check the input path, or run sessions first (council demo writes some).` });
  }
  return [storeOf(path)];
}

/**
 * The files that `inputs` name, each once (a file named twice, or by two patterns, is read once): every
 * segment of each store, oldest first, then its active file.
 */
export async function resolveBiasInputs(inputs: readonly string[], cwd: string): Promise<BiasInputFile[]> {
  const files: BiasInputFile[] = [];
  const seen = new Set<string>();
  for (const input of inputs) {
    for (const storePath of await storesOf(input, cwd)) {
      for (const file of await listSegments(storePath)) {
        if (seen.has(file.identity)) continue;
        seen.add(file.identity);
        files.push({ storePath, file });
      }
    }
  }
  return files;
}
