import type * as Duckdb from '@duckdb/node-api';
import type { BiasWindowExclusions } from '../read-bias-records.js';
import type { RepeatedRecords } from '../drop-repeated-records.js';
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

/** The reader's counts of the window, with `readBiasRecords`' meanings. */
export interface WindowCounts {
  records: number;
  timestampsWithoutZone: number;
  sessions: number;
  excluded: BiasWindowExclusions;
  repeated: RepeatedRecords;
  /** The window's records once repeats are dropped (`kept`). */
  kept: number;
  positionNotDisplayOrder: number;
  simulatedRecords: number;
}

/** A double as SQL: JS's shortest text of it, which DuckDB reads back to the same double. */
const double = (value: number): string => `${String(value)}::DOUBLE`;

/**
 * A session id's order as JS's `<` sees it (UTF-16 code units), as bytes DuckDB compares: UTF-16 puts the characters
 * beyond U+FFFF (as surrogates, 0xD800–0xDFFF) before U+E000–U+FFFF, UTF-8 after them; prefixing each of U+E000–U+FFFF
 * with U+10FFFF moves them after every other character, as in UTF-16.
 */
export const utf16Order = (column: string): string => `regexp_replace(${column}, '([\\x{E000}-\\x{FFFF}])', '\u{10FFFF}\\1', 'g')`;

/** Why a record is out of the window, in the reader's order: model, config version, future, before the window (0: in it). */
const exclusionCodes = { model: 1, configVersion: 2, future: 3, beforeWindow: 4 } as const;

const recordColumns = 'ord, session, ms, reviewer, candidate, position, len, score, rank, config, category, pido';

/**
 * Applies the window to `scan`'s accepted records as `readBiasRecords` does, and counts as it counts: each record is
 * left out by the first filter that applies (model, config version, after `now`, before the window); sessions are
 * ranked by their earliest record in the window (ties by id, in UTF-16 order) and the last `maxSessions` kept. Leaves
 * `rec`, the kept sessions' records in the window with their repeats (what the JS reader holds before dropping
 * repeats), and `kept`, the first record read of each (session, reviewer, reviewed member): the window's records. Work the window does not need — ranking when every session is kept, copies when nothing is left out,
 * dropping repeats when there are none — is skipped.
 */
export async function applyWindow(connection: Duckdb.DuckDBConnection, options: WindowSqlOptions): Promise<WindowCounts> {
  const { maxSessions, nowMs, earliestMs, model, configVersion } = options;
  const rows = async (sql: string): Promise<Record<string, unknown>[]> => (await connection.runAndReadAll(sql)).getRowObjectsJS();
  const count = async (sql: string): Promise<number> => Number(Object.values((await rows(sql))[0]!)[0] ?? 0);
  const byModel = model === undefined ? 'false' : `(reviewer <> ${literal(model)} AND candidate <> ${literal(model)})`;
  const byConfig = configVersion === undefined ? 'false' : `config IS DISTINCT FROM ${literal(configVersion)}`;
  const before = earliestMs === Number.NEGATIVE_INFINITY ? 'false' : `ms < ${double(earliestMs)}`;
  await connection.run(`CREATE OR REPLACE TEMP VIEW tagged AS
    SELECT *, CASE WHEN ${byModel} THEN ${exclusionCodes.model} WHEN ${byConfig} THEN ${exclusionCodes.configVersion}
                   WHEN ms > ${double(nowMs)} THEN ${exclusionCodes.future} WHEN ${before} THEN ${exclusionCodes.beforeWindow} ELSE 0 END AS excluded
    FROM scan WHERE status = 0`);
  const excluded: BiasWindowExclusions = { model: 0, configVersion: 0, beforeWindow: 0, future: 0, beyondSessions: 0 };
  let records = 0;
  let timestampsWithoutZone = 0;
  for (const row of await rows('SELECT excluded, count(*) AS n, count(*) FILTER (WHERE NOT zoned) AS zoneless FROM tagged GROUP BY excluded')) {
    const n = Number(row['n']);
    records += n;
    timestampsWithoutZone += Number(row['zoneless']);
    const kind = (Object.keys(exclusionCodes) as (keyof typeof exclusionCodes)[]).find((k) => exclusionCodes[k] === Number(row['excluded']));
    if (kind !== undefined) excluded[kind] = n;
  }
  const inWindow = records - excluded.model - excluded.configVersion - excluded.future - excluded.beforeWindow;
  await connection.run(`CREATE OR REPLACE TEMP TABLE window_sessions AS
    SELECT session, min(ms) AS key, count(*) AS records FROM tagged WHERE excluded = 0 GROUP BY session`);
  const sessions = await count('SELECT count(*) FROM window_sessions');
  const ranked = maxSessions < sessions;
  if (ranked) {
    await connection.run(`CREATE OR REPLACE TEMP TABLE chosen AS
      SELECT session FROM window_sessions QUALIFY row_number() OVER (ORDER BY key DESC, ${utf16Order('session')} DESC) <= ${maxSessions}`);
    excluded.beyondSessions = await count('SELECT coalesce(sum(records), 0) FROM window_sessions WHERE session NOT IN (SELECT session FROM chosen)');
  }
  // A table, not a view over `scan`: it is read several times (counts, repeats, the records).
  const where = inWindow === records && !ranked ? '' : ` AND excluded = 0${ranked ? ' AND session IN (SELECT session FROM chosen)' : ''}`;
  // Copied in parallel: no statement reads rec in its physical order (each orders by ord where order matters).
  await connection.run('SET preserve_insertion_order = false');
  await connection.run(`CREATE OR REPLACE TEMP TABLE rec AS SELECT ${recordColumns} FROM tagged WHERE true${where}`);
  await connection.run('RESET preserve_insertion_order');
  // What the window left out is counted: its memory goes back before the records are read.
  await connection.run('DROP VIEW tagged');
  await connection.run(`DROP ${(await count("SELECT count(*) FROM duckdb_views() WHERE view_name = 'scan' AND temporary")) > 0 ? 'VIEW' : 'TABLE'} scan`);
  const repeated: RepeatedRecords = { duplicates: 0, conflicts: 0, conflictSessions: [] };
  // Repeats are rare: grouping by one hash of (session, reviewer, reviewed member) finds there are none more cheaply
  // than grouping by the three names (equal names have equal hashes, so no hash met twice means no repeat).
  const maybeRepeats = await count('SELECT count(*) FROM (SELECT hash(session, reviewer, candidate) AS h FROM rec GROUP BY h HAVING count(*) > 1)');
  if (maybeRepeats > 0) await connection.run('CREATE OR REPLACE TEMP TABLE firsts AS SELECT min(ord) AS ord FROM rec GROUP BY session, reviewer, candidate');
  if (maybeRepeats === 0 || (await count('SELECT count(*) FROM rec')) === (await count('SELECT count(*) FROM firsts'))) {
    await connection.run('CREATE OR REPLACE TEMP VIEW kept AS SELECT * FROM rec');
  } else {
    await connection.run('CREATE OR REPLACE TEMP TABLE kept AS SELECT * FROM rec WHERE ord IN (SELECT ord FROM firsts)');
    const row = (await rows(repeatsQuery))[0]!;
    repeated.duplicates = Number(row['duplicates']);
    repeated.conflicts = Number(row['conflicts']);
    repeated.conflictSessions = row['conflict_sessions'] as string[];
  }
  const kept = (await rows(`SELECT count(*) AS kept, count(*) FILTER (WHERE NOT pido) AS not_display,
    count(*) FILTER (WHERE starts_with(reviewer, 'simulated:') OR starts_with(candidate, 'simulated:')) AS simulated FROM kept`))[0]!;
  return {
    records,
    timestampsWithoutZone,
    sessions,
    excluded,
    repeated,
    kept: Number(kept['kept']),
    positionNotDisplayOrder: Number(kept['not_display']),
    simulatedRecords: Number(kept['simulated']),
  };
}

/**
 * The repeats of the window (rows of `rec` after the first of their session, reviewer and reviewed member), each told a
 * duplicate when every field equals the first's as drop-repeated-records.ts's `sameRecord` compares them (a score by
 * Object.is: both unscored, or equal with the same sign), else a conflict; and the first five sessions with a conflict
 * in the window's order (earliest record, then id in UTF-16 order).
 */
const repeatsQuery = `
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
    (SELECT coalesce(list(session ORDER BY key, order_key), []) FROM (
       SELECT session, key, ${utf16Order('session')} AS order_key FROM window_sessions
       WHERE session IN (SELECT session FROM repeats WHERE NOT same) ORDER BY key, order_key LIMIT 5)) AS conflict_sessions`;
