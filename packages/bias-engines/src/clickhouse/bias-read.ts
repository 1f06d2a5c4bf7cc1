import { BiasStoreError } from '@council/bias-store';
import type { BadLine, EngineWindowOptions, ReadBiasRecordsResult } from '@council/bias-store';
import { orderSessionsByStart } from '@council/bias-audit';
import {
  checkWindowOptions,
  noSkippedLines,
  noWindowExclusions,
  withInvalidRecords,
} from '@council/bias-store/internal';
import type { OutOfRangeRanks } from '@council/bias-store/internal';
import type { ClickhouseConnection } from './client.js';
import { clickhouseError, openClickhouse } from './client.js';
import { byCodePoints } from './code-point-order.js';
import { readRowBinary } from './row-binary-stream.js';
import { WindowRecords } from './window-records.js';
import type { ClickhouseSessionSelection, ClickhouseWindowSpec } from './window-sql.js';
import {
  clickhouseIdListBytes,
  clickhouseRecordOrdSql,
  clickhouseSessionRecordsSql,
  clickhouseWindowSessionsSql,
  idListBytes,
} from './window-sql.js';
import { clickhouseBiasTableName } from './table-sql.js';

export interface ClickhouseBiasReadOptions extends EngineWindowOptions {
  /** The server's HTTP interface, e.g. `http://127.0.0.1:8123` (a user and password go in it: `http://user:pw@host:8123`). */
  url: string;
  /** Default `council_bias_records`. */
  table?: string;
  database?: string;
  /**
   * Sessions of the window one records query covers (default 50,000; two run at a time): bounds what the server
   * gathers at once — at 1,000,000 sessions of 20 records on 18.16.1 its peak was 1.25 GB with 100,000, 0.76 GB with
   * 50,000, in as long. A window cut by its `sessions` to this many sessions or fewer is read in one query naming them.
   */
  sessionsPerQuery?: number;
}

/**
 * `bias-report --engine clickhouse`: the window's bias records in a ClickHouse table (`createClickhouseBiasTable`,
 * loaded by `exportBiasRecordsToClickhouse`), as `readBiasRecords` returns them for the records the table was loaded
 * from. The server reads, windows and orders (window-sql.ts); Council drops repeats with the reader's own code and
 * computes every number of the report from the columns, so the report is the embedded one. The counts:
 * - `lines`: rows of the table after FINAL (the records loaded, a record loaded twice counted once); `files` is empty
 *   and no line is skipped (the load skipped and reported unreadable lines), but the window's records with a rank out
 *   of range of their reviewer's ranking (`settleWindowRecords`) are skipped as `invalid_record`, each placed at
 *   "ClickHouse table <table>" and its `ord` + 1; `records`: the rows but those;
 * - `excluded`: rows left out by the model filter, then the config-version filter, then as after `now` (`future`),
 *   then as before the window's `days` (`beforeWindow`), then the rows of sessions older than its last `sessions`
 *   (`beyondSessions`), each row under the first that applies, as the reader counts them;
 * - `sessions`: sessions with a row in the window, before the window's `sessions`;
 * - `repeated`: in the chosen sessions, rows beyond the first (smallest `ord`, then key) of a (session, reviewer,
 *   member), as `duplicates` when every field the reader compares equals the first's, else as `conflicts`; copies of
 *   one line are one row, so a store loaded twice has no duplicates here where the reader of both copies counts them;
 * - `positionNotDisplayOrder`, `simulatedRecords`: over the window's records, as the reader's;
 * - `timestampsWithoutZone` 0 and `foreignMajors` empty: the table holds instants, and only major-1 records.
 * The columns are the reader's up to the order of names: `models`, `configVersions` and `queryCategories` hold the
 * names of the window's records only, sorted as JS sorts strings. The table's `ord` orders records as the reader
 * reads them: it is the read order of one load, so a table loaded from several loads orders each (session, reviewer,
 * member)'s records by their ords in their own loads.
 */
export async function clickhouseBiasRead(options: ClickhouseBiasReadOptions): Promise<ReadBiasRecordsResult> {
  const window = checkWindowOptions(options, 'clickhouseBiasRead');
  const { nowMs, earliestMs: earliest } = window;
  const perQuery = options.sessionsPerQuery ?? 50_000;
  if (!Number.isSafeInteger(perQuery) || perQuery < 1) {
    throw new BiasStoreError({
      code: 'INVALID_OPTION',
      message: `clickhouseBiasRead: sessionsPerQuery must be a whole number ≥ 1, got ${String(perQuery)}.`,
    });
  }
  const table = clickhouseBiasTableName(options);
  // The table's times are whole milliseconds: "at or after earliest" is "at or after its ceiling".
  const earliestMs = earliest === Number.NEGATIVE_INFINITY ? null : Math.ceil(earliest);
  const spec: ClickhouseWindowSpec = {
    table,
    nowMs,
    earliestMs: earliestMs !== null && earliestMs < Number.MIN_SAFE_INTEGER ? null : earliestMs,
    ...(window.model === undefined ? {} : { model: window.model }),
    ...(window.configVersion === undefined ? {} : { configVersion: window.configVersion }),
  };
  const connection = await openClickhouse({ url: options.url });
  try {
    return await readWindow({ connection, spec, sessionLimit: window.sessions, perQuery });
  } finally {
    await connection.close();
  }
}

/** The window's sessions: id, earliest time in the window, records in the window (repeats included). */
interface WindowSessions {
  ids: string[];
  firstMs: number[];
  records: number[];
}

async function readWindow(run: {
  connection: ClickhouseConnection;
  spec: ClickhouseWindowSpec;
  /** The window's `sessions`. */
  sessionLimit: number;
  perQuery: number;
}): Promise<ReadBiasRecordsResult> {
  const { connection, spec, sessionLimit, perQuery } = run;
  const sessions: WindowSessions = { ids: [], firstMs: [], records: [] };
  let tableRecords = 0;
  const excluded = noWindowExclusions();
  await readAnswer({
    connection,
    sql: clickhouseWindowSessionsSql(spec),
    row: (cursor) => {
      const id = cursor.string();
      const firstMs = cursor.float64();
      const records = cursor.uint32();
      const model = cursor.uint32();
      const configVersion = cursor.uint32();
      const future = cursor.uint32();
      const beforeWindow = cursor.uint32();
      tableRecords += records + model + configVersion + future + beforeWindow;
      excluded.model += model;
      excluded.configVersion += configVersion;
      excluded.future += future;
      excluded.beforeWindow += beforeWindow;
      if (records === 0) return;
      sessions.ids.push(id);
      sessions.firstMs.push(firstMs);
      sessions.records.push(records);
    },
  });
  const { ids, firstMs, records } = sessions;
  // The window's last `sessions` sessions by their earliest record in the window, ties by id (as the reader).
  const order = orderSessionsByStart(Array.from(ids.keys()), firstMs, ids);
  const dropped = sessionLimit < order.length ? order.length - sessionLimit : 0;
  const chosen = order.slice(dropped);
  for (let r = 0; r < dropped; r++) excluded.beyondSessions += records[order[r]!]!;
  const window = new WindowRecords({
    sessionIds: chosen.map((s) => ids[s]!),
    sessionTime: Float64Array.from(chosen, (s) => firstMs[s]!),
    sessionRecords: chosen.map((s) => records[s]!),
  });

  // Two records queries at a time: the server gathers one while Council reads the other's answer.
  const selections = sessionSelections({ ids, firstMs, order, dropped, perQuery });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < selections.length) {
      const sessions = selections[next++]!;
      await readAnswer({
        connection,
        sql: clickhouseSessionRecordsSql({ ...spec, sessions }),
        row: (cursor) => window.addSession(cursor),
      });
    }
  };
  await Promise.all([worker(), worker()]);
  const { outOfRangeRanks, ...settled } = window.finish();
  return {
    ...settled,
    files: [],
    lines: tableRecords,
    records: tableRecords - outOfRangeRanks.count,
    sessions: order.length,
    excluded,
    foreignMajors: [],
    timestampsWithoutZone: 0,
    ...withInvalidRecords(noSkippedLines(), outOfRangeRanks, await placeRecords(connection, spec, outOfRangeRanks)),
  };
}

/**
 * The window's out-of-range ranks as the skip report places them: the table has no files, so each is named by the
 * table and placed at its `ord` + 1 — its 1-based place in the read order of the load that inserted it (the line of
 * the load's one JSONL input, blank and skipped lines aside). One small query for each (20 at most).
 */
async function placeRecords(
  connection: ClickhouseConnection,
  spec: ClickhouseWindowSpec,
  outOfRange: OutOfRangeRanks,
): Promise<BadLine[]> {
  const lines: BadLine[] = [];
  for (const record of outOfRange.first) {
    let line = 0;
    await readAnswer({
      connection,
      sql: clickhouseRecordOrdSql(spec, record),
      row: (cursor) => {
        const rows = cursor.uint32();
        const ord = cursor.float64();
        if (rows > 0) line = ord + 1;
      },
    });
    lines.push({
      file: `ClickHouse table ${spec.table}`,
      line,
      reason: 'invalid_record',
      detail: line === 0 ? `${record.detail} (its row was not found again: was a load running?)` : record.detail,
    });
  }
  return lines;
}

/**
 * The records queries. A window cut by its `sessions` to at most `perQuery` sessions names them (the last 100 sessions
 * of a large table are read alone); otherwise ranges of the window's session ids, `perQuery` sessions each (bounding
 * what the server gathers at once), each leaving out the sessions older than the window's oldest — a range without a
 * session of the window is not read.
 */
function sessionSelections(window: {
  ids: readonly string[];
  firstMs: readonly number[];
  order: readonly number[];
  dropped: number;
  perQuery: number;
}): ClickhouseSessionSelection[] {
  const { ids, firstMs, order, dropped, perQuery } = window;
  if (dropped > 0 && order.length - dropped <= perQuery) {
    const names = order.slice(dropped).map((s) => ids[s]!);
    if (idListBytes(names) <= clickhouseIdListBytes) return [{ ids: names }];
  }
  const oldest = dropped > 0 ? { firstMs: firstMs[order[dropped]!]!, session: ids[order[dropped]!]! } : null;
  const chosen = new Uint8Array(ids.length);
  for (let r = dropped; r < order.length; r++) chosen[order[r]!] = 1;
  // In ClickHouse's order of strings (UTF-8 bytes).
  const byBytes = Array.from(order).sort((a, b) => byCodePoints(ids[a]!, ids[b]!));
  const selections: ClickhouseSessionSelection[] = [];
  for (let at = 0; at < byBytes.length; at += perQuery) {
    const end = Math.min(at + perQuery, byBytes.length);
    let any = false;
    for (let i = at; i < end && !any; i++) any = chosen[byBytes[i]!] === 1;
    if (any)
      selections.push({
        from: at === 0 ? null : ids[byBytes[at]!]!,
        to: end === byBytes.length ? null : ids[byBytes[end]!]!,
        oldest,
      });
  }
  return selections;
}

/** Streams a RowBinary answer through `row`; an error the server wrote into the answer becomes the server's error. */
async function readAnswer(options: {
  connection: ClickhouseConnection;
  sql: string;
  row: Parameters<typeof readRowBinary>[1];
}): Promise<void> {
  const { connection, sql, row } = options;
  try {
    await readRowBinary(connection.stream(sql), row);
  } catch (error) {
    if (error instanceof BiasStoreError) throw error;
    const serverText = (error as { serverText?: unknown }).serverText;
    if (typeof serverText === 'string')
      throw clickhouseError({ url: connection.url, action: 'run a query', cause: new Error(serverText) });
    throw clickhouseError({ url: connection.url, action: 'read an answer', cause: error });
  }
}
