import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { PROVIDER_VARIABLES } from './provider-variables.js';

/** The keys file's name in the home: `<home>/keys`, lines of `VARIABLE=value`, mode 0600. */
export const KEYS_FILE_NAME = 'keys';

/** The key variables the file may hold: those of the provider table, nothing else. */
const KEY_VARIABLES: ReadonlySet<string> = new Set(PROVIDER_VARIABLES.flatMap((p) => [...p.keyVariables]));

export function keysFilePath(home: string): string {
  return join(home, KEYS_FILE_NAME);
}

/** What the keys file holds: each key variable set in it (values never shown), or why it was refused. */
export type KeysFileRead =
  | { status: 'absent'; keys: Record<string, string> }
  | { status: 'read'; keys: Record<string, string> }
  | { status: 'refused'; keys: Record<string, string>; problem: string };

/**
 * Reads `<home>/keys`: `NAME=value` lines (blank lines and `#` comments skipped) for the providers' key variables
 * (`OPENROUTER_API_KEY=…`). Refused — nothing of it used, and a message saying how to fix it — when it is readable or
 * writable by group or others (a key file others can read is a leaked key: `chmod 600`), when it is not a regular
 * file, or when a line is not `NAME=value` for a known key variable (the message names the line, never a value).
 * Group/other permission bits are not checked on Windows, which has none.
 */
export function readKeysFile(home: string): KeysFileRead {
  const path = keysFilePath(home);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    // No file, or no home directory yet (a home that is a file is the settings' own message).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'absent', keys: {} };
    return refused(`The keys file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return refused(`The keys file ${path} is not a regular file: move it away.`);
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0)
      return refused(
        `The keys file ${path} is open to other users (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}), so its keys are not used: run chmod 600 ${path}.`,
      );
    const keys: Record<string, string> = {};
    const lines = readFileSync(fd, 'utf8').split(/\r?\n/);
    for (const [i, line] of lines.entries()) {
      const text = line.trim();
      if (text === '' || text.startsWith('#')) continue;
      const match = /^([A-Z][A-Z0-9_]*)\s*=\s*(.*)$/.exec(text);
      if (match === null || !KEY_VARIABLES.has(match[1]!))
        return refused(
          `The keys file ${path}, line ${i + 1}, is not NAME=value for a provider key (${[...KEY_VARIABLES].join(', ')}): set keys with "council keys set <provider>".`,
        );
      if (match[2]! !== '') keys[match[1]!] = match[2]!;
    }
    return { status: 'read', keys };
  } finally {
    closeSync(fd);
  }
}

function refused(problem: string): KeysFileRead {
  return { status: 'refused', keys: {}, problem };
}

/**
 * Writes the keys file whole: a new file created 0600 in the home (created 0700 if missing) and renamed over the old
 * one, so the file is never half-written nor, for a moment, readable by others. `keys` empty removes the file.
 */
export function writeKeysFile(home: string, keys: Readonly<Record<string, string>>): void {
  const path = keysFilePath(home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const names = Object.keys(keys).sort();
  if (names.length === 0) {
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return;
  }
  const text = [
    '# API keys of the providers, written by "council keys set"; read by council only. Keep this file mode 0600.',
    ...names.map((name) => `${name}=${keys[name]}`),
    '',
  ].join('\n');
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, path);
  } catch (error) {
    // A full disk mid-write would leave part of a key beside the file: the new file goes, the old one stays.
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    unlinkSync(temporary);
    throw error;
  }
}
