import type { Stats } from 'node:fs';
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { BiasStoreError, councilPaths, isStoreFile, makeDirectory, replaceFileWhole } from '@council/bias-store';
import { CliError } from './cli-error.js';
import type { CouncilSettings } from './settings/council-settings.js';

/** What a user-named output may not be: the home's files, by what they are. */
interface OwnedFiles {
  /** Stores: the active file, its segments and its processes' private names are all the store's. */
  stores: { path: string; what: string }[];
  files: { path: string; what: string }[];
  /** Every file inside is Council's. */
  dirs: { path: string; what: string }[];
}

function ownedFiles(settings: Pick<CouncilSettings, 'home' | 'files'>): OwnedFiles {
  const f = settings.files;
  return {
    stores: [
      { path: f.biasStore, what: "Council's bias store" },
      { path: f.contributions, what: "Council's contribution store" },
      { path: f.history, what: "Council's history log" },
      { path: f.outbox, what: "Council's telemetry outbox" },
      { path: f.deadLetter, what: "Council's telemetry dead-letter file" },
    ].map((s) => ({ ...s, path: canonical(s.path) })),
    files: [
      { path: f.config, what: "Council's configuration" },
      ...(f.orgConfig === null ? [] : [{ path: f.orgConfig, what: "the organization's configuration" }]),
      { path: f.sentCursor, what: "Council's telemetry cursor" },
    ].map((s) => ({ ...s, path: canonical(s.path) })),
    dirs: [
      { path: f.personalities, what: 'a personality file of Council' },
      { path: councilPaths(settings.home).journal, what: "Council's session journal" },
    ].map((s) => ({ ...s, path: canonical(s.path) })),
  };
}

/**
 * A path with the symbolic links of its existing part resolved (realpath of the deepest ancestor that exists, then the
 * rest as given): the same file under any of its names, whether or not the file exists yet.
 */
function canonical(path: string): string {
  const absolute = resolve(path);
  const rest: string[] = [];
  for (let at = absolute; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return absolute;
      rest.push(basename(at));
    }
  }
}

/** Which of Council's files `path` (canonical) names, by its name: a store's file, a configuration file, a file in a directory of Council's. */
function ownerByName(path: string, owned: OwnedFiles): string | null {
  for (const store of owned.stores) if (isStoreFile(store.path, path)) return `${store.what} (${store.path})`;
  for (const file of owned.files) if (file.path === path) return `${file.what} (${file.path})`;
  for (const dir of owned.dirs) if (dirname(path) === dir.path || path === dir.path) return `${dir.what} (${path})`;
  return null;
}

/** Which of Council's existing files is the same file (inode) as `info`: a hard link elsewhere names it too. */
function ownerByIdentity(info: Stats, owned: OwnedFiles): string | null {
  const same = (candidate: string): boolean => {
    try {
      const other = statSync(candidate);
      return other.dev === info.dev && other.ino === info.ino;
    } catch {
      return false;
    }
  };
  const inDirectory = (dir: string, keep: (name: string) => boolean): string[] => {
    try {
      return readdirSync(dir)
        .filter(keep)
        .map((name) => join(dir, name));
    } catch {
      return [];
    }
  };
  for (const store of owned.stores) {
    const hit = inDirectory(dirname(store.path), (name) =>
      isStoreFile(store.path, join(dirname(store.path), name)),
    ).find(same);
    if (hit !== undefined) return `${store.what} (${hit})`;
  }
  for (const file of owned.files) if (same(file.path)) return `${file.what} (${file.path})`;
  for (const dir of owned.dirs) {
    const hit = inDirectory(dir.path, () => true).find(same);
    if (hit !== undefined) return `${dir.what} (${hit})`;
  }
  return null;
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Checks a file the user named for Council to write (`--output`), before anything is computed or written, and returns
 * the file to write: the path itself, or, when it is a symbolic link, the file it points to (as a shell's `>` would).
 * Refused, as a usage error naming the path and what to do:
 * - anything but a regular file: a directory, a FIFO, a device (`/dev/null`, `/dev/full`, a terminal), a socket, or a
 *   link to one of those or to nothing;
 * - any of Council's own files in the home — a store (its active file, segments and private names), the history,
 *   the outbox and its cursor and dead-letter file, the configuration, a personality, the session journal — by name
 *   (links resolved) and by identity (a hard link elsewhere is the same file).
 * `orElse` says what else the user can do (e.g. "leave --output out to print the report").
 */
export function checkOutputFile(options: {
  path: string;
  flag: string;
  orElse: string;
  settings: Pick<CouncilSettings, 'home' | 'files'>;
}): string {
  const { flag, orElse } = options;
  const given = resolve(options.path);
  const refuse = (why: string): CliError =>
    new CliError({ code: 'USAGE', message: `${flag} ${options.path}: ${why}.` });
  let target = given;
  let info: Stats | null = lstatOrNull(given);
  if (info?.isSymbolicLink() === true) {
    try {
      target = realpathSync(given);
    } catch {
      throw refuse(`it is a symbolic link to a file that does not exist; give the path of a file, or ${orElse}`);
    }
    info = lstatOrNull(target);
  }
  if (info !== null && !info.isFile()) {
    const kind = kindOf(info);
    throw refuse(
      `it is ${kind}${target === given ? '' : ` (${target})`}, not a regular file; ${info.isDirectory() ? 'give the name of a file inside it' : 'give the name of a regular file'}, or ${orElse}`,
    );
  }
  const owned = ownedFiles(options.settings);
  const owner = ownerByName(canonical(target), owned) ?? (info === null ? null : ownerByIdentity(info, owned));
  if (owner !== null)
    throw refuse(`it is ${owner}, and Council never writes over its own files; choose another file name`);
  return target;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * Writes a file the user named (`--output`, the demo's report): checked first (`checkOutputFile`), then written whole
 * through a temporary file in the same directory (mode 0600, fsynced) renamed over it, so a reader never sees half of it
 * and a failure leaves the old file as it was. Missing directories are created (0700). Returns the path written.
 */
export function writeOutputFile(options: {
  path: string;
  flag: string;
  orElse: string;
  data: string;
  settings: Pick<CouncilSettings, 'home' | 'files'>;
}): string {
  const target = checkOutputFile(options);
  try {
    if (!existsSync(dirname(target))) makeDirectory(dirname(target));
    replaceFileWhole(target, options.data);
  } catch (error) {
    if (BiasStoreError.isInstance(error))
      throw new CliError({
        code: 'RUNTIME',
        message: `${error.message} Nothing was written to ${target}.`,
        cause: error,
      });
    throw error;
  }
  return target;
}

/**
 * Checks a directory the user named for Council to write files into (`store export --output DIR`): absent (it is
 * created) or a directory (a link to one is followed) — never a file, a FIFO or a device — and neither the home nor one
 * of Council's directories in it (the journal, the personalities, the telemetry files), whose readers would take the
 * exported files for their own. Returns the directory to write into.
 */
export function checkOutputDirectory(options: {
  path: string;
  flag: string;
  settings: Pick<CouncilSettings, 'home' | 'files'>;
}): string {
  const given = resolve(options.path);
  const refuse = (why: string): CliError =>
    new CliError({ code: 'USAGE', message: `${options.flag} ${options.path}: ${why}.` });
  let info: Stats | null = lstatOrNull(given);
  if (info?.isSymbolicLink() === true) {
    try {
      info = statSync(given); // a link to a directory is a directory
    } catch {
      throw refuse('it is a symbolic link to nothing; give a directory');
    }
  }
  if (info !== null && !info.isDirectory())
    throw refuse(
      `it is ${info.isFile() ? 'a file' : kindOf(info)}, and ${options.flag} names a directory to write the partitions into; choose a directory`,
    );
  const at = canonical(given);
  const home = canonical(options.settings.home);
  const own = [
    home,
    canonical(councilPaths(options.settings.home).journal),
    canonical(options.settings.files.personalities),
    canonical(dirname(options.settings.files.outbox)),
  ];
  if (own.includes(at))
    throw refuse(
      `it is ${at === home ? "Council's home" : "one of Council's directories"} (${at}), whose readers would take the exported files for Council's own; choose a directory of its own`,
    );
  return given;
}
