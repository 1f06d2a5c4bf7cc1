import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BiasWindowOptions } from '@council/bias-audit';
import { summarizeBiasSessions } from '@council/bias-audit';
import { exportBiasRecords, readBiasRecords } from '@council/bias-store';
import type { BiasWindowExclusions, ReadBiasRecordsResult } from '@council/bias-store';
import { noSkippedLines } from '@council/bias-store/internal';
import { syntheticModels, syntheticObservations } from '@council/bias-store/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickhouseTestServer } from './__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from './__fixtures__/clickhouse-test-server.js';
import { engineStoreLine, oddName, writeEngineStore } from './__fixtures__/engine-store.js';
import { expectSameAsReader } from './__fixtures__/expect-clickhouse-read.js';
import { expectSameSummaries } from './__fixtures__/expect-same-summaries.js';
import { resolvedRecords } from './__fixtures__/resolved-records.js';
import { biasParquet } from './bias-parquet.js';
import { createClickhouseBiasTable } from './clickhouse/create-table.js';
import { exportBiasRecordsToClickhouse } from './clickhouse/export-to-clickhouse.js';
import { clickhouseBiasRead } from './clickhouse/bias-read.js';
import { duckdbBiasRead } from './duckdb/bias-read.js';

// One suite for every way Council reads a window of bias records: the embedded reader over JSONL (the reference),
// the embedded reader over the store's Parquet export, DuckDB over JSONL and over Parquet, and ClickHouse over a
// table loaded from the JSONL (a real server the suite starts). Each must hand over the reference's records, in its
// order, with the counts it can know. Each engine's own tests go further into its own ground (every kind of bad line,
// the SQL's escaping, the queries' batching).

const now = new Date('2030-01-01T00:00:00Z');
const all = { now, sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
let server: ClickhouseTestServer;
let inputs: string[];
let exported: string;
let table: string;
let dir = '';

beforeAll(async () => {
  server = await startClickhouseTestServer();
  // One store, export and table for the whole suite (a per-test temporary directory would go after the first test).
  dir = mkdtempSync(join(tmpdir(), 'bias-engines-conformance-'));
  inputs = writeEngineStore(dir, { sessions: 40, seed: 18 });
  exported = join(dir, 'export');
  await exportBiasRecords({ inputs, output: exported, format: 'parquet', parquet: biasParquet });
  table = 'conformance';
  await createClickhouseBiasTable({ url: server.url, table });
  await exportBiasRecordsToClickhouse({ inputs, url: server.url, table });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/**
 * The same records as the reference, session by session and in order (names resolved: two reads may number them
 * otherwise), and so the same per-session summaries to the bit.
 */
function expectSameRecords(actual: ReadBiasRecordsResult, expected: ReadBiasRecordsResult): void {
  expect(resolvedRecords(actual.columns)).toEqual(resolvedRecords(expected.columns));
  expect(actual.columns.sessionIds).toEqual(expected.columns.sessionIds);
  expectSameSummaries(summarizeBiasSessions(actual.columns), summarizeBiasSessions(expected.columns));
}

/** The counts of a window every engine knows: records, sessions, what each filter left out, repeats, the flags. */
function windowCounts(read: ReadBiasRecordsResult): Partial<ReadBiasRecordsResult> {
  const { records, sessions, excluded, repeated, positionNotDisplayOrder, simulatedRecords, warnings } = read;
  return { records, sessions, excluded, repeated, positionNotDisplayOrder, simulatedRecords, warnings };
}

const windows = [
  // Every record (one after now left out): what the ClickHouse tests' 40-session case compared.
  { name: 'every record up to now', window: all, leaves: ['future'] },
  {
    name: 'the last 37 sessions (the cut falls between two sessions that start at one instant)',
    window: { now, sessions: 37 },
    leaves: ['beyondSessions'],
  },
  {
    name: 'a time window that leaves records before it and after now',
    window: { now: new Date('2026-01-01T02:00:00Z'), days: 0.05 },
    leaves: ['future', 'beforeWindow'],
  },
  {
    name: 'a fractional day count with the last 3 sessions',
    window: { now: new Date('2026-01-01T03:30:00.001Z'), days: 0.1234567, sessions: 3 },
    leaves: ['future', 'beforeWindow', 'beyondSessions'],
  },
  { name: 'one model', window: { ...all, model: syntheticModels[1]! }, leaves: ['model'] },
  {
    name: 'a simulated model and the last session',
    window: { ...all, model: 'simulated:echo', sessions: 1 },
    leaves: ['model'],
  },
  { name: 'a config version', window: { ...all, configVersion: '0.5.0' }, leaves: ['configVersion'] },
  {
    name: 'a config version and the last 10 sessions',
    window: { ...all, configVersion: '0.4.0', sessions: 10 },
    leaves: ['configVersion', 'beyondSessions'],
  },
  { name: 'a window nothing is in', window: { now: new Date('2020-01-01T00:00:00Z') }, leaves: ['future'] },
  {
    name: 'a model whose name has a quote, a backslash and a NUL (escaped in the SQL)',
    window: { ...all, model: oddName },
    leaves: ['model'],
  },
] as { name: string; window: BiasWindowOptions; leaves: (keyof BiasWindowExclusions)[] }[];

describe('every engine reads the window the embedded reader reads', () => {
  it('holds what it claims: repeats, skips, a future record, self-review, rank-only, the v1 and simulated sessions', async () => {
    const read = await readBiasRecords({ inputs, window: all });
    const expected = summarizeBiasSessions(read.columns);
    expect(read.repeated).toMatchObject({ duplicates: 1, conflicts: 1 });
    expect(read.skipped).toBe(4);
    expect(read.excluded.future).toBe(1);
    // The store has what it claims: self-review, unscored records, rank-only reviewers, 4-member sessions, the v1 session.
    expect(expected.sessions.some((s) => s.score.columns.some((c) => c.startsWith('self:')))).toBe(true);
    expect(expected.sessions.some((s) => s.indicators.rankBlocks.length > 0)).toBe(true);
    expect(expected.sessions.some((s) => s.score.answers.length > 0 && s.indicators.scoredRecords < s.records)).toBe(
      true,
    );
    expect(expected.sessions.some((s) => s.members.length === 4)).toBe(true);
    expect(expected.sessions.some((s) => s.configVersions.length === 2)).toBe(true);
    expect(read.simulatedRecords).toBeGreaterThan(0);
    const v1 = expected.sessions.find((s) => s.session === 'v1-session')!;
    expect(v1.time).toBe('2026-03-01T08:00:00.000Z');
    expect(v1.score.answers.map((a) => a.author)).toEqual([oddName, 'c\u{1F600}', 'c\uE000']);
  }, 60_000);

  describe.each(windows)('$name', ({ window, leaves }) => {
    const reference = (): Promise<ReadBiasRecordsResult> => readBiasRecords({ inputs, window });

    it('the embedded reader over the Parquet export: the same records and window counts, nothing skipped', async () => {
      const expected = await reference();
      const actual = await readBiasRecords({ inputs: [exported], window, parquet: biasParquet });
      expectSameRecords(actual, expected);
      // The export holds the valid records only: the skipped lines stay behind, so the Parquet read skips none.
      expect(windowCounts(actual)).toEqual(windowCounts(expected));
      expect(actual.skipped).toBe(0);
    }, 60_000);

    it('DuckDB over JSONL: the same records and every count, skips with their file and line included', async () => {
      const expected = await reference();
      const actual = await duckdbBiasRead({ inputs, window });
      expectSameRecords(actual, expected);
      const { columns: _actual, ...actualCounts } = actual;
      const { columns: _expected, ...expectedCounts } = expected;
      expect(actualCounts).toEqual(expectedCounts);
    }, 60_000);

    it("DuckDB over the Parquet export: the same records, and the embedded Parquet read's every count", async () => {
      const expected = await reference();
      const actual = await duckdbBiasRead({ inputs: [exported], window });
      expectSameRecords(actual, expected);
      const { columns: _actual, ...actualCounts } = actual;
      const { columns: _embedded, ...embeddedCounts } = await readBiasRecords({
        inputs: [exported],
        window,
        parquet: biasParquet,
      });
      expect(actualCounts).toEqual(embeddedCounts);
    }, 60_000);

    it('ClickHouse over the loaded table: the same columns, the counts a table can know, the same report', async () => {
      // Read in queries of 37 sessions and of 2, each against the reader (expectSameAsReader says what it compares).
      const { read } = await expectSameAsReader({ url: server.url, inputs, table, window });
      // The window left out what the case means it to (and the engine counted the same).
      for (const reason of leaves) expect(read.excluded[reason], reason).toBeGreaterThan(0);
    }, 60_000);
  });
});

describe('a rank out of range of its reviewer ranking: every engine skips that record, with its place and reason', () => {
  // One file of 6 sessions (5 members, each ranking the 4 others 0–3: 20 lines a session), where line 7 holds the
  // second reviewer's last-ranked record of the first session with rank_position 4 instead of 3: it ranked 4 answers,
  // so 4 is no place among them. Every engine drops that record (the rest of the ranking, 0–2, stays) and skips it as
  // invalid_record, placed where it reads it: the JSONL file's line 7, the Parquet export's row 7 (the file holds the
  // same records in the same order, all of one day), the ClickHouse table's ord 6 + 1.
  let lines: string[] = [];
  let file = '';
  let without = '';
  let parquetFile = '';
  const rankTable = 'conformance_ranks';
  let detail = '';
  beforeAll(async () => {
    const observations = syntheticObservations({ sessions: 6, seed: 29 });
    const ranking = observations.slice(4, 8);
    expect(ranking.map((o) => o.rankPosition).sort()).toEqual([0, 1, 2, 3]);
    const last = ranking.findIndex((o) => o.rankPosition === 3);
    const moved = [...observations];
    [moved[4 + last], moved[6]] = [moved[6]!, moved[4 + last]!];
    lines = moved.map((o, i) => engineStoreLine(o, i === 6 ? { rank_position: 4 } : {}));
    detail = `rank_position 4 but the reviewer ranked 4 answers in session ${observations[0]!.sessionId}: ranks are 0-based, 0–3`;
    file = join(dir, 'ranks.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    without = join(dir, 'ranks-without.jsonl');
    writeFileSync(without, `${lines.filter((_, i) => i !== 6).join('\n')}\n`);
    const output = join(dir, 'ranks-export');
    await exportBiasRecords({ inputs: [file], output, format: 'parquet', parquet: biasParquet });
    const [day] = readdirSync(output).filter((name) => name.startsWith('day='));
    parquetFile = join(output, day!, 'part-0.parquet');
    await createClickhouseBiasTable({ url: server.url, table: rankTable });
    await exportBiasRecordsToClickhouse({ inputs: [file], url: server.url, table: rankTable });
  }, 120_000);

  const skippedAt = (place: string, line: number): Partial<ReadBiasRecordsResult> => ({
    skipped: 1,
    reasons: { ...noSkippedLines().reasons, invalid_record: 1 },
    firstBadLines: [{ file: place, line, reason: 'invalid_record', detail }],
  });
  const skips = ({ skipped, reasons, firstBadLines }: ReadBiasRecordsResult): Partial<ReadBiasRecordsResult> => ({
    skipped,
    reasons,
    firstBadLines,
  });

  it('the embedded reader over JSONL: line 7 skipped, and the records those of the file without it', async () => {
    const read = await readBiasRecords({ inputs: [file], window: all });
    expect(skips(read)).toEqual(skippedAt(file, 7));
    // 120 lines: 119 valid records and 1 skipped, as for any invalid line.
    expect([read.lines, read.records]).toEqual([120, 119]);
    const reference = await readBiasRecords({ inputs: [without], window: all });
    expect(reference.skipped).toBe(0);
    expectSameRecords(read, reference);
  }, 60_000);

  it('DuckDB over JSONL: every count of the embedded reader, the skip and its line included', async () => {
    const expected = await readBiasRecords({ inputs: [file], window: all });
    const actual = await duckdbBiasRead({ inputs: [file], window: all });
    expectSameRecords(actual, expected);
    const { columns: _actual, ...actualCounts } = actual;
    const { columns: _expected, ...expectedCounts } = expected;
    expect(actualCounts).toEqual(expectedCounts);
  }, 60_000);

  it('the embedded reader and DuckDB over the Parquet export: row 7 of the partition skipped', async () => {
    const reference = await readBiasRecords({ inputs: [file], window: all });
    const embedded = await readBiasRecords({ inputs: [parquetFile], window: all, parquet: biasParquet });
    expect(skips(embedded)).toEqual(skippedAt(parquetFile, 7));
    expectSameRecords(embedded, reference);
    const duckdb = await duckdbBiasRead({ inputs: [parquetFile], window: all });
    expectSameRecords(duckdb, reference);
    const { columns: _duckdb, ...duckdbCounts } = duckdb;
    const { columns: _embedded, ...embeddedCounts } = embedded;
    expect(duckdbCounts).toEqual(embeddedCounts);
  }, 60_000);

  it('ClickHouse over the loaded table: the record skipped at its ord + 1, the same records', async () => {
    const reference = await readBiasRecords({ inputs: [file], window: all });
    const actual = await clickhouseBiasRead({ url: server.url, table: rankTable, window: all });
    expect(skips(actual)).toEqual(skippedAt(`ClickHouse table ${rankTable}`, 7));
    expect(windowCounts(actual)).toEqual(windowCounts(reference));
    expect(resolvedRecords(actual.columns)).toEqual(resolvedRecords(reference.columns));
  }, 60_000);
});
