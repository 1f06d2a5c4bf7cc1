import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BiasObservation, BiasWindowOptions } from '@council/bias-audit';
import { summarizeBiasSessions } from '@council/bias-audit';
import { exportBiasRecords, readBiasRecords } from '@council/bias-store';
import type { ReadBiasRecordsResult } from '@council/bias-store';
import { syntheticModels, syntheticObservations } from '@council/bias-store/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { biasLine } from './__fixtures__/bias-line.js';
import type { ClickhouseTestServer } from './__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from './__fixtures__/clickhouse-test-server.js';
import { expectSameSummaries } from './__fixtures__/expect-same-summaries.js';
import { resolvedRecords } from './__fixtures__/resolved-records.js';
import { biasParquet } from './bias-parquet.js';
import { clickhouseBiasRead } from './clickhouse/bias-read.js';
import { createClickhouseBiasTable } from './clickhouse/create-table.js';
import { exportBiasRecordsToClickhouse } from './clickhouse/export-to-clickhouse.js';
import { duckdbBiasRead } from './duckdb/bias-read.js';

// One suite for every way Council reads a window of bias records: the embedded reader over JSONL (the reference),
// the embedded reader over the store's Parquet export, DuckDB over JSONL and over Parquet, and ClickHouse over a
// table loaded from the JSONL (a real server the suite starts). Each must hand over the reference's records, in its
// order, with the counts it can know. Each engine's own tests go further into its own ground (every kind of bad line,
// the SQL's escaping, the queries' batching).

const now = new Date('2030-01-01T00:00:00Z');
let server: ClickhouseTestServer;
let inputs: string[];
let exported: string;
let table: string;
let dir = '';

beforeAll(async () => {
  server = await startClickhouseTestServer();
  // One store, export and table for the whole suite (a per-test temporary directory would go after the first test).
  dir = mkdtempSync(join(tmpdir(), 'bias-engines-conformance-'));
  inputs = writeStore(dir);
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
 * 30 synthetic 5-member sessions, an hour apart from 1 January 2026, over a JSONL file and a gzipped one (sessions
 * cross the two), with beside them: a second config version in one session, a simulated member's session, an ADR-018
 * v1 session (integer schema_version, no rank_position, a +01:00 time), a repeated record, a conflicting one, a record
 * after `now`, and three lines every reader skips (not JSON, a later major, a negative position).
 */
function writeStore(dir: string): string[] {
  const observations = syntheticObservations({
    sessions: 30,
    seed: 28,
    start: '2026-01-01T00:00:00Z',
    minutesApart: 60,
  });
  const ids = [...new Set(observations.map((o) => o.sessionId))];
  const line = (o: BiasObservation, extra: Record<string, unknown> = {}): string => biasLine(o, extra);
  const lines = observations.map((o) =>
    line(o, o.sessionId === ids[3] && o.position % 2 === 0 ? { council_config_version: '0.5.0' } : {}),
  );
  const simulated = observations
    .filter((o) => o.sessionId === ids[6])
    .map((o) =>
      line({
        ...o,
        sessionId: 'simulated-session',
        reviewer: o.reviewer === syntheticModels[0] ? 'simulated:echo' : o.reviewer,
        candidate: o.candidate === syntheticModels[0] ? 'simulated:echo' : o.candidate,
      }),
    );
  const v1 = ['v1-a', 'v1-b'].flatMap((reviewer, r) =>
    ['v1-a', 'v1-b'].map((candidate, c) =>
      JSON.stringify({
        schema_version: 1,
        session_id: 'v1-session',
        timestamp: '2026-01-01T09:30:00+01:00',
        reviewer_id: reviewer,
        model_id: candidate,
        position: (c + r) % 2,
        response_length_chars: 100 * (c + 1),
        score_value: 3 + r + c / 10,
      }),
    ),
  );
  // A repeat in the reader's fields under another consent level: another record key, so the table holds both rows too.
  const repeat = { ...(JSON.parse(lines[3]!) as Record<string, unknown>), consent_level: 2 };
  const conflict = { ...(JSON.parse(lines[7]!) as Record<string, unknown>), score_value: 1 };
  const future = line({ ...observations[0]!, sessionId: 'future-session', timestamp: '2031-01-01T00:00:00Z' });
  const bad = [
    'not json',
    '{"schema_version":"2.0.0","session_id":"x"}',
    JSON.stringify({ ...conflict, position: -1 }),
  ];
  const cut = Math.floor(lines.length * 0.6);
  const first = [...lines.slice(0, cut), bad[0]!, ...v1, JSON.stringify(repeat), bad[1]!, ...simulated];
  const second = [JSON.stringify(conflict), ...lines.slice(cut), bad[2]!, future];
  const plain = join(dir, 'alice.jsonl');
  const gzip = join(dir, 'bob.jsonl.gz');
  writeFileSync(plain, `${first.join('\n')}\n`);
  writeFileSync(gzip, gzipSync(`${second.join('\n')}\n`));
  return [plain, gzip];
}

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

const windows: { name: string; window: BiasWindowOptions }[] = [
  { name: 'every record up to now', window: { now } },
  { name: 'the last 7 sessions', window: { now, sessions: 7 } },
  {
    name: 'the last half day before a now that cuts records off',
    window: { now: new Date('2026-01-01T20:00:00Z'), days: 0.5 },
  },
  {
    name: 'a fractional day count with the last 3 sessions',
    window: { now: new Date('2026-01-01T10:30:00.001Z'), days: 0.1234567, sessions: 3 },
  },
  { name: 'one model', window: { now, model: syntheticModels[1]! } },
  { name: 'a simulated model and the last session', window: { now, model: 'simulated:echo', sessions: 1 } },
  { name: 'a config version', window: { now, configVersion: '0.5.0' } },
  { name: 'a window nothing is in', window: { now: new Date('2020-01-01T00:00:00Z') } },
];

describe('every engine reads the window the embedded reader reads', () => {
  it('holds what it claims: repeats, skips, a future record, the v1 and simulated sessions', async () => {
    const read = await readBiasRecords({ inputs, window: { now } });
    // Counted by hand from writeStore: one duplicate (lines[3] again, at consent level 2) and one conflict (lines[7] with score 1).
    expect(read.repeated).toMatchObject({ duplicates: 1, conflicts: 1 });
    expect(read.skipped).toBe(3);
    expect(read.reasons).toMatchObject({ invalid_json: 1, unsupported_version: 1, invalid_record: 1 });
    expect(read.excluded.future).toBe(1);
    // 30 synthetic sessions, the simulated one and the v1 one.
    expect(read.sessions).toBe(32);
    // The v1 session's four records: no rank_position under major 1, so their positions may be ranks.
    expect(read.positionNotDisplayOrder).toBe(4);
    expect(read.simulatedRecords).toBeGreaterThan(0);
  }, 60_000);

  describe.each(windows)('$name', ({ window }) => {
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

    it('ClickHouse over the loaded table: the same records, and the counts a table can know', async () => {
      const expected = await reference();
      const actual = await clickhouseBiasRead({ url: server.url, table, window });
      expectSameRecords(actual, expected);
      const { columns: _actual, ...actualCounts } = actual;
      const { columns: _expected, ...expectedCounts } = expected;
      expect(actualCounts).toEqual({
        ...expectedCounts,
        // What the table cannot know: its files (the load read them) and the lines the load skipped.
        files: [],
        lines: expected.records,
        skipped: 0,
        reasons: Object.fromEntries(Object.keys(expected.reasons).map((k) => [k, 0])),
        firstBadLines: [],
        foreignMajors: [],
      });
    }, 60_000);
  });
});
