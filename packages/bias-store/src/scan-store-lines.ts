import type { DecodedLine } from './decode-jsonl-line.js';
import { blankLine, LineProblem, tornLine } from './decode-jsonl-line.js';
import type { JsonlCursor } from './jsonl-cursor.js';
import type { JsonlEntry } from './jsonl-entry.js';
import type { JsonlLine, JsonlLinePlace, JsonlLineVisitor } from './jsonl-line-splitter.js';
import { scanJsonlChunks, scanJsonlLines } from './scan-jsonl-lines.js';
import type { SegmentFile } from './segment-files.js';
import { listSegments } from './segment-files.js';
import type { BadLine } from './skip-report.js';

/** What reading a store's lines needs: where the store is, the longest line, and how a line becomes an item. */
export interface StoreLines<T> {
  path: string;
  maxLineBytes: number;
  decode: (line: JsonlLine) => DecodedLine<T>;
}

/** Where `read` and `stats` send what they find: no entry or cursor objects are made. */
export interface StoreSink<T> {
  item(item: T, file: string, line: number): void;
  skip(bad: BadLine): void;
}

/** Every file's items and skips, in file order, to `sink`. */
export async function drainStore<T>(lines: StoreLines<T>, sink: StoreSink<T>): Promise<void> {
  for (const file of await listSegments(lines.path)) {
    await scanJsonlLines({
      storePath: lines.path,
      file,
      maxLineBytes: lines.maxLineBytes,
      visitor: sinkVisitor({ lines, file, sink }),
    });
  }
}

/** Entries (items and skips with their cursors) in file order, from a cursor; read a chunk at a time as they are taken. */
export async function* scanStoreEntries<T>(lines: StoreLines<T>, from?: JsonlCursor): AsyncGenerator<JsonlEntry<T>> {
  for (const file of await listSegments(lines.path)) {
    if (from !== undefined && file.segment < from.segment) continue;
    const start =
      from !== undefined && file.segment === from.segment
        ? { offset: from.offset, line: from.line }
        : { offset: 0, line: 0 };
    for await (const batch of scanFileBatches({ lines, file, from: start })) yield* batch;
  }
}

/** One file's entries from `from`, a batch per chunk read. */
async function* scanFileBatches<T>(context: {
  lines: StoreLines<T>;
  file: SegmentFile;
  from: { offset: number; line: number };
}): AsyncGenerator<JsonlEntry<T>[]> {
  const { lines, file, from } = context;
  let batch: JsonlEntry<T>[] = [];
  const visitor = entryVisitor({ lines, file, push: (entry) => batch.push(entry) });
  const chunks = scanJsonlChunks({ storePath: lines.path, file, maxLineBytes: lines.maxLineBytes, visitor, from });
  try {
    for (;;) {
      const step = await chunks.next();
      if (batch.length > 0) yield batch;
      batch = [];
      if (step.done === true) return;
    }
  } finally {
    await chunks.return(0); // closes the file when the consumer stops early
  }
}

const tooLongDetail = (bytes: number, maxLineBytes: number): string =>
  `the line is ${bytes} bytes, over maxLineBytes (${maxLineBytes})`;
const corruptDetail = (line: number): string =>
  `the compressed segment is damaged from about line ${line}; the lines before it were read`;

function sinkVisitor<T>(context: { lines: StoreLines<T>; file: SegmentFile; sink: StoreSink<T> }): JsonlLineVisitor {
  const { lines, sink } = context;
  const file = context.file.path;
  return {
    line: (line) => {
      const decoded = lines.decode(line);
      if (decoded === blankLine) return;
      if (!(decoded instanceof LineProblem)) sink.item(decoded, file, line.line);
      else sink.skip({ file, line: line.line, ...problemOf(decoded, line.terminated) });
    },
    tooLong: (place, bytes) =>
      sink.skip({ file, line: place.line, reason: 'line_too_long', detail: tooLongDetail(bytes, lines.maxLineBytes) }),
    corrupt: ({ line }) => sink.skip({ file, line, reason: 'corrupt_segment', detail: corruptDetail(line) }),
  };
}

function entryVisitor<T>(context: {
  lines: StoreLines<T>;
  file: SegmentFile;
  push: (entry: JsonlEntry<T>) => void;
}): JsonlLineVisitor {
  const { lines, file, push } = context;
  const at = (place: JsonlLinePlace): { file: string; line: number; offset: number } => ({
    file: file.path,
    line: place.line,
    offset: place.offset,
  });
  const next = (place: JsonlLinePlace): JsonlCursor => ({
    segment: file.segment,
    offset: place.nextOffset,
    line: place.line,
  });
  return {
    line: (line) => {
      const decoded = lines.decode(line);
      if (decoded === blankLine) return;
      if (!(decoded instanceof LineProblem)) push({ kind: 'item', item: decoded, ...at(line), next: next(line) });
      else if (line.terminated) push({ kind: 'skip', ...problemOf(decoded, true), ...at(line), next: next(line) });
      // A torn last line of the active file keeps the cursor before it, so a consumer never steps past data still arriving.
      else
        push({
          kind: 'skip',
          ...problemOf(decoded, false),
          ...at(line),
          next: file.active ? { segment: file.segment, offset: line.offset, line: line.line - 1 } : next(line),
        });
    },
    tooLong: (place, bytes) =>
      push({
        kind: 'skip',
        reason: 'line_too_long',
        detail: tooLongDetail(bytes, lines.maxLineBytes),
        ...at(place),
        next: next(place),
      }),
    corrupt: ({ line, offset }) =>
      push({
        kind: 'skip',
        reason: 'corrupt_segment',
        detail: corruptDetail(line),
        file: file.path,
        line,
        offset,
        next: { segment: file.segment + 1, offset: 0, line: 0 },
      }),
  };
}

/** A line's problem as reported: an unterminated last line that does not decode is torn, whatever else is wrong. */
function problemOf(problem: LineProblem, terminated: boolean): { reason: LineProblem['reason']; detail: string } {
  const reported = terminated ? problem : tornLine;
  return { reason: reported.reason, detail: reported.detail };
}
