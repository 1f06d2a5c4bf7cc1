import type * as Duckdb from '@duckdb/node-api';
import { allocateRecordArrays, permuteRecordArrays, byCodeUnits, checkWindowNames } from '@council/bias-store/internal';
import type { RecordArrays } from '@council/bias-store/internal';
import type { BiasRecordColumns } from '@council/bias-store';
import { noRank, BiasStoreError } from '@council/bias-store';
import { nameKinds } from './window-sql.js';

type Columns = RecordArrays;

/**
 * The window's records (`tagged` with `excluded` 0, in the sessions of `session_places`, named in `window_names`, as
 * window-sql.ts leaves them), names indexed in name order, in whatever order DuckDB's threads finish — no sort, no copy
 * of the records in DuckDB; `inReadOrder` then orders them (once DuckDB's memory is released) by a counting pass over
 * sessions. `records`: how many the window holds (window-sql.ts counted them).
 */
export async function streamWindowRecords(
  connection: Duckdb.DuckDBConnection,
  records: number,
): Promise<ArrivedRecords> {
  const names = (await connection.runAndReadAll('SELECT kind, name FROM window_names')).getRowsJS();
  const sorted = (kind: number, what: Parameters<typeof checkWindowNames>[1]): string[] => {
    const list = names.filter((row) => Number(row[0]) === kind).map((row) => row[1] as string);
    checkWindowNames(list.length, what);
    return list.sort(byCodeUnits);
  };
  const models = sorted(nameKinds.model, 'models');
  const configVersions = sorted(nameKinds.configVersion, 'config versions');
  const queryCategories = sorted(nameKinds.queryCategory, 'query categories');
  await nameTable(connection, 'model_ids', models);
  await nameTable(connection, 'config_ids', configVersions);
  await nameTable(connection, 'category_ids', queryCategories);
  const sessionRows = (
    await connection.runAndReadAll('SELECT session, key FROM session_places ORDER BY place')
  ).getColumnsJS();
  const sessionIds = (sessionRows[0] ?? []) as string[];
  const sessionTime = Float64Array.from((sessionRows[1] ?? []) as number[]);

  const arrived = allocateColumns(records);
  const ord = new Float64Array(records);
  // Every column is non-null (unscored is NaN, unranked noRank, no config version 0), in the order of `targets`.
  const result = await connection.stream(`
    SELECT p.place::UINTEGER, r.id, c.id, t.position::UINTEGER, t.len::UINTEGER, coalesce(t.score, 'NaN'::DOUBLE),
           coalesce(t.rank, ${noRank})::UINTEGER, t.ms, coalesce(v.id + 1, 0)::USMALLINT, coalesce(q.id + 1, 0)::USMALLINT,
           t.pido::UTINYINT, t.ord::DOUBLE
    FROM tagged t JOIN session_places p ON p.session = t.session
      JOIN model_ids r ON r.name = t.reviewer JOIN model_ids c ON c.name = t.candidate
      LEFT JOIN config_ids v ON v.name = t.config LEFT JOIN category_ids q ON q.name = t.category
    WHERE t.excluded = 0`);
  const targets = [
    arrived.session,
    arrived.reviewer,
    arrived.candidate,
    arrived.position,
    arrived.responseLengthChars,
    arrived.score,
    arrived.rankPosition,
    arrived.time,
    arrived.configVersion,
    arrived.queryCategory,
    arrived.positionIsDisplayOrder,
    ord,
  ];
  let at = 0;
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const n = chunk.rowCount;
    if (at + n > records)
      throw new Error(
        `duckdb/window-columns.ts: more than the window's ${records} records (a bug: report it with the inputs).`,
      );
    targets.forEach((target, k) => copyColumn({ vector: chunk.getColumnVector(k), target, at, n }));
    at += n;
  }
  if (at !== records)
    throw new Error(
      `duckdb/window-columns.ts: ${at} records read of the window's ${records} (a bug: report it with the inputs).`,
    );
  return { columns: arrived, ord, sessionIds, sessionTime, models, configVersions, queryCategories };
}

/** The window's records as they arrived from DuckDB, with each one's `ord` (read order). */
export interface ArrivedRecords {
  columns: Columns;
  ord: Float64Array;
  sessionIds: string[];
  sessionTime: Float64Array;
  models: string[];
  configVersions: string[];
  queryCategories: string[];
}

/** The arrived records as the reader's columns: session by session in window order, each session's in read order. */
export function inReadOrder(arrived: ArrivedRecords): BiasRecordColumns {
  const { columns, ord, sessionIds, ...names } = arrived;
  const { sessionStart, target } = readOrder(columns.session, ord, sessionIds.length);
  const n = ord.length;
  let arrivedInOrder = true;
  for (let i = 0; i < n && arrivedInOrder; i++) arrivedInOrder = target[i] === i;
  const ordered = arrivedInOrder ? columns : permuteRecordArrays({ arrays: columns, target, length: n, records: n });
  return { length: n, ...ordered, sessionIds, sessionStart, ...names };
}

/**
 * Where each arrived record goes so that records lie session by session and, within a session, by `ord`: a counting
 * pass over sessions (stable), then the records of any session that did not arrive in `ord` order sorted by it.
 */
function readOrder(
  session: Uint32Array,
  ord: Float64Array,
  sessions: number,
): { sessionStart: Uint32Array; target: Uint32Array } {
  const n = session.length;
  const sessionStart = new Uint32Array(sessions + 1);
  for (let i = 0; i < n; i++) sessionStart[session[i]! + 1]!++;
  for (let s = 0; s < sessions; s++) sessionStart[s + 1]! += sessionStart[s]!;
  const next = sessionStart.slice(0, sessions);
  const target = new Uint32Array(n);
  const lastOrd = new Float64Array(sessions).fill(Number.NEGATIVE_INFINITY);
  let disordered: Map<number, number[]> | null = null;
  for (let i = 0; i < n; i++) {
    const s = session[i]!;
    target[i] = next[s]!++;
    if (ord[i]! < lastOrd[s]!) (disordered ??= new Map()).set(s, []);
    lastOrd[s] = ord[i]!;
  }
  if (disordered === null) return { sessionStart, target };
  for (let i = 0; i < n; i++) disordered.get(session[i]!)?.push(i);
  for (const [s, records] of disordered) {
    records.sort((a, b) => ord[a]! - ord[b]!);
    records.forEach((i, k) => (target[i] = sessionStart[s]! + k));
  }
  return { sessionStart, target };
}

type NumberColumn = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/**
 * Copies a chunk's non-null column into `target` from `at`. @duckdb/node-api 1.5.6 holds a numeric vector's values as
 * a typed array (`items`, not part of its typed API): copied whole when it is of `target`'s type — a 20 M-record window
 * took 4 s less than value by value — else value by value, as the API offers.
 */
function copyColumn(spec: { vector: Duckdb.DuckDBVector; target: NumberColumn; at: number; n: number }): void {
  const { vector, target, at, n } = spec;
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof target.constructor && (items as NumberColumn).length >= n) {
    target.set((items as NumberColumn).subarray(0, n), at);
    return;
  }
  for (let i = 0; i < n; i++) target[at + i] = Number(vector.getItem(i));
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

/** The window's columns; a window beyond this process's memory is refused with what to do. */
function allocateColumns(length: number): Columns {
  try {
    return allocateRecordArrays(length);
  } catch (error) {
    throw new BiasStoreError({
      code: 'TOO_LARGE',
      message: `Not enough memory for the window's ${length.toLocaleString('en-US')} records (41 bytes each as columns); narrow the window (--sessions, --days).`,
      cause: error,
    });
  }
}
