import type { JsonlCursor } from './jsonl-cursor.js';
import { parseJsonlCursor } from './jsonl-cursor.js';
import { readRegularFile } from './read-regular-file.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** Reads a cursor file such as `telemetry/sent.cursor`; null when it does not exist yet. Throws `INVALID_CURSOR` for foreign content. */
export async function readCursorFile(path: string): Promise<JsonlCursor | null> {
  const text = await readRegularFile(path);
  return text === null ? null : parseJsonlCursor(text, path);
}

/** Writes a cursor file atomically (temporary file, fsync, rename, directory fsync; mode 0600). */
export async function writeCursorFile(path: string, cursor: JsonlCursor): Promise<void> {
  await writeFileAtomic(
    path,
    `${JSON.stringify({ segment: cursor.segment, offset: cursor.offset, line: cursor.line })}\n`,
  );
}
