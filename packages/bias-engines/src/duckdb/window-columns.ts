import type * as Duckdb from '@duckdb/node-api';
import type { BiasColumns } from '@council/bias-audit';
import {
  allocateRecordArrays,
  allocateReportArrays,
  byCodeUnits,
  checkWindowNames,
  countColumnHolding,
  exactInFloat32,
  idWidth,
  recordBytes,
  scoreColumnHolding,
  sessionsWithRepeats,
} from '@council/bias-store/internal';
import type { OmittedRecordFields, RecordArrays, RecordWidths, ReportRecordArrays } from '@council/bias-store/internal';
import type { BiasRecordColumns } from '@council/bias-store';
import { noRank, BiasStoreError } from '@council/bias-store';
import { nameKinds } from './window-sql.js';

/**
 * The window's records as `streamWindowRecords` leaves them while DuckDB is open: `complete()`, called once DuckDB is
 * closed, gives the reader's columns. What needs no DuckDB waits until then, so as not to add to the memory DuckDB holds
 * while the records stream in (the peak of a report through DuckDB): each record's session index (4 bytes a record,
 * written from `sessionStart`; its array is allocated, but its pages are not touched until then) and the session ids
 * (their JSON text is parsed then).
 */
export interface StreamedWindowRecords {
  complete(): BiasRecordColumns;
}

/**
 * A report read's records (`streamWindowRecords(…, 'report')`) as they wait for DuckDB to close: `complete()` gives the
 * columns the statistics read — without `session`, `time`, `queryCategory` and `positionIsDisplayOrder`, 15 of a
 * record's 41 bytes at the widest — and those fields of the sessions with repeats, which `settleWindowRecords` needs to tell a
 * duplicate from a conflict, with the window's count of records not in display order.
 */
export interface StreamedReportRecords {
  complete(): { columns: BiasColumns; omitted: OmittedRecordFields };
}

/**
 * The window's records (`tagged` with `excluded` 0, in the sessions of `session_places`, named in `window_names`, as
 * window-sql.ts leaves them) as the reader's columns: session by session in window order, each session's records in
 * read order, repeats included, names indexed in name order. DuckDB sends them in whatever order its threads finish —
 * no sort, no copy of the records in DuckDB — and each record is written where it belongs as it arrives: a session's
 * records start where the records of the sessions before it end (`session_places` counts them), and follow in the
 * order they arrive. A session whose records arrived out of read order (`ord`: its records were read by two threads)
 * is read again afterwards, in read order. `records`: how many the window holds (window-sql.ts counted them).
 * `'report'` reads the columns the statistics read (`StreamedReportRecords`); the sessions with a repeat are then read
 * again whole, in read order, for the fields left out.
 */
export async function streamWindowRecords(
  connection: Duckdb.DuckDBConnection,
  records: number,
): Promise<StreamedWindowRecords>;
export async function streamWindowRecords(
  connection: Duckdb.DuckDBConnection,
  records: number,
  read: 'report',
): Promise<StreamedReportRecords>;
export async function streamWindowRecords(
  connection: Duckdb.DuckDBConnection,
  records: number,
  read: 'all' | 'report' = 'all',
): Promise<StreamedWindowRecords | StreamedReportRecords> {
  const streamed = await streamRecords(connection, records, read === 'report');
  if (read === 'report')
    return { complete: () => streamed.complete() as ReturnType<StreamedReportRecords['complete']> };
  return { complete: () => streamed.complete().columns as BiasRecordColumns };
}

async function streamRecords(
  connection: Duckdb.DuckDBConnection,
  records: number,
  report: boolean,
): Promise<{ complete(): { columns: BiasColumns; omitted?: OmittedRecordFields } }> {
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
  // The ids as one JSON array (node-api converts a VARCHAR value by value: 2.6 s for 1,000,000 ids, 0.9 s this way),
  // parsed once DuckDB is closed (`sessionIdsOf`): 37 MB of text for 1,000,000 ids, about twice that as strings.
  const [idsJson] = (
    await connection.runAndReadAll('SELECT to_json(list(session ORDER BY place))::VARCHAR FROM session_places')
  ).getRowsJS()[0]!;
  let sessionIds: string[] | undefined;
  const sessionIdsOf = (): string[] =>
    (sessionIds ??= idsJson === null ? [] : (JSON.parse(idsJson as string) as string[]));
  const placed = await connection.run('SELECT key, n::DOUBLE FROM session_places ORDER BY place');
  const sessions = placed.rowCount;
  const sessionTime = new Float64Array(sessions);
  const sessionStart = new Uint32Array(sessions + 1);
  for (let c = 0, s = 0; c < placed.chunkCount; c++) {
    const chunk = placed.getChunk(c);
    const n = chunk.rowCount;
    sessionTime.set(numbers(chunk.getColumnVector(0), Float64Array, n).subarray(0, n), s);
    const counts = numbers(chunk.getColumnVector(1), Float64Array, n);
    for (let k = 0; k < n; k++, s++) sessionStart[s + 1] = sessionStart[s]! + counts[k]!;
  }
  if (sessionStart[sessions] !== records)
    throw new Error(
      `duckdb/window-columns.ts: the sessions hold ${sessionStart[sessions]} records, the window ${records} (a bug: report it with the inputs).`,
    );

  // As narrow as the window allows: ids 8-bit under 256 names; positions and lengths start 8-bit and scores 32-bit, each
  // widened (a copy, once or twice) when a chunk brings a value that does not fit (`placeColumn`).
  const columns = allocateColumns(records, report, {
    ids: idWidth(Math.max(models.length, configVersions.length + 1)),
    counts: 8,
    score: 32,
  });
  // Every column is non-null (unscored is NaN, unranked noRank, no config version 0). A report read leaves out the time
  // and the query category, and reads the display-order flag only to count it; `all` reads every field, as `full` lists.
  const select = (spec: { all: boolean; sessionsJoin: string }): string => `
    SELECT p.place::UINTEGER, t.ord::DOUBLE, r.id, c.id, t.position::UINTEGER, t.len::UINTEGER, coalesce(t.score, 'NaN'::DOUBLE),
           coalesce(t.rank, ${noRank})::UINTEGER, ${spec.all ? 't.ms, ' : ''}coalesce(v.id + 1, 0)::USMALLINT, ${spec.all ? 'coalesce(q.id + 1, 0)::USMALLINT, ' : ''}
           t.pido::UTINYINT
    FROM tagged t JOIN session_places p ON p.session = t.session ${spec.sessionsJoin}
      JOIN model_ids r ON r.name = t.reviewer JOIN model_ids c ON c.name = t.candidate
      LEFT JOIN config_ids v ON v.name = t.config${spec.all ? ' LEFT JOIN category_ids q ON q.name = t.category' : ''}
    WHERE t.excluded = 0`;
  // Where each selected column goes: its vector in a chunk of `select({ all: true })` / `select({ all: false })`.
  const full = { time: 8, configVersion: 9, queryCategory: 10, positionIsDisplayOrder: 11 } as const;
  const lean = { configVersion: 8, positionIsDisplayOrder: 9 } as const;
  const common: [number, keyof RecordArrays][] = [
    [2, 'reviewer'],
    [3, 'candidate'],
    [4, 'position'],
    [5, 'responseLengthChars'],
    [6, 'score'],
    [7, 'rankPosition'],
  ];
  const slotsOf = (all: boolean): [number, keyof RecordArrays][] =>
    'time' in columns
      ? [
          ...common,
          [full.time, 'time'],
          [full.configVersion, 'configVersion'],
          [full.queryCategory, 'queryCategory'],
          [full.positionIsDisplayOrder, 'positionIsDisplayOrder'],
        ]
      : [...common, [all ? full.configVersion : lean.configVersion, 'configVersion']];
  const next = sessionStart.slice(0, sessions);
  // Per session, the `ord` of its last record to arrive: a smaller one after it puts the session out of read order.
  const lastOrd = new Float64Array(sessions).fill(Number.NEGATIVE_INFINITY);
  const disordered = new Set<number>();
  const to = new Uint32Array(2048);
  // A report read's records not in display order, counted as each record first arrives.
  let notDisplayOrder = 0;
  const placeChunk = (spec: { all: boolean; count?: boolean; omitted?: OmittedPlaces }) => {
    const slots = slotsOf(spec.all);
    return (chunk: Duckdb.DuckDBDataChunk): void => {
      const n = chunk.rowCount;
      const place = numbers(chunk.getColumnVector(0), Uint32Array, n);
      const ords = numbers(chunk.getColumnVector(1), Float64Array, n);
      const at = to.length >= n ? to : new Uint32Array(n);
      for (let k = 0; k < n; k++) {
        const s = place[k]!;
        const i = next[s]!++;
        if (i >= sessionStart[s + 1]!)
          throw new Error(
            `duckdb/window-columns.ts: more records of session ${sessionIdsOf()[s]} than the window counted (a bug: report it with the inputs).`,
          );
        at[k] = i;
        if (ords[k]! < lastOrd[s]!) disordered.add(s);
        lastOrd[s] = ords[k]!;
      }
      for (const [j, name] of slots)
        placeColumn(columns, { name, values: vectorValues(chunk.getColumnVector(j), n), at, n });
      if (spec.count === true) {
        const flags = numbers(chunk.getColumnVector(lean.positionIsDisplayOrder), Uint8Array, n);
        for (let k = 0; k < n; k++) if (flags[k] === 0) notDisplayOrder++;
      }
      const { omitted } = spec;
      if (omitted !== undefined) {
        for (let k = 0; k < n; k++) {
          const s = place[k]!;
          at[k] = omitted.sessionOffset[s]! + at[k]! - sessionStart[s]!;
        }
        scatterColumn({ vector: chunk.getColumnVector(full.time), target: omitted.time, at, n });
        scatterColumn({ vector: chunk.getColumnVector(full.queryCategory), target: omitted.queryCategory, at, n });
        const flags = omitted.positionIsDisplayOrder;
        scatterColumn({ vector: chunk.getColumnVector(full.positionIsDisplayOrder), target: flags, at, n });
      }
    };
  };
  /** Reads `again`'s records a second time, in read order, over their own slots (and `omitted`'s). */
  const readAgain = async (again: readonly number[], omitted?: OmittedPlaces): Promise<void> => {
    await placeTable(connection, again);
    for (const s of again) {
      next[s] = sessionStart[s]!;
      lastOrd[s] = Number.NEGATIVE_INFINITY;
    }
    disordered.clear();
    const all = !report || omitted !== undefined;
    await placeAll(
      await connection.stream(
        `${select({ all, sessionsJoin: 'JOIN disordered d ON d.place = p.place' })} ORDER BY 1, 2`,
      ),
      placeChunk({ all, ...(omitted === undefined ? {} : { omitted }) }),
    );
    if (disordered.size > 0)
      throw new Error(
        'duckdb/window-columns.ts: records read in ord order arrived out of it (a bug: report it with the inputs).',
      );
  };
  await placeAll(
    await connection.stream(select({ all: !report, sessionsJoin: '' })),
    placeChunk({ all: !report, count: report }),
  );
  // The sessions whose records arrived out of read order (read by two of DuckDB's threads: a few dozen of 1,000,000)
  // are read again in read order, over their own slots. Keeping every record's ord instead would cost 8 bytes a record.
  if (disordered.size > 0) await readAgain([...disordered]);
  const checkComplete = (list: Iterable<number>): void => {
    for (const s of list)
      if (next[s] !== sessionStart[s + 1])
        throw new Error(
          `duckdb/window-columns.ts: ${next[s]! - sessionStart[s]!} records read of session ${sessionIdsOf()[s]}'s ${sessionStart[s + 1]! - sessionStart[s]!} (a bug: report it with the inputs).`,
        );
  };
  checkComplete(next.keys());
  // A report read: the sessions with a repeat (same reviewer and reviewed member twice: none in a store read once) are
  // read again whole, for the fields that tell a duplicate from a conflict.
  let omitted: OmittedRecordFields | undefined;
  if (report) {
    const repeats = sessionsWithRepeats(
      { reviewer: columns.reviewer, candidate: columns.candidate, sessionStart },
      sessions,
    );
    const sessionOffset = new Int32Array(sessions).fill(-1);
    let size = 0;
    for (const s of repeats) {
      sessionOffset[s] = size;
      size += sessionStart[s + 1]! - sessionStart[s]!;
    }
    omitted = {
      sessionOffset,
      time: new Float64Array(size),
      queryCategory: new Uint16Array(size),
      positionIsDisplayOrder: new Uint8Array(size),
      positionNotDisplayOrder: notDisplayOrder,
    };
    if (repeats.length > 0) {
      await readAgain(repeats, omitted);
      checkComplete(repeats);
    }
  }
  return {
    complete: () => {
      const ids = sessionIdsOf();
      if (ids.length !== sessions)
        throw new Error(
          `duckdb/window-columns.ts: ${ids.length} session ids for ${sessions} sessions (a bug: report it with the inputs).`,
        );
      if ('session' in columns)
        for (let s = 0; s < sessions; s++) columns.session.fill(s, sessionStart[s], sessionStart[s + 1]);
      return {
        columns: {
          length: records,
          ...columns,
          sessionIds: ids,
          sessionTime,
          sessionStart,
          models,
          configVersions,
          queryCategories,
        },
        ...(omitted === undefined ? {} : { omitted }),
      };
    },
  };
}

/** Where the omitted fields of a report read's sessions with repeats go (`OmittedRecordFields`). */
type OmittedPlaces = Omit<OmittedRecordFields, 'positionNotDisplayOrder'>;

type NumberColumn = Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;
type NumberColumnType =
  Uint8ArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor | Float64ArrayConstructor;

/**
 * A chunk's non-null numeric column as a typed array of `type`. @duckdb/node-api 1.5.6 holds a numeric vector's values
 * as a typed array (`items`, not part of its typed API), used as it is when it is of that type — a 20 M-record window
 * took 4 s less than value by value — else copied value by value, as the API offers.
 */
function numbers<T extends NumberColumnType>(vector: Duckdb.DuckDBVector, type: T, n: number): InstanceType<T> {
  const items = (vector as unknown as { items?: unknown }).items;
  if (items instanceof type && items.length >= n) return items as InstanceType<T>;
  const copy = new type(n) as InstanceType<T>;
  for (let i = 0; i < n; i++) copy[i] = Number(vector.getItem(i));
  return copy;
}

/**
 * A chunk's non-null numeric column: the typed array node-api holds (see `numbers`) whatever its type, or a copy value
 * by value.
 */
function vectorValues(vector: Duckdb.DuckDBVector, n: number): ArrayLike<number> {
  const items = (vector as unknown as { items?: unknown }).items;
  if (
    ArrayBuffer.isView(items) &&
    !(items instanceof DataView) &&
    !(items instanceof BigInt64Array) &&
    !(items instanceof BigUint64Array) &&
    (items as NumberColumn).length >= n
  )
    return items as NumberColumn;
  const copy = new Float64Array(n);
  for (let i = 0; i < n; i++) copy[i] = Number(vector.getItem(i));
  return copy;
}

/**
 * Writes a chunk's `values` into the column `name` of `columns`, row `k` at `at[k]`; a position or length too large for
 * its column, or a score not exact in its 32-bit column, first widens the column (`columns` then holds the copy).
 */
function placeColumn(
  columns: RecordArrays | ReportRecordArrays,
  spec: { name: keyof RecordArrays; values: ArrayLike<number>; at: Uint32Array; n: number },
): void {
  const { name, values, at, n } = spec;
  if (name === 'position' || name === 'responseLengthChars') {
    let max = 0;
    for (let k = 0; k < n; k++) if (values[k]! > max) max = values[k]!;
    columns[name] = countColumnHolding(columns[name], max);
  } else if (name === 'score' && columns.score instanceof Float32Array) {
    let exact = true;
    for (let k = 0; k < n && exact; k++) exact = exactInFloat32(values[k]!);
    columns.score = scoreColumnHolding(columns.score, exact);
  }
  const target = (columns as RecordArrays)[name];
  for (let k = 0; k < n; k++) target[at[k]!] = values[k]!;
}

/** Writes a chunk's non-null column into `target`: its row `k` at `at[k]`. */
function scatterColumn(spec: { vector: Duckdb.DuckDBVector; target: NumberColumn; at: Uint32Array; n: number }): void {
  const { vector, target, at, n } = spec;
  const values = numbers(vector, target.constructor as NumberColumnType, n);
  for (let k = 0; k < n; k++) target[at[k]!] = values[k]!;
}

/** Hands every chunk of `result` to `place`; DuckDB computes the next chunk (on its own thread) meanwhile. */
async function placeAll(result: Duckdb.DuckDBResult, place: (chunk: Duckdb.DuckDBDataChunk) => void): Promise<void> {
  let pending = result.fetchChunk();
  for (;;) {
    const chunk = await pending;
    if (chunk === null || chunk.rowCount === 0) return;
    pending = result.fetchChunk();
    try {
      place(chunk);
    } catch (error) {
      await pending.catch(() => null);
      throw error;
    }
  }
}

/** The temporary table `disordered` (place): the places of `sessions`. */
async function placeTable(connection: Duckdb.DuckDBConnection, sessions: readonly number[]): Promise<void> {
  await connection.run('CREATE OR REPLACE TEMP TABLE disordered (place UINTEGER)');
  const appender = await connection.createAppender('disordered', 'main', 'temp');
  for (const s of sessions) {
    appender.appendUInteger(s);
    appender.endRow();
  }
  appender.closeSync();
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

/** The window's columns (`report`: those a report reads); a window beyond this process's memory is refused with what to do. */
function allocateColumns(length: number, report: boolean, widths: RecordWidths): RecordArrays | ReportRecordArrays {
  try {
    return report ? allocateReportArrays(length, widths) : allocateRecordArrays(length, widths);
  } catch (error) {
    throw new BiasStoreError({
      code: 'TOO_LARGE',
      message: `Not enough memory for the window's ${length.toLocaleString('en-US')} records (${recordBytes(widths, report)} bytes each as columns); narrow the window (--sessions, --days).`,
      cause: error,
    });
  }
}
