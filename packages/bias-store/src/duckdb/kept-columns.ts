import type * as Duckdb from '@duckdb/node-api';
import type { BiasRecordColumns } from '../bias-record-columns.js';
import { noRank } from '../bias-record-columns.js';
import { BiasStoreError } from '../bias-store-error.js';
import { utf16Order } from './window-sql.js';

/** JS's string order (UTF-16 code units). */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The most distinct names a column of `BiasColumns` can index (as the reader's interners allow). */
const limits = { models: 0xffff, configVersions: 0xfffe, queryCategories: 0xfffe } as const;

/**
 * The window's records as the reader's columns, read from `kept` (window-sql.ts): sessions oldest first (ties by id in
 * UTF-16 order), each session's records in read order, names indexed in name order. The engine has done the parallel
 * work — parsing, checking, windowing, dropping repeats, ordering — and Council's own code computes every number of
 * the report from these columns, so the report is the embedded one.
 */
export async function readKeptColumns(connection: Duckdb.DuckDBConnection, kept: number): Promise<BiasRecordColumns> {
  const names = async (sql: string, what: keyof typeof limits): Promise<string[]> => {
    const list = ((await connection.runAndReadAll(sql)).getColumnsJS()[0] ?? []) as string[];
    if (list.length > limits[what]) {
      throw new BiasStoreError({ code: 'INVALID_OPTION', message: `The window holds more than ${limits[what]} distinct ${what}; a report over them cannot be built. Narrow the window.` });
    }
    return list.sort(byCodeUnits);
  };
  const models = await names('SELECT reviewer FROM kept UNION SELECT candidate FROM kept', 'models');
  const configVersions = await names('SELECT DISTINCT config FROM kept WHERE config IS NOT NULL', 'configVersions');
  const queryCategories = await names('SELECT DISTINCT category FROM kept WHERE category IS NOT NULL', 'queryCategories');
  await nameTable(connection, 'model_ids', models);
  await nameTable(connection, 'config_ids', configVersions);
  await nameTable(connection, 'category_ids', queryCategories);
  // The window's sessions ordered as the reader orders them: by their earliest record in the window, then by id.
  await connection.run(`CREATE OR REPLACE TEMP TABLE session_places AS
    SELECT session, key, (row_number() OVER (ORDER BY key, ${utf16Order('session')}) - 1)::UINTEGER AS place
    FROM window_sessions WHERE session IN (SELECT session FROM kept)`);
  const sessionRows = (await connection.runAndReadAll('SELECT session, key FROM session_places ORDER BY place')).getColumnsJS();
  const sessionIds = (sessionRows[0] ?? []) as string[];
  const sessionTime = Float64Array.from((sessionRows[1] ?? []) as number[]);

  const length = kept;
  const columns = allocateColumns(length);
  const result = await connection.stream(`
    SELECT p.place, r.id, c.id, k.position::UINTEGER, k.len::UINTEGER, k.score, coalesce(k.rank, ${noRank})::UINTEGER, k.ms,
           coalesce(v.id + 1, 0)::USMALLINT, coalesce(q.id + 1, 0)::USMALLINT, k.pido
    FROM kept k JOIN session_places p ON p.session = k.session
      JOIN model_ids r ON r.name = k.reviewer JOIN model_ids c ON c.name = k.candidate
      LEFT JOIN config_ids v ON v.name = k.config LEFT JOIN category_ids q ON q.name = k.category
    ORDER BY p.place, k.ord`);
  let at = 0;
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const n = chunk.rowCount;
    if (at + n > length) break;
    const vector = (i: number): Duckdb.DuckDBVector => chunk.getColumnVector(i);
    const [place, reviewer, candidate, position, len, score, rank, ms, config, category, pido] = Array.from({ length: 11 }, (_, i) => vector(i));
    for (let i = 0; i < n; i++) {
      const j = at + i;
      columns.session[j] = place!.getItem(i) as number;
      columns.reviewer[j] = reviewer!.getItem(i) as number;
      columns.candidate[j] = candidate!.getItem(i) as number;
      columns.position[j] = position!.getItem(i) as number;
      columns.responseLengthChars[j] = len!.getItem(i) as number;
      columns.score[j] = (score!.getItem(i) as number | null) ?? Number.NaN;
      columns.rankPosition[j] = rank!.getItem(i) as number;
      columns.time[j] = ms!.getItem(i) as number;
      columns.configVersion[j] = config!.getItem(i) as number;
      columns.queryCategory[j] = category!.getItem(i) as number;
      columns.positionIsDisplayOrder[j] = pido!.getItem(i) === true ? 1 : 0;
    }
    at += n;
  }
  if (at !== length) throw new Error(`duckdb/kept-columns.ts: ${at} records read of the window's ${length} (a bug: report it with the inputs).`);
  const sessionStart = new Uint32Array(sessionIds.length + 1);
  for (let i = 0; i < length; i++) sessionStart[columns.session[i]! + 1]!++;
  for (let s = 0; s < sessionIds.length; s++) sessionStart[s + 1]! += sessionStart[s]!;
  return { length, ...columns, sessionIds, sessionTime, sessionStart, models, configVersions, queryCategories };
}

/** A temporary table of (name, id): each name's index in `names`. */
async function nameTable(connection: Duckdb.DuckDBConnection, table: string, names: readonly string[]): Promise<void> {
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${table} (name VARCHAR, id USMALLINT)`);
  const appender = await connection.createAppender(table, 'main', 'temp');
  for (const [id, name] of names.entries()) {
    appender.appendVarchar(name);
    appender.appendUSmallInt(id);
    appender.endRow();
  }
  appender.closeSync();
}

/** The window's columns, 41 bytes a record; a window beyond this process's memory is refused with what to do. */
function allocateColumns(length: number) {
  try {
    return {
      session: new Uint32Array(length),
      reviewer: new Uint16Array(length),
      candidate: new Uint16Array(length),
      position: new Uint32Array(length),
      responseLengthChars: new Uint32Array(length),
      score: new Float64Array(length),
      rankPosition: new Uint32Array(length),
      time: new Float64Array(length),
      configVersion: new Uint16Array(length),
      queryCategory: new Uint16Array(length),
      positionIsDisplayOrder: new Uint8Array(length),
    };
  } catch (error) {
    throw new BiasStoreError({
      code: 'TOO_LARGE',
      message: `Not enough memory for the window's ${length.toLocaleString('en-US')} records (41 bytes each as columns); narrow the window (--sessions, --days).`,
      cause: error,
    });
  }
}
