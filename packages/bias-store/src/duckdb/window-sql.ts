import { literal } from './record-sql.js';

/** The window as `readBiasRecords` applies it, its options already checked. */
export interface WindowSqlOptions {
  maxSessions: number;
  /** The end of the window, epoch ms. */
  nowMs: number;
  /** The window's start (`nowMs - maxDays` days), or -Infinity. */
  earliestMs: number;
  model?: string | undefined;
  configVersion?: string | undefined;
}

/** A double as SQL: JS's shortest text of it, which DuckDB reads back to the same double. */
const double = (value: number): string => `${String(value)}::DOUBLE`;

/**
 * A session id's order as JS's `<` sees it (UTF-16 code units), as bytes DuckDB compares: UTF-16 puts the characters
 * beyond U+FFFF (as surrogates, 0xD800–0xDFFF) before U+E000–U+FFFF, UTF-8 after them; prefixing each of U+E000–U+FFFF
 * with U+10FFFF moves them after every other character, as in UTF-16.
 */
const utf16Order = (column: string): string => `regexp_replace(${column}, '([\\x{E000}-\\x{FFFF}])', '\u{10FFFF}\\1', 'g')`;

/** Why a record is out of the window, in the reader's order: model, config version, future, before the window (0: in it). */
export const exclusionCodes = { model: 1, configVersion: 2, future: 3, beforeWindow: 4 } as const;

/**
 * The statements applying the window to `scan`'s accepted records, as `readBiasRecords` does: each record is left out
 * by the first filter that applies (model, config version, after `now`, before the window); sessions are ranked by
 * their earliest record in the window (ties by id) and the last `maxSessions` kept. `rec` holds the kept sessions'
 * records in the window, repeats included (what the JS reader holds before dropping repeats), `kept` the first record
 * read of each (session, reviewer, reviewed member): the records the summaries are computed from.
 */
export function duckdbWindowStatements(options: WindowSqlOptions): string[] {
  const { maxSessions, nowMs, earliestMs, model, configVersion } = options;
  const byModel = model === undefined ? 'false' : `(reviewer <> ${literal(model)} AND candidate <> ${literal(model)})`;
  const byConfig = configVersion === undefined ? 'false' : `config IS DISTINCT FROM ${literal(configVersion)}`;
  const before = earliestMs === Number.NEGATIVE_INFINITY ? 'false' : `ms < ${double(earliestMs)}`;
  const keep = maxSessions === Number.POSITIVE_INFINITY ? '' : `QUALIFY row_number() OVER (ORDER BY key DESC, order_key DESC) <= ${maxSessions}`;
  return [
    `CREATE OR REPLACE TEMP VIEW tagged AS
       SELECT *, CASE WHEN ${byModel} THEN ${exclusionCodes.model} WHEN ${byConfig} THEN ${exclusionCodes.configVersion}
                      WHEN ms > ${double(nowMs)} THEN ${exclusionCodes.future} WHEN ${before} THEN ${exclusionCodes.beforeWindow} ELSE 0 END AS excluded
       FROM scan WHERE status = 0`,
    `CREATE OR REPLACE TEMP TABLE window_sessions AS
       SELECT session, min(ms) AS key, count(*) AS records, ${utf16Order('session')} AS order_key FROM tagged WHERE excluded = 0 GROUP BY session`,
    `CREATE OR REPLACE TEMP TABLE chosen AS
       SELECT session, row_number() OVER (ORDER BY key, order_key) AS place FROM window_sessions ${keep}`,
    `CREATE OR REPLACE TEMP TABLE rec AS
       SELECT ord, session, ms, reviewer, candidate, position, len, score, rank, config, category, pido
       FROM tagged WHERE excluded = 0 AND session IN (SELECT session FROM chosen)`,
    `CREATE OR REPLACE TEMP TABLE kept AS
       SELECT * FROM rec QUALIFY row_number() OVER (PARTITION BY session, reviewer, candidate ORDER BY ord) = 1`,
  ];
}

/** One row: the reader's counts over `scan` and the window's tables (column names as `ReadBiasRecordsResult`'s). */
export const windowCountsQuery = `
  SELECT
    (SELECT count(*) FROM scan WHERE status = 0) AS records,
    (SELECT count(*) FROM scan WHERE status = 0 AND NOT zoned) AS timestamps_without_zone,
    (SELECT count(*) FROM tagged WHERE excluded = ${exclusionCodes.model}) AS excluded_model,
    (SELECT count(*) FROM tagged WHERE excluded = ${exclusionCodes.configVersion}) AS excluded_config_version,
    (SELECT count(*) FROM tagged WHERE excluded = ${exclusionCodes.future}) AS excluded_future,
    (SELECT count(*) FROM tagged WHERE excluded = ${exclusionCodes.beforeWindow}) AS excluded_before_window,
    (SELECT count(*) FROM window_sessions) AS sessions,
    (SELECT coalesce(sum(records), 0) FROM window_sessions WHERE session NOT IN (SELECT session FROM chosen)) AS beyond_sessions,
    (SELECT count(*) FROM rec) AS window_records,
    (SELECT count(*) FROM kept) AS kept,
    (SELECT count(*) FROM kept WHERE NOT pido) AS position_not_display_order,
    (SELECT count(*) FROM kept WHERE starts_with(reviewer, 'simulated:') OR starts_with(candidate, 'simulated:')) AS simulated_records`;

/**
 * The repeats of the window (rows of `rec` after the first of their session, reviewer and reviewed member), each told a
 * duplicate when every field equals the first's as drop-repeated-records.ts's `sameRecord` compares them (a score by
 * Object.is: both unscored, or equal with the same sign), else a conflict; and the first five sessions with a conflict
 * in the window's order.
 */
export const repeatsQuery = `
  WITH repeats AS (
    SELECT r.session,
           r.position = k.position AND r.len = k.len
             AND r.score IS NOT DISTINCT FROM k.score AND coalesce(signbit(r.score) = signbit(k.score), true)
             AND r.rank IS NOT DISTINCT FROM k.rank AND r.ms = k.ms AND r.config IS NOT DISTINCT FROM k.config
             AND r.category IS NOT DISTINCT FROM k.category AND r.pido = k.pido AS same
    FROM rec r JOIN kept k ON r.session = k.session AND r.reviewer = k.reviewer AND r.candidate = k.candidate
    WHERE r.ord <> k.ord
  )
  SELECT
    (SELECT count(*) FROM repeats WHERE same) AS duplicates,
    (SELECT count(*) FROM repeats WHERE NOT same) AS conflicts,
    (SELECT coalesce(list(session ORDER BY place), []) FROM (
       SELECT c.session, c.place FROM chosen c WHERE c.session IN (SELECT session FROM repeats WHERE NOT same) ORDER BY c.place LIMIT 5)) AS conflict_sessions`;
