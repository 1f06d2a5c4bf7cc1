import { BiasAuditError } from './bias-audit-error.js';

const DAY_MS = 86_400_000;

/**
 * The window of a bias report as given: the flags `--sessions`, `--days`, `--now`, `--model`, `--config-version` under
 * the same names. A checked `BiasWindow` is one too, so a window is checked once and handed on as it is.
 */
export interface BiasWindowOptions {
  /** The most recent sessions kept, by each session's earliest record in the window (ties by id); Infinity keeps all. */
  sessions?: number;
  /** Days before `now` kept; Infinity keeps all. */
  days?: number;
  /** Keep records at or after this time too (an ISO 8601 date-time, or a Date): `council contributions --since`. */
  since?: Date | string;
  /** The end of the window: records after it are left out (counted as future). Default: the current time. */
  now?: Date | string;
  /** Keep only records where this model is the reviewer or the reviewed member. */
  model?: string;
  /** Keep only records of this council configuration version. */
  configVersion?: string;
  /** Keep only records of this query category (`aggregateBiasAudit` over observations; the readers refuse it). */
  queryCategory?: string;
}

/**
 * A window, checked (`parseBiasWindow`): the records of the `sessions` most recent sessions among those from
 * `earliestMs` to `nowMs` (inclusive) that pass the filters. Every reader (the embedded one, each engine) and
 * `aggregateBiasAudit` over observations apply it alike; a report labels its window block with it.
 */
export interface BiasWindow {
  /** A whole number of at least 1, or Infinity. */
  readonly sessions: number;
  /** A positive number, or Infinity. */
  readonly days: number;
  readonly now: Date;
  /** `now`, epoch ms. */
  readonly nowMs: number;
  /** The later of `nowMs` less `days` days and `since`, or -Infinity when neither bounds the window. */
  readonly earliestMs: number;
  readonly since?: Date;
  readonly model?: string;
  readonly configVersion?: string;
  readonly queryCategory?: string;
}

/**
 * ADR-018's report window: the last 100 sessions of the last 30 days. The CLI's default (`LLM_COUNCIL_BIAS_WINDOW_SESSIONS`,
 * `LLM_COUNCIL_BIAS_WINDOW_DAYS`) and `aggregateBiasAudit`'s; a reader given no bound reads every record instead.
 */
export const DEFAULT_BIAS_WINDOW: Readonly<{ sessions: number; days: number }> = Object.freeze({
  sessions: 100,
  days: 30,
});

/** What `parseBiasWindow` takes beside the window: the bounds it gets when none is given, and who asks (named in errors). */
export interface ParseBiasWindowSettings {
  /** Default: no bound (Infinity, Infinity). */
  defaults?: { sessions: number; days: number };
  /** Prefixed to error messages, e.g. `readBiasRecords`. */
  caller?: string;
}

export type SafeParseBiasWindowResult =
  { success: true; value: BiasWindow } | { success: false; error: BiasAuditError };

/** Checks a window; `{ success: false, error }` (`INVALID_OPTION`, saying which option and what it takes) when it is not one. */
export function safeParseBiasWindow(
  options: BiasWindowOptions,
  settings: ParseBiasWindowSettings = {},
): SafeParseBiasWindowResult {
  const prefix = settings.caller === undefined ? '' : `${settings.caller}: `;
  const fail = (message: string): SafeParseBiasWindowResult => ({
    success: false,
    error: new BiasAuditError({ code: 'INVALID_OPTION', message: `${prefix}${message}` }),
  });
  if (typeof options !== 'object' || options === null)
    return fail('the window must be an object such as { sessions: 100, days: 30 }.');
  const defaults = settings.defaults ?? { sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
  const sessions = options.sessions ?? defaults.sessions;
  if (
    typeof sessions !== 'number' ||
    !(sessions >= 1) ||
    !(Number.isInteger(sessions) || sessions === Number.POSITIVE_INFINITY)
  )
    return fail(`sessions must be a positive integer (or Infinity), got ${String(sessions)}.`);
  const days = options.days ?? defaults.days;
  if (typeof days !== 'number' || !(days > 0))
    return fail(`days must be a positive number of days (or Infinity), got ${String(days)}.`);
  let now: Date;
  if (options.now === undefined) now = new Date();
  else if (options.now instanceof Date) {
    if (Number.isNaN(options.now.getTime())) return fail('now is an invalid Date.');
    now = options.now;
  } else {
    const ms = typeof options.now === 'string' ? Date.parse(options.now) : Number.NaN;
    if (Number.isNaN(ms)) return fail(`now must be a Date or an ISO 8601 string, got ${String(options.now)}.`);
    now = new Date(ms);
  }
  const nowMs = now.getTime();
  let sinceMs = Number.NEGATIVE_INFINITY;
  let since: Date | undefined;
  if (options.since !== undefined) {
    sinceMs =
      options.since instanceof Date
        ? options.since.getTime()
        : typeof options.since === 'string' && /^\d{4}-\d{2}-\d{2}/.test(options.since)
          ? Date.parse(options.since)
          : Number.NaN;
    if (Number.isNaN(sinceMs))
      return fail(
        `since must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z, got ${JSON.stringify(String(options.since).slice(0, 40))}.`,
      );
    since = new Date(sinceMs);
  }
  const window: {
    -readonly [K in keyof BiasWindow]: BiasWindow[K];
  } = {
    sessions,
    days,
    now,
    nowMs,
    earliestMs: Math.max(days === Number.POSITIVE_INFINITY ? Number.NEGATIVE_INFINITY : nowMs - days * DAY_MS, sinceMs),
  };
  if (since !== undefined) window.since = since;
  for (const name of ['model', 'configVersion', 'queryCategory'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return fail(`${name} must be a string, got ${String(value)}.`);
    window[name] = value;
  }
  return { success: true, value: window };
}

/**
 * The window's order of sessions: by each session's earliest record in the window (`start`, epoch ms), oldest first,
 * ties by id in JS's string order (UTF-16 code units). A window keeps the last `sessions` of this order, whichever
 * reader applies it (the SQL of DuckDB and ClickHouse ranks by the same key). Sorts `order` (indices into `start` and
 * `ids`) in place and returns it.
 */
export function orderSessionsByStart(order: number[], start: ArrayLike<number>, ids: ArrayLike<string>): number[] {
  return order.sort((a, b) => start[a]! - start[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
}

/** Options of the window's earlier spelling (top-level options of a reader or `aggregateBiasAudit`), now the window's fields. */
const movedToWindow: Readonly<Record<string, string>> = {
  now: 'window.now',
  maxSessions: 'window.sessions',
  maxDays: 'window.days',
  summariesWindow: 'window (its sessions and days)',
  model: 'window.model',
  configVersion: 'window.configVersion',
  queryCategory: 'window.queryCategory',
  since: 'window.since',
};

/**
 * `"maxSessions is now window.sessions."` when `options` (a reader's or `aggregateBiasAudit`'s top-level options)
 * still uses one of the window's earlier option names, else undefined: such an option is refused with its new name
 * rather than ignored, so a caller written for the earlier API does not silently read every record.
 */
export function movedWindowOptionProblem(options: object): string | undefined {
  for (const [old, now] of Object.entries(movedToWindow)) {
    if (old in options) return `${old} is now ${now}.`;
  }
  return undefined;
}

/** Checks a window (see `safeParseBiasWindow`); throws `BiasAuditError` `INVALID_OPTION` when it is not one. */
export function parseBiasWindow(options: BiasWindowOptions, settings?: ParseBiasWindowSettings): BiasWindow {
  const parsed = safeParseBiasWindow(options, settings);
  if (!parsed.success) throw parsed.error;
  return parsed.value;
}
