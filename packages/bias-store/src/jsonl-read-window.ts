import { safeParseBiasWindow } from '@council/bias-audit';
import { BiasStoreError } from './bias-store-error.js';
import { parseIsoTimestamp } from './iso-timestamp.js';

/**
 * A store read's window. `sessions`, `days` and `now` are bias-audit's window fields, checked by its
 * `safeParseBiasWindow`; this generic read ranks sessions by their latest item (a bias report's readers, by their
 * earliest record) and leaves nothing out for being after `now` (only `until` does).
 */
export interface JsonlReadOptions {
  /** Keep the last N sessions, ranked by each session's latest record (needs `sessionOf` and `timeOf`); Infinity keeps all. */
  sessions?: number;
  /** Keep records from the last N days before `now` (needs `timeOf`); Infinity keeps all. */
  days?: number;
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

/** A read's window, checked: the records from `lower` to `upper` (ms, inclusive), of the last `sessions` sessions. */
export interface ReadWindow<T> {
  /** Set when the store knows time (then the items come oldest first). */
  timeOf: ((item: T) => string) | undefined;
  /** Set only with a bound on `sessions`. */
  sessionOf: ((item: T) => string) | undefined;
  /** A whole number, or undefined: every session. */
  sessions: number | undefined;
  lower: number;
  upper: number;
}

/** Checks a read's options against what the store knows; throws `INVALID_OPTION` for a window it cannot honour. */
export function resolveReadWindow<T>(options: JsonlReadOptions, clock: ItemClock<T>): ReadWindow<T> {
  for (const [old, now] of [
    ['maxSessions', 'sessions'],
    ['maxDays', 'days'],
  ] as const) {
    if (old in options) throw new BiasStoreError({ code: 'INVALID_OPTION', message: `read: ${old} is now ${now}.` });
  }
  // The bounds as every window's are checked; since and until by the store's own (strict) ISO 8601 parser, below.
  const parsed = safeParseBiasWindow(
    {
      ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
      ...(options.days === undefined ? {} : { days: options.days }),
      ...(options.now === undefined ? {} : { now: options.now }),
    },
    { caller: 'read' },
  );
  if (!parsed.success)
    throw new BiasStoreError({ code: 'INVALID_OPTION', message: parsed.error.message, cause: parsed.error });
  const sessions = Number.isFinite(parsed.value.sessions) ? parsed.value.sessions : undefined;
  const days = Number.isFinite(parsed.value.days) ? parsed.value.days : undefined;
  const windowed =
    sessions !== undefined || days !== undefined || options.since !== undefined || options.until !== undefined;
  const timeOf = windowed ? requireAccessor({ clock, name: 'timeOf', option: 'a time window' }) : clock.timeOf;
  const sessionOf =
    sessions !== undefined ? requireAccessor({ clock, name: 'sessionOf', option: 'sessions' }) : undefined;
  let lower = parsed.value.earliestMs;
  if (options.since !== undefined) lower = Math.max(lower, toMs(options.since, 'since'));
  const upper = options.until === undefined ? Infinity : toMs(options.until, 'until');
  return { timeOf, sessionOf, sessions, lower, upper };
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
