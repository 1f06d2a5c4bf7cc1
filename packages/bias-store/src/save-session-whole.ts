import { existsSync, renameSync, unlinkSync } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BiasStoreError } from './bias-store-error.js';
import { ioProblem } from './io-error.js';
import type { IoProblem } from './io-error.js';
import type { PreparedAppend } from './jsonl-store.js';
import { appendPrepared } from './jsonl-store.js';
import { makeDirectory } from './make-directory.js';
import { scanJsonlLines } from './scan-jsonl-lines.js';
import { listSegments } from './segment-files.js';
import type { JournalFile, SessionJournal } from './session-journal.js';
import {
  isAbandoned,
  journalFileName,
  journalText,
  listJournal,
  readJournal,
  writeJournalFile,
} from './session-journal.js';

/** One file's share of a session, for `saveSessionWhole`. */
export interface SessionPart {
  /** For messages: `20 bias records`, `its history entry`, `its telemetry event`… */
  what: string;
  /** The lines, prepared by the file's store (`store.prepare(items)`, `prepareHistory`). */
  prepared: PreparedAppend;
}

const marker = Symbol.for('council.error.SessionSaveError');

/**
 * A session that could not be saved whole (`saveSessionWhole`). A `BiasStoreError` (`IO_ERROR`) that also says what
 * became of the session: `journalFile` null — nothing of it was written; else its lines wait in that journal file,
 * left out by every reader, until `completeUnsavedSessions` writes the rest.
 */
export class SessionSaveError extends BiasStoreError {
  readonly sessionId: string;
  /** Where the session's lines wait, or null when nothing of the session was written. */
  readonly journalFile: string | null;
  /** The file that could not be written (the journal file or its directory when `journalFile` is null). */
  readonly failedPath: string;
  /** What failed: creating the journal's directory, writing the journal file, or appending a part to its file. */
  readonly failedStep: 'journal-directory' | 'journal' | 'part';
  /** Every part of the session, as given. */
  readonly parts: readonly { what: string; path: string }[];
  /** What the file system said, and what to do about it. */
  override readonly problem: IoProblem;

  constructor(options: {
    sessionId: string;
    journalFile: string | null;
    failedPath: string;
    failedStep: SessionSaveError['failedStep'];
    parts: readonly SessionPart[];
    cause: unknown;
  }) {
    const problem = ioProblem(options.cause);
    const list = listWhat(options.parts.map((p) => p.what));
    const verb = options.failedStep === 'journal-directory' ? 'create the directory' : 'write';
    const message =
      options.journalFile === null
        ? `Session ${options.sessionId} was not saved: cannot ${verb} ${options.failedPath}: ${problem.what} (${problem.code}). Nothing of it was written (${list}); ${problem.fix}, then save it again.`
        : `Session ${options.sessionId} was not saved whole: cannot append to ${options.failedPath}: ${problem.what} (${problem.code}). ${capitalise(list)} wait in ${options.journalFile}, left out of what readers count until saved; ${problem.fix}, then complete it (completeUnsavedSessions).`;
    super({ code: 'IO_ERROR', message, cause: options.cause, problem });
    this.name = 'SessionSaveError';
    this.sessionId = options.sessionId;
    this.journalFile = options.journalFile;
    this.failedPath = options.failedPath;
    this.failedStep = options.failedStep;
    this.parts = options.parts.map((p) => ({ what: p.what, path: p.prepared.path }));
    this.problem = problem;
    Object.defineProperty(this, marker, { value: true });
  }

  static override isInstance(error: unknown): error is SessionSaveError {
    return (
      typeof error === 'object' &&
      error !== null &&
      marker in error &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}

/** `a`, `a and b`, `a, b and c`. */
export function listWhat(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The highest directory of `path` that does not exist: the one whose creation failed. */
function firstMissing(path: string): string {
  let missing = path;
  for (let parent = dirname(path); parent !== missing && !existsSync(parent); parent = dirname(parent))
    missing = parent;
  return missing;
}

function linesOf(prepared: PreparedAppend): string[] {
  const text = prepared.data.toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
}

/**
 * Saves a session's lines in several files (bias records, contributions, history, outbox…) as one unit: readers see all
 * of them or none.
 * 1. The journal file `<journal>/<session>.saving-<this process>` is written with every line of every part, and fsynced
 *    with its directory. From here on every reader leaves the session out (`unsavedSessionIds`).
 * 2. Each part is appended in the order given, whole or absent, fsynced (`appendPrepared`).
 * 3. The journal file is removed: the session is counted from then on.
 * A failure in 2 renames the journal file to `<session>.unsaved` and throws a `SessionSaveError` with that path: the
 * session stays out of every count until `completeUnsavedSessions` appends what is missing. A crash (SIGKILL, power
 * loss) in 2 leaves the `saving` file of a process that no longer runs, which `completeUnsavedSessions` completes alike.
 * A failure in 1 writes nothing at all (`journalFile` null). Parts with no lines are skipped; no parts, no journal.
 */
export async function saveSessionWhole(options: {
  journal: string;
  sessionId: string;
  parts: readonly SessionPart[];
  now?: Date;
}): Promise<void> {
  const { journal, sessionId } = options;
  const parts = options.parts.filter((p) => p.prepared.records > 0);
  if (parts.length === 0) return;
  const saving = join(journal, journalFileName(sessionId, 'saving'));
  const text = journalText({
    sessionId,
    createdAt: (options.now ?? new Date()).toISOString(),
    parts: parts.map((p) => ({
      what: p.what,
      path: p.prepared.path,
      segmentBytes: p.prepared.segmentBytes,
      lines: linesOf(p.prepared),
    })),
  });
  try {
    makeDirectory(journal);
  } catch (error) {
    throw new SessionSaveError({
      sessionId,
      journalFile: null,
      failedPath: firstMissing(journal),
      failedStep: 'journal-directory',
      parts,
      cause: error,
    });
  }
  try {
    writeJournalFile(saving, text);
  } catch (error) {
    throw new SessionSaveError({
      sessionId,
      journalFile: null,
      failedPath: saving,
      failedStep: 'journal',
      parts,
      cause: error,
    });
  }
  for (const part of parts) {
    try {
      await appendPrepared(part.prepared, { fsync: true });
    } catch (error) {
      const unsaved = join(journal, journalFileName(sessionId, 'unsaved'));
      let journalFile = saving;
      try {
        renameSync(saving, unsaved); // given up: anyone may complete it now, even while this process lives on (serve)
        journalFile = unsaved;
      } catch {
        // Left under this process's name: completed once this process has ended.
      }
      throw new SessionSaveError({
        sessionId,
        journalFile,
        failedPath: part.prepared.path,
        failedStep: 'part',
        parts,
        cause: error,
      });
    }
  }
  try {
    unlinkSync(saving);
  } catch {
    // Every line is written; a journal file left behind only hides the session until a repair finds it complete.
  }
}

/** What `completeUnsavedSessions` did. */
export interface CompleteUnsavedResult {
  /** Sessions now whole, with the lines each part still needed (0: it was already there). */
  completed: { sessionId: string; added: { what: string; path: string; lines: number }[] }[];
  /** Journal files that held no whole journal (a crash while one was written, before any file of its session): removed. */
  discarded: number;
  /** Sessions that could not be completed now (the file system refused again): still left out, kept for a later try. */
  failed: { sessionId: string; error: BiasStoreError }[];
  /** Sessions another process is saving or completing right now: left alone. */
  busy: string[];
}

/**
 * Completes the sessions whose save was interrupted or failed (see `saveSessionWhole`): each journal file given up
 * (`unsaved`) or left by a process that no longer runs is claimed (renamed to this process's `repair` name, so two
 * repairers never complete one session twice), each part's file is searched for the session's lines (only the files
 * changed since the journal was written), the missing lines are appended (whole or absent, fsynced), and the journal
 * file is removed. A part that fails again puts the journal file back as `unsaved`, for a later try.
 */
export async function completeUnsavedSessions(options: { journal: string }): Promise<CompleteUnsavedResult> {
  const result: CompleteUnsavedResult = { completed: [], discarded: 0, failed: [], busy: [] };
  for (const file of await listJournal(options.journal)) {
    if (!isAbandoned(file.state)) {
      result.busy.push(file.sessionId);
      continue;
    }
    const claimed = join(options.journal, journalFileName(file.sessionId, 'repair'));
    try {
      await rename(file.path, claimed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another repairer claimed it first
      throw error;
    }
    await completeOne({ file, claimed, journal: options.journal, result });
  }
  return result;
}

async function completeOne(context: {
  file: JournalFile;
  claimed: string;
  journal: string;
  result: CompleteUnsavedResult;
}): Promise<void> {
  const { file, claimed, result } = context;
  const giveBack = async (error: unknown): Promise<void> => {
    await rename(claimed, join(context.journal, journalFileName(file.sessionId, 'unsaved'))).catch(() => undefined);
    result.failed.push({
      sessionId: file.sessionId,
      error: BiasStoreError.isInstance(error)
        ? error
        : new BiasStoreError({ code: 'IO_ERROR', message: String(error), cause: error }),
    });
  };
  let journal: SessionJournal | null;
  try {
    journal = await readJournal(claimed);
  } catch (error) {
    await giveBack(error);
    return;
  }
  if (journal === null) {
    // Torn while it was written: the session's files were not touched yet (the journal is fsynced before them).
    await unlink(claimed).catch(() => undefined);
    result.discarded++;
    return;
  }
  const added: { what: string; path: string; lines: number }[] = [];
  for (const part of journal.parts) {
    try {
      const missing = await missingLines({
        path: part.path,
        lines: part.lines,
        sinceMs: Date.parse(journal.createdAt),
      });
      if (missing.length > 0) {
        const data = Buffer.from(`${missing.join('\n')}\n`);
        await appendPrepared(
          { path: part.path, data, records: missing.length, segmentBytes: part.segmentBytes, lockStaleMs: 30_000 },
          { fsync: true },
        );
      }
      added.push({ what: part.what, path: part.path, lines: missing.length });
    } catch (error) {
      await giveBack(error);
      return;
    }
  }
  await unlink(claimed).catch(() => undefined);
  result.completed.push({ sessionId: journal.sessionId, added });
}

/** How far back of the journal's time a file's modification time is still trusted to predate it (clock granularity). */
const clockSlackMs = 5_000;

/**
 * The lines of `lines` that no file of the store at `path` holds whole. Only files changed since `sinceMs` are read:
 * the journal is written before any of its lines, so an older file cannot hold one. A line found without its newline
 * at the very end of a file counts as there (the next append's leading newline completes it).
 */
async function missingLines(options: { path: string; lines: readonly string[]; sinceMs: number }): Promise<string[]> {
  const wanted = new Set(options.lines);
  const lengths = new Set(options.lines.map((l) => Buffer.byteLength(l)));
  const found = new Set<string>();
  const maxLineBytes = Math.max(1, ...lengths);
  for (const file of await listSegments(options.path)) {
    const info = await stat(file.path).catch(() => null);
    if (info !== null && Number.isFinite(options.sinceMs) && info.mtimeMs < options.sinceMs - clockSlackMs) continue;
    await scanJsonlLines({
      storePath: options.path,
      file,
      maxLineBytes,
      visitor: {
        line: ({ buf, start, end }) => {
          if (!lengths.has(end - start)) return;
          const text = buf.toString('utf8', start, end);
          if (wanted.has(text)) found.add(text);
        },
        tooLong: () => undefined,
        corrupt: () => undefined,
      },
    });
    if (found.size === wanted.size) break;
  }
  return options.lines.filter((l) => !found.has(l));
}
