import { BiasStoreError } from './bias-store-error.js';
import { parseIsoTimestamp } from './iso-timestamp.js';

export interface JsonlReadOptions {
  /** Keep the last N sessions, ranked by each session's latest record (needs `sessionOf` and `timeOf`). */
  maxSessions?: number;
  /** Keep records from the last N days before `now` (needs `timeOf`). */
  maxDays?: number;
  /** Keep records at or after this time (needs `timeOf`). */
  since?: Date | string;
  /** Keep records at or before this time (needs `timeOf`). */
  until?: Date | string;
  /** The clock for `maxDays`; default the current time. */
  now?: Date;
}

/** What a store knows of its items' time and session. */
export interface ItemClock<T> {
  /** The store's active file, named in errors. */
  path: string;
  timeOf?: ((item: T) => string) | undefined;
  sessionOf?: ((item: T) => string) | undefined;
}

/** A read's window, checked: the records from `lower` to `upper` (ms, inclusive), of the last `maxSessions` sessions. */
export interface ReadWindow<T> {
  /** Set when the store knows time (then the items come oldest first). */
  timeOf: ((item: T) => string) | undefined;
  /** Set only with `maxSessions`. */
  sessionOf: ((item: T) => string) | undefined;
  maxSessions: number | undefined;
  lower: number;
  upper: number;
}

/** Checks a read's options against what the store knows; throws `INVALID_OPTION` for a window it cannot honour. */
export function resolveReadWindow<T>(options: JsonlReadOptions, clock: ItemClock<T>): ReadWindow<T> {
  const { maxSessions, maxDays } = options;
  if (maxSessions !== undefined && (!Number.isInteger(maxSessions) || maxSessions < 1)) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `read: maxSessions must be a positive integer, got ${String(maxSessions)}.`,
    });
  }
  if (maxDays !== undefined && (!Number.isFinite(maxDays) || maxDays <= 0)) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `read: maxDays must be a positive number, got ${String(maxDays)}.`,
    });
  }
  const windowed =
    maxSessions !== undefined || maxDays !== undefined || options.since !== undefined || options.until !== undefined;
  const timeOf = windowed ? requireAccessor({ clock, name: 'timeOf', option: 'a time window' }) : clock.timeOf;
  const sessionOf =
    maxSessions !== undefined ? requireAccessor({ clock, name: 'sessionOf', option: 'maxSessions' }) : undefined;
  const now = options.now === undefined ? Date.now() : toMs(options.now, 'now');
  let lower = -Infinity;
  if (maxDays !== undefined) lower = now - maxDays * 86_400_000;
  if (options.since !== undefined) lower = Math.max(lower, toMs(options.since, 'since'));
  const upper = options.until === undefined ? Infinity : toMs(options.until, 'until');
  return { timeOf, sessionOf, maxSessions, lower, upper };
}

function requireAccessor<T>(need: {
  clock: ItemClock<T>;
  name: 'timeOf' | 'sessionOf';
  option: string;
}): (item: T) => string {
  const fn = need.clock[need.name];
  if (fn === undefined) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `read: ${need.option} needs a store created with ${need.name}; ${need.clock.path} has none.`,
    });
  }
  return fn;
}

function toMs(value: Date | string, name: string): number {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms))
      throw new BiasStoreError({ code: 'INVALID_OPTION', message: `read: ${name} is an invalid Date.` });
    return ms;
  }
  const parsed = parseIsoTimestamp(value);
  if (parsed === null) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `read: ${name} ${JSON.stringify(value.slice(0, 40))} is not an ISO 8601 date-time (e.g. 2025-12-17T10:30:00Z).`,
    });
  }
  return parsed.ms;
}
