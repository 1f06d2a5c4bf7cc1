import { closeSync, constants, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { ioError } from './io-error.js';
import { ownedSuffix, ownerIsGone } from './private-names.js';
import { readRegularFile } from './read-regular-file.js';
import { fsyncDirectorySync } from './write-file-atomic.js';

/**
 * The journal of sessions being saved (`<home>/journal/`, `councilPaths(home).journal`): one file per session, written
 * (and fsynced) before any of the session's files is touched, holding every line the session adds to each file, and
 * removed once all of them are written. Its name says the session and its state:
 * - `<session>.saving-<owner>-<pid>-<n>`: a process is saving it now (or died doing so: its pid no longer runs);
 * - `<session>.unsaved`: a save that failed (a full disk…) and gave up; anyone may complete it;
 * - `<session>.repair-<owner>-<pid>-<n>`: claimed by a process completing it (`completeUnsavedSessions`).
 * The session id is URI-encoded in the name. While a session has a journal file in any state, Council's readers leave it
 * out (`unsavedSessionIds`): it is counted when it is whole, never before.
 */
export const journalSchemaVersion = '1.0.0';

/** One file's share of a session: the lines it adds (each without its newline), and how that store closes segments. */
export interface JournalPart {
  /** For messages: `20 bias records`, `its history entry`… */
  what: string;
  path: string;
  segmentBytes: number;
  lines: string[];
}

export interface SessionJournal {
  sessionId: string;
  /** When the journal was written (ISO 8601): no line of the session can be in a file last changed before it. */
  createdAt: string;
  parts: JournalPart[];
}

// Built on first use (z.lazy), not when the store's modules load: only a home with a journal file reads one.
const journalFileSchema = z.lazy(() =>
  z.object({
    schema_version: z.string().regex(/^1\./),
    session_id: z.string().min(1),
    created_at: z.string(),
    parts: z.array(
      z.object({
        what: z.string(),
        path: z.string().min(1),
        segment_bytes: z.number().int().positive(),
        lines: z.array(z.string()),
      }),
    ),
  }),
);

export type JournalState = { kind: 'saving' | 'repair'; tag: string; pid: number } | { kind: 'unsaved' };

/** A file of the journal directory: whose session, in which state. */
export interface JournalFile {
  path: string;
  sessionId: string;
  state: JournalState;
}

const statePattern = /^(saving|repair)-([0-9a-f]{12})-(\d+)-[0-9a-z]+$/;

/** The journal file name of a session in a state; `saving` and `repair` names carry this process as their owner. */
export function journalFileName(sessionId: string, kind: JournalState['kind']): string {
  const session = encodeURIComponent(sessionId);
  return kind === 'unsaved' ? `${session}.unsaved` : `${session}.${kind}-${ownedSuffix()}`;
}

/** Reads a journal directory entry's name, or null when it is not a journal file (a temporary name, a stranger). */
export function parseJournalFileName(name: string): { sessionId: string; state: JournalState } | null {
  const dot = name.indexOf('.');
  if (dot <= 0) return null;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(name.slice(0, dot));
  } catch {
    return null;
  }
  const rest = name.slice(dot + 1);
  if (rest === 'unsaved') return { sessionId, state: { kind: 'unsaved' } };
  const m = statePattern.exec(rest);
  if (m === null) return null;
  return { sessionId, state: { kind: m[1] as 'saving' | 'repair', tag: m[2]!, pid: Number(m[3]) } };
}

/** Whether a journal file may be completed by anyone now: given up (`unsaved`), or its owner no longer runs. */
export function isAbandoned(state: JournalState): boolean {
  return state.kind === 'unsaved' || ownerIsGone(state);
}

/** The journal's files, in name order; a missing directory holds none. Throws `IO_ERROR` when it cannot be listed. */
export async function listJournal(dir: string): Promise<JournalFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw ioError({ action: 'list the directory of', path: join(dir, '.'), cause: error });
  }
  const files: JournalFile[] = [];
  for (const name of names.sort()) {
    const parsed = parseJournalFileName(name);
    if (parsed !== null) files.push({ path: join(dir, name), ...parsed });
  }
  return files;
}

/**
 * The sessions readers leave out: every session with a journal file, in any state — being saved now, given up, or
 * being completed. Reports and the history show a session once all its files hold it.
 */
export async function unsavedSessionIds(dir: string): Promise<Set<string>> {
  return new Set((await listJournal(dir)).map((f) => f.sessionId));
}

/** The journal as JSON text (snake_case on disk, as every Council file). */
export function journalText(journal: SessionJournal): string {
  return `${JSON.stringify({
    schema_version: journalSchemaVersion,
    session_id: journal.sessionId,
    created_at: journal.createdAt,
    parts: journal.parts.map((p) => ({ what: p.what, path: p.path, segment_bytes: p.segmentBytes, lines: p.lines })),
  })}\n`;
}

/** Reads a journal file; null when it is gone, or when it is not a whole journal (a crash while it was written). */
export async function readJournal(path: string): Promise<SessionJournal | null> {
  const text = await readRegularFile(path);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = journalFileSchema.safeParse(raw);
  if (!parsed.success) return null;
  const j = parsed.data;
  return {
    sessionId: j.session_id,
    createdAt: j.created_at,
    parts: j.parts.map((p) => ({ what: p.what, path: p.path, segmentBytes: p.segment_bytes, lines: p.lines })),
  };
}

/**
 * Writes a new journal file (it must not exist: O_EXCL), whole — every write's byte count checked — and fsynced with
 * its directory, so that once this returns the journal survives a power loss. On failure the file is removed again and
 * the error (`IO_ERROR`) says why.
 */
export function writeJournalFile(path: string, text: string): void {
  const data = Buffer.from(text);
  let fd: number;
  try {
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    throw ioError({ action: 'write', path, cause: error });
  }
  try {
    for (let written = 0; written < data.length;) {
      const n = writeSync(fd, data, written, data.length - written);
      if (n <= 0) throw Object.assign(new Error(`write returned ${n}`), { code: 'EIO' });
      written += n;
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // Left torn, it is read as no journal (nothing of the session was written yet) and removed by the next repair.
    }
    throw ioError({ action: 'write', path, cause: error });
  }
  closeSync(fd);
  fsyncDirectorySync(dirname(path));
}
