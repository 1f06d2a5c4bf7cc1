import type * as Duckdb from '@duckdb/node-api';
import type { BiasWindow } from '@council/bias-audit';
import type { BiasWindowExclusions } from '@council/bias-store';
import { noWindowExclusions } from '@council/bias-store/internal';
import { literal } from './record-sql.js';

/** The window as `readBiasRecords` applies it: the fields of the checked `BiasWindow` this SQL reads. */
export type WindowSqlOptions = Pick<BiasWindow, 'sessions' | 'nowMs' | 'earliestMs' | 'model' | 'configVersion'>;

/** The reader's counts of the window, with `readBiasRecords`' meanings (repeats are counted with the records). */
export interface WindowCounts {
  records: number;
  timestampsWithoutZone: number;
  sessions: number;
  excluded: BiasWindowExclusions;
  /** The chosen sessions' records in the window, repeats included. */
  windowRecords: number;
}

/** A double as SQL: JS's shortest text of it, which DuckDB reads back to the same double. */
const double = (value: number): string => `${String(value)}::DOUBLE`;

/**
 * A session id's order as JS's `<` sees it (UTF-16 code units), as bytes DuckDB compares: UTF-16 puts the characters
 * beyond U+FFFF (as surrogates, 0xD800–0xDFFF) before U+E000–U+FFFF, UTF-8 after them; prefixing each of U+E000–U+FFFF
 * with U+10FFFF moves them after every other character, as in UTF-16.
 */
export const utf16Order = (column: string): string =>
  `regexp_replace(${column}, '([\\x{E000}-\\x{FFFF}])', '\u{10FFFF}\\1', 'g')`;

/** What a name in `window_names` names. */
export const nameKinds = { model: 0, configVersion: 1, queryCategory: 2 } as const;

/** Why a record is out of the window, in the reader's order: model, config version, future, before the window (0: in it). */
const exclusionCodes = { model: 1, configVersion: 2, future: 3, beforeWindow: 4 } as const;

/**
 * Applies the window to `scan`'s accepted records as `readBiasRecords` does, and counts as it counts: each record is
 * left out by the first filter that applies (model, config version, after `now`, before the window); sessions are
 * ranked by their earliest record in the window (ties by id, in UTF-16 order) and the window's last `sessions` kept. Leaves
 * the view `tagged` (`scan`'s accepted records with `excluded`, 0 in the window), the table `session_places` (the
 * chosen sessions with their earliest time, `key`, their records in the window, repeats included, `n`, and their place
 * in the window's order, 0 = oldest) and the table `window_names` (`kind`, `name`: the members, config versions and
 * query categories of the window's records, those of sessions beyond the window's `sessions` too). One pass over the
 * records groups them; the rest works on sessions and names.
 */
export async function applyWindow(
  connection: Duckdb.DuckDBConnection,
  options: WindowSqlOptions,
): Promise<WindowCounts> {
  const { sessions: sessionLimit, nowMs, earliestMs, model, configVersion } = options;
  const rows = async (sql: string): Promise<Record<string, unknown>[]> =>
    (await connection.runAndReadAll(sql)).getRowObjectsJS();
  const byModel = model === undefined ? 'false' : `(reviewer <> ${literal(model)} AND candidate <> ${literal(model)})`;
  const byConfig = configVersion === undefined ? 'false' : `config IS DISTINCT FROM ${literal(configVersion)}`;
  const before = earliestMs === Number.NEGATIVE_INFINITY ? 'false' : `ms < ${double(earliestMs)}`;
  await connection.run(`CREATE OR REPLACE TEMP VIEW tagged AS
    SELECT *, CASE WHEN ${byModel} THEN ${exclusionCodes.model} WHEN ${byConfig} THEN ${exclusionCodes.configVersion}
                   WHEN ms > ${double(nowMs)} THEN ${exclusionCodes.future} WHEN ${before} THEN ${exclusionCodes.beforeWindow} ELSE 0 END AS excluded
    FROM scan WHERE status = 0`);
  // One pass over the records: per session and exclusion, and the names the window's records use.
  await connection.run(`CREATE OR REPLACE TEMP TABLE by_group AS
    SELECT grouping_id(session, reviewer, candidate, config, category) AS g, session, excluded, reviewer, candidate, config, category,
           min(ms) AS key, count(*) AS n, count(*) FILTER (WHERE NOT zoned) AS zoneless
    FROM tagged GROUP BY GROUPING SETS ((session, excluded), (excluded, reviewer), (excluded, candidate), (excluded, config), (excluded, category))`);
  // grouping_id of the set grouped by `by` (and `excluded`): a bit per argument, the first the highest, set where not grouped.
  const set = (by: string): number =>
    ['session', 'reviewer', 'candidate', 'config', 'category'].reduce(
      (g, column, i) => (by === column ? g : g | (1 << (4 - i))),
      0,
    );
  await connection.run(`CREATE OR REPLACE TEMP TABLE window_names AS
    SELECT ${nameKinds.model} AS kind, reviewer AS name FROM by_group WHERE g = ${set('reviewer')} AND excluded = 0
    UNION SELECT ${nameKinds.model}, candidate FROM by_group WHERE g = ${set('candidate')} AND excluded = 0
    UNION SELECT ${nameKinds.configVersion}, config FROM by_group WHERE g = ${set('config')} AND excluded = 0 AND config IS NOT NULL
    UNION SELECT ${nameKinds.queryCategory}, category FROM by_group WHERE g = ${set('category')} AND excluded = 0 AND category IS NOT NULL`);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE by_session AS SELECT session, excluded, key, n, zoneless FROM by_group WHERE g = ${set('session')}`,
  );
  await connection.run('DROP TABLE by_group');
  const excluded = noWindowExclusions();
  let records = 0;
  let timestampsWithoutZone = 0;
  for (const row of await rows(
    'SELECT excluded, sum(n) AS n, sum(zoneless) AS zoneless FROM by_session GROUP BY excluded',
  )) {
    const n = Number(row['n']);
    records += n;
    timestampsWithoutZone += Number(row['zoneless']);
    const kind = (Object.keys(exclusionCodes) as (keyof typeof exclusionCodes)[]).find(
      (k) => exclusionCodes[k] === Number(row['excluded']),
    );
    if (kind !== undefined) excluded[kind] = n;
  }
  await connection.run(`CREATE OR REPLACE TEMP TABLE window_sessions AS
    SELECT session, key, n, row_number() OVER (ORDER BY key DESC, ${utf16Order('session')} DESC) - 1 AS from_newest
    FROM by_session WHERE excluded = 0`);
  await connection.run('DROP TABLE by_session');
  const [totals] = await rows(
    `SELECT count(*) AS sessions, coalesce(sum(n) FILTER (WHERE from_newest >= ${Math.min(sessionLimit, 2 ** 32)}), 0) AS beyond FROM window_sessions`,
  );
  const sessions = Number(totals!['sessions']);
  excluded.beyondSessions = Number(totals!['beyond']);
  const chosen = Math.min(sessions, sessionLimit);
  await connection.run(`CREATE OR REPLACE TEMP TABLE session_places AS
    SELECT session, key, n, ${chosen - 1} - from_newest AS place FROM window_sessions WHERE from_newest < ${chosen}`);
  await connection.run('DROP TABLE window_sessions');
  const inWindow = records - excluded.model - excluded.configVersion - excluded.future - excluded.beforeWindow;
  return { records, timestampsWithoutZone, sessions, excluded, windowRecords: inWindow - excluded.beyondSessions };
}
