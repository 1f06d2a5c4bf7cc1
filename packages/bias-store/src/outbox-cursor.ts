import type { JsonlCursor } from './jsonl-cursor.js';
import type { SegmentFile } from './segment-files.js';

/**
 * Where `cursor` points past the end of a store made of `files` (in read order), said for a message
 * ("segment 4, past the last one (2)", "byte 900 of …/outbox.jsonl, which holds 120"); null when it
 * fits. A store is append-only, so a cursor past its end means the store was replaced or cut short
 * since the cursor was written (deleted, restored from a backup, segments removed): reading on from
 * there would silently skip everything appended since.
 */
export function describeCursorOverrun(files: readonly SegmentFile[], cursor: JsonlCursor): string | null {
  const last = files.at(-1);
  if (last === undefined) return null; // nothing stored at all: nothing to skip
  const file = files.find((f) => f.segment === cursor.segment);
  const beyond = file === undefined ? cursor.segment > last.segment : !file.compressed && cursor.offset > file.bytes;
  if (!beyond) return null;
  return file === undefined
    ? `segment ${cursor.segment}, past the last one (${last.segment})`
    : `byte ${cursor.offset} of ${file.path}, which holds ${file.bytes}`;
}
