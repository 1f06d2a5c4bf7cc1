import { ioError } from './io-error.js';
import { JsonlLineSplitter } from './jsonl-line-splitter.js';
import type { JsonlLineVisitor } from './jsonl-line-splitter.js';
import { openSegment } from './open-segment.js';
import type { SegmentFile } from './segment-files.js';

export type { JsonlLine, JsonlLinePlace, JsonlLineVisitor } from './jsonl-line-splitter.js';

export interface ScanJsonlLinesOptions {
  /** The store's active file, which names its segments. */
  storePath: string;
  file: SegmentFile;
  maxLineBytes: number;
  visitor: JsonlLineVisitor;
  /** Where to begin: the byte offset of a line's start, and the lines before it. Default the file's start. */
  from?: { offset: number; line: number };
}

/**
 * Streams the lines of one file of a store (plain or gzip) to a visitor, pausing (a `yield`) after each chunk's lines:
 * a consumer that turns lines into values hands them on there, and stopping early closes the file. An error the
 * visitor throws is its own and passes through untouched; a damaged gzip file is reported to `visitor.corrupt`; any
 * other failure of the file is an `IO_ERROR`. Returns the number of lines seen (with those before `from`).
 */
export async function* scanJsonlChunks(options: ScanJsonlLinesOptions): AsyncGenerator<void, number> {
  const { file, visitor } = options;
  const from = options.from ?? { offset: 0, line: 0 };
  const opened = await openSegment({ storePath: options.storePath, file, offset: from.offset });
  if (opened === null) return from.line;
  const splitter = new JsonlLineSplitter(visitor, options.maxLineBytes, from);
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await opened.chunks.next();
      } catch (error) {
        // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR…) mean a damaged file; anything else is the file system's.
        const code = (error as NodeJS.ErrnoException).code;
        if (!opened.compressed || typeof code !== 'string' || !code.startsWith('Z_'))
          throw ioError({ action: 'read', path: file.path, cause: error });
        visitor.corrupt({ line: splitter.lines + 1, offset: splitter.offset });
        return splitter.lines;
      }
      if (next.done === true) break;
      splitter.push(next.value);
      yield;
    }
  } finally {
    await opened.close();
  }
  splitter.end();
  return splitter.lines;
}

/** Streams the lines of one file of a store to a visitor in one go (see `scanJsonlChunks`). Returns the lines seen. */
export async function scanJsonlLines(options: ScanJsonlLinesOptions): Promise<number> {
  const chunks = scanJsonlChunks(options);
  for (;;) {
    const step = await chunks.next();
    if (step.done === true) return step.value;
  }
}
