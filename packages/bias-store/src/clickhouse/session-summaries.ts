import type { BiasSessionSummary } from '@council/bias-audit';
import { BIAS_SESSION_SUMMARY_VERSION } from '@council/bias-audit';
import { BiasStoreError } from '../bias-store-error.js';
import { assertEngineSummariesFit } from '../engine-summaries-fit.js';
import type { EngineSummariesRead, EngineWindowOptions } from '../engine-summaries-read.js';
import type { BiasWindowExclusions } from '../read-bias-records.js';
import type { ClickhouseConnection } from './client.js';
import { openClickhouse } from './client.js';
import type { ClickhouseSessionRange, ClickhouseWindowSpec, clickhouseSummaryColumns } from './summary-sql.js';
import { clickhouseSummarySql, clickhouseWindowSessionsSql, clickhouseWindowTotalsSql } from './summary-sql.js';
import { clickhouseBiasTableName } from './table-sql.js';

export interface ClickhouseBiasReadOptions extends EngineWindowOptions {
  /** The server's HTTP interface, e.g. `http://127.0.0.1:8123` (a user and password go in it: `http://user:pw@host:8123`). */
  url: string;
  /** Default `council_bias_records`. */
  table?: string;
  database?: string;
  /** Most sessions summarised by one query (default 25,000; two queries run at a time): bounds what one answer holds in memory. */
  sessionsPerQuery?: number;
}

const dayMs = 86_400_000;
const shift32 = 4_294_967_296;

/** JS's string order (UTF-16 code units), which the reader and the summaries' sorted names follow. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function positiveOption(value: number | undefined, name: string, integer: boolean): number {
  if (value === undefined || value === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (typeof value !== 'number' || !(value > 0) || (integer && !Number.isInteger(value))) {
    throw new BiasStoreError({ code: 'INVALID_OPTION', message: `clickhouseBiasRead: ${name} must be a positive ${integer ? 'integer' : 'number'} (or Infinity), got ${String(value)}.` });
  }
  return value;
}

type Row = Record<(typeof clickhouseSummaryColumns)[number], unknown>;
type Num = number | string;

/**
 * `bias-report --engine clickhouse`: the window's per-session summaries of the bias records in a ClickHouse table
 * (`createClickhouseBiasTable`, loaded by `exportBiasRecordsToClickhouse`), computed on the server by the SQL of
 * `summary-sql.ts` — the same summaries, to the bit, as `summarizeBiasSessions(readBiasRecords(…).columns)` of the
 * records the table was loaded from, so `aggregateBiasAudit` gives the same report — with the reader's counts:
 * - `records` and `lines`: rows of the table after FINAL (the records loaded, a record loaded twice counted once);
 *   `files` is empty and nothing is skipped (the load skipped and reported unreadable lines);
 * - `excluded`: rows left out by the model filter, then the config-version filter, then as after `now` (`future`),
 *   then as before `maxDays` (`beforeWindow`), then the rows of sessions older than the last `maxSessions`
 *   (`beyondSessions`), each row under the first that applies, as the reader counts them;
 * - `sessions`: sessions with a row in the window, before `maxSessions`;
 * - `repeated`: in the chosen sessions, rows beyond the first (smallest `ord`, then key) of a (session, reviewer,
 *   member), as `duplicates` when every field the reader compares equals the first's, else as `conflicts`; copies of
 *   one line are one row, so a store loaded twice has no duplicates here where the reader of both copies counts them;
 * - `positionNotDisplayOrder`, `simulatedRecords`: over the summarised records, as the reader's;
 * - `timestampsWithoutZone` 0 and `foreignMajors` empty: the table holds instants, and only major-1 records;
 * - `kept`: the records summarised (the reader's `columns.length`).
 * The table's `ord` orders records as the reader reads them: it is the read order of one load, so a table loaded
 * from several loads orders each (session, reviewer, member)'s records by their ords in their own loads.
 */
export async function clickhouseBiasRead(options: ClickhouseBiasReadOptions): Promise<EngineSummariesRead> {
  const maxSessions = positiveOption(options.maxSessions, 'maxSessions', true);
  const maxDays = positiveOption(options.maxDays, 'maxDays', false);
  const now = options.now ?? new Date();
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw new BiasStoreError({ code: 'INVALID_OPTION', message: 'clickhouseBiasRead: now is an invalid Date.' });
  const perQuery = options.sessionsPerQuery ?? 25_000;
  if (!Number.isSafeInteger(perQuery) || perQuery < 1) {
    throw new BiasStoreError({ code: 'INVALID_OPTION', message: `clickhouseBiasRead: sessionsPerQuery must be a whole number ≥ 1, got ${String(perQuery)}.` });
  }
  const table = clickhouseBiasTableName(options);
  // The table's times are whole milliseconds: "at or after earliest" is "at or after its ceiling".
  const earliestMs = maxDays === Number.POSITIVE_INFINITY ? null : Math.ceil(nowMs - maxDays * dayMs);
  const spec: ClickhouseWindowSpec = {
    table,
    nowMs,
    earliestMs: earliestMs !== null && earliestMs < Number.MIN_SAFE_INTEGER ? null : earliestMs,
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.configVersion === undefined ? {} : { configVersion: options.configVersion }),
  };
  const connection = await openClickhouse({ url: options.url });
  try {
    return await readWindow({ connection, spec, maxSessions, perQuery });
  } finally {
    await connection.close();
  }
}

async function readWindow(run: { connection: ClickhouseConnection; spec: ClickhouseWindowSpec; maxSessions: number; perQuery: number }): Promise<EngineSummariesRead> {
  const { connection, spec, maxSessions, perQuery } = run;
  const [[totals], windowSessions] = await Promise.all([
    connection.query<{ records: number; model: number; config_version: number; future: number; before_window: number }>(clickhouseWindowTotalsSql(spec)),
    connection.query<{ session: string; first_ms: string; records: number }>(clickhouseWindowSessionsSql(spec)),
  ]);
  const sessions = windowSessions.map((s) => ({ session: s.session, firstMs: Number(s.first_ms), records: s.records }));
  // The last maxSessions sessions by their earliest record in the window, ties by id (as the reader).
  sessions.sort((a, b) => a.firstMs - b.firstMs || byCodeUnits(a.session, b.session));
  const dropped = maxSessions < sessions.length ? sessions.length - maxSessions : 0;
  const chosen = sessions.slice(dropped);
  const excluded: BiasWindowExclusions = {
    model: totals?.model ?? 0,
    configVersion: totals?.config_version ?? 0,
    beforeWindow: totals?.before_window ?? 0,
    future: totals?.future ?? 0,
    beyondSessions: sessions.slice(0, dropped).reduce((sum, s) => sum + s.records, 0),
  };
  const oldest = dropped > 0 ? { firstMs: chosen[0]!.firstMs, session: chosen[0]!.session } : null;
  assertEngineSummariesFit({ engine: 'clickhouse', records: chosen.reduce((sum, s) => sum + s.records, 0) });

  // Queries over ranges of session ids (as ClickHouse orders strings: by bytes), each about `perQuery` sessions.
  const ids = chosen.map((s) => Buffer.from(s.session, 'utf8')).sort((a, b) => Buffer.compare(a, b));
  const summaries: BiasSessionSummary[] = [];
  const counts = { duplicates: 0, conflicts: 0, notDisplayOrder: 0, simulated: 0 };
  const conflictSessions: { time: number; session: string }[] = [];
  // As few queries as `perQuery` allows (18.16 spends about 0.8 s of CPU analysing each), an even number of
  // them, two at a time: the server evaluates one query's per-session expressions on one thread.
  let queries = Math.ceil(ids.length / perQuery);
  if (queries > 1 && queries % 2 === 1) queries++;
  const size = Math.ceil(ids.length / Math.max(1, queries));
  const ranges: ClickhouseSessionRange[] = [];
  for (let at = 0; at < ids.length; at += size) {
    ranges.push({ oldest, from: at === 0 ? null : ids[at]!.toString('utf8'), to: at + size >= ids.length ? null : ids[at + size]!.toString('utf8') });
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ranges.length) {
      const range = ranges[next++]!;
      for (const row of await connection.query<Row>(clickhouseSummarySql({ ...spec, range }))) {
        const summary = summaryOf(row);
        summaries.push(summary);
        counts.duplicates += Number(row.duplicates);
        counts.conflicts += Number(row.conflicts);
        counts.notDisplayOrder += Number(row.not_display_order);
        counts.simulated += Number(row.simulated);
        if (Number(row.conflicts) > 0) conflictSessions.push({ time: Date.parse(summary.time), session: summary.session });
      }
    }
  };
  await Promise.all([worker(), worker()]);
  summaries.sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || byCodeUnits(a.session, b.session));
  conflictSessions.sort((a, b) => a.time - b.time || byCodeUnits(a.session, b.session));
  const warnings: string[] = [];
  if (counts.conflicts > 0) {
    const shown = conflictSessions.slice(0, 5).map((s) => s.session);
    warnings.push(
      `${counts.conflicts} record${counts.conflicts === 1 ? '' : 's'} disagree with an earlier record of the same session, reviewer and reviewed member (sessions ${shown.join(', ')}${counts.conflicts > shown.length ? ', …' : ''}): the first read was kept. Two inputs may hold different councils under one session id.`,
    );
  }
  const records = totals?.records ?? 0;
  return {
    summaries: { version: BIAS_SESSION_SUMMARY_VERSION, sessions: summaries },
    kept: summaries.reduce((sum, s) => sum + s.records, 0),
    files: [],
    lines: records,
    records,
    sessions: sessions.length,
    excluded,
    repeated: { duplicates: counts.duplicates, conflicts: counts.conflicts, conflictSessions: conflictSessions.slice(0, 5).map((s) => s.session) },
    foreignMajors: [],
    timestampsWithoutZone: 0,
    positionNotDisplayOrder: counts.notDisplayOrder,
    simulatedRecords: counts.simulated,
    warnings,
    skipped: 0,
    reasons: { invalid_json: 0, invalid_record: 0, unsupported_version: 0, invalid_utf8: 0, line_too_long: 0, torn_line: 0, corrupt_segment: 0 },
    firstBadLines: [],
  };
}

const numbers = (v: unknown): number[] => (v as Num[]).map(Number);
const orNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const blocks = (v: unknown): { group: number; values: number[]; positions: number[] }[] =>
  (v as [Num, Num[], Num[]][]).map(([group, values, positions]) => ({ group: Number(group), values: values.map(Number), positions: positions.map(Number) }));

/** One row of the map as the summary's object, in the JS map's key order (names spelt and sorted as JS sorts them). */
function summaryOf(row: Row): BiasSessionSummary {
  const names = row.reviewer_names as string[];
  const column = (code: number): string =>
    code < shift32 ? `reviewer:${names[code - 1]!}` : code < 2 * shift32 ? `position:${code - shift32}` : `self:${names[code - 2 * shift32 - 1]!}`;
  const lengthR = orNull(row.length_r);
  return {
    session: row.session as string,
    time: new Date(Number(row.time_ms)).toISOString(),
    records: Number(row.records),
    members: [...(row.members as string[])].sort(byCodeUnits),
    configVersions: [...(row.config_versions as string[])].sort(byCodeUnits),
    score: {
      columns: numbers(row.score_columns).map(column),
      records: numbers(row.score_records),
      xtx: numbers(row.score_xtx),
      xty: numbers(row.score_xty),
      yty: Number(row.score_yty),
      answers: (row.score_answers as [string, Num, Num, Num, Num[]][]).map(([author, lengthChars, count, meanScore, meanRow]) => ({
        author,
        lengthChars: Number(lengthChars),
        count: Number(count),
        meanScore: Number(meanScore),
        meanRow: meanRow.map(Number),
      })),
      pairs: (row.score_pairs as [string, string, Num, Num][]).map(([reviewer, author, position, deviation]) => ({ reviewer, author, position: Number(position), deviation: Number(deviation) })),
    },
    indicators: {
      scoredRecords: Number(row.scored_records),
      meanScore: orNull(row.mean_score),
      lengthCorrelation: lengthR === null ? null : { r: lengthR, answers: Number(row.length_answers) },
      positionSpread: orNull(row.position_spread),
      primacy: orNull(row.primacy),
      recency: orNull(row.recency),
      anchoring: orNull(row.anchoring),
      positions: (row.positions as [Num, Num | null, Num | null][]).map(([position, score, rank]) => ({ position: Number(position), score: orNull(score), rank: orNull(rank) })),
      reviewers: (row.reviewers as [string, Num, Num, Num][]).map(([reviewer, scores, sum, sumOfSquares]) => ({ reviewer, scores: Number(scores), sum: Number(sum), sumOfSquares: Number(sumOfSquares) })),
      positionedScores: Number(row.positioned_scores) === 1,
      rankOnly: Number(row.rank_only) === 1,
      scoreBlocks: blocks(row.score_blocks),
      rankBlocks: blocks(row.rank_blocks),
    },
  };
}
