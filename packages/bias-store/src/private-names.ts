import { createHash, randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * The names a process gives a store's files for itself alone, beside the store's own names (which readers list):
 * - `pin`: a writer's second name for the file it is appending to (see `append-lines.ts`);
 * - `rotated`: where a rotation moves the active file before it lets go of it (see `rotate-active-file.ts`);
 * - `tmp`: a compactor's gzip copy before it is published (see `compact-segments.ts`).
 * Each carries its owner (a hash of host name and PID namespace, and the pid), so another process can tell a
 * leftover of a dead process from a name in use: `<base>.<kind>-<owner tag>-<pid>-<unique>`.
 */
export type PrivateNameKind = 'pin' | 'rotated' | 'tmp';

export interface PrivateName {
  /** The name it was made beside, e.g. `events.jsonl`. */
  base: string;
  kind: PrivateNameKind;
  tag: string;
  pid: number;
}

let tag: string | undefined;
let nonce = '';
let counter = 0;
const pattern = /^(.+)\.(pin|rotated|tmp)-([0-9a-f]{12})-(\d+)-[0-9a-z]+$/;

/**
 * This process's host, hashed with its PID namespace on Linux: a pid is only compared among names with the same tag,
 * so a name made on another machine sharing the directory, or in another container, is never taken for a dead one.
 */
export function ownerTag(): string {
  if (tag === undefined) {
    let namespace = '';
    try {
      namespace = readlinkSync('/proc/self/ns/pid');
    } catch {
      // not Linux: the host name alone
    }
    tag = createHash('sha256').update(`${hostname()}\0${namespace}`).digest('hex').slice(0, 12);
    nonce = randomBytes(3).toString('hex');
  }
  return tag;
}

/** `<owner tag>-<pid>-<unique>`: a fresh suffix unique to this process (a counter, after a random part per process). */
export function ownedSuffix(): string {
  return `${ownerTag()}-${process.pid}-${nonce}${(counter++).toString(36)}`;
}

/** A fresh name of `kind` beside `path`, unique to this process (see `ownedSuffix`). */
export function privateName(path: string, kind: PrivateNameKind): string {
  return `${path}.${kind}-${ownedSuffix()}`;
}

/** Reads a directory entry as a private name, or null when it is not one. */
export function parsePrivateName(name: string): PrivateName | null {
  const m = pattern.exec(name);
  if (m === null) return null;
  return { base: m[1]!, kind: m[2] as PrivateNameKind, tag: m[3]!, pid: Number(m[4]) };
}

/**
 * True only when the owner certainly no longer runs: made on this host (and PID namespace) by another process whose
 * pid is not alive. A reused pid keeps a leftover for longer, never the reverse.
 */
export function ownerIsGone(name: Pick<PrivateName, 'tag' | 'pid'>): boolean {
  if (name.tag !== ownerTag() || name.pid === process.pid) return false;
  try {
    process.kill(name.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
