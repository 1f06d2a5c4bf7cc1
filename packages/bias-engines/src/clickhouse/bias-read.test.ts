import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BiasObservation, BiasSessionSummaries, BiasWindowOptions } from '@council/bias-audit';
import { aggregateBiasAudit, summarizeBiasSessions } from '@council/bias-audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BiasRecordColumns, BiasWindowExclusions, ReadBiasRecordsResult } from '@council/bias-store';
import { biasLine } from '../__fixtures__/bias-line.js';
import { expectSameSummaries } from '../__fixtures__/expect-same-summaries.js';
import { resolvedRecords } from '../__fixtures__/resolved-records.js';
import type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { syntheticModels, syntheticObservations } from '@council/bias-store/test';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { readBiasRecords } from '@council/bias-store';
import { createClickhouseBiasTable } from './create-table.js';
import { exportBiasRecordsToClickhouse } from './export-to-clickhouse.js';
import { clickhouseBiasRead } from './bias-read.js';
import { biasParquet } from '../bias-parquet.js';

const tempDir = useTempDirs();
const now = new Date('2030-01-01T00:00:00Z');
const all = { now, sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
let server: ClickhouseTestServer;

beforeAll(async () => {
  server = await startClickhouseTestServer();
}, 60_000);
afterAll(async () => await server?.stop());

/** A member of the v1 session whose name SQL must escape. */
const oddName = "a'\\\0b";

const line = (o: BiasObservation, extra: Record<string, unknown> = {}): string =>
  biasLine(o, { query_metadata: null, ...extra });

/**
 * A store of `sessions` synthetic 5-member sessions (one in ten rank-only) with, beside them: every 13th record
 * unscored but ranked; self-review in the first ten sessions and then one in four; one in seven sessions without one
 * member; one in three with its records out of reviewer order; a second config version in one session; a session of a
 * simulated member; two sessions starting at the same instant; an ADR-018 v1 session (integer schema_version, no
 * rank_position, a +01:00 time, members whose name order differs between UTF-16 and code points, met in reverse name
 * order); a repeated record (same fields, another consent level: another key); a conflicting one; lines the loader
 * and the reader skip; one record after `now`. Sessions cross the two files.
 */
function writeStore(dir: string, spec: { sessions: number; seed: number }): string[] {
  const base = syntheticObservations({ sessions: spec.sessions, seed: spec.seed }).map((o, i) =>
    i % 13 === 5 ? { ...o, score: null } : o,
  );
  const ids = [...new Set(base.map((o) => o.sessionId))];
  const observations = ids.flatMap((sessionId, s) => {
    const absent = syntheticModels[s % syntheticModels.length]!;
    const own = base.filter(
      (o) => o.sessionId === sessionId && (s % 7 !== 3 || (o.reviewer !== absent && o.candidate !== absent)),
    );
    const shuffled =
      s % 3 === 1
        ? own
            .map((o, i) => ({ o, key: (i * 7) % own.length }))
            .sort((a, b) => a.key - b.key)
            .map(({ o }) => o)
        : own;
    // Session 5 starts at the same instant as session 4 (a tie the window breaks by id).
    return s === 5
      ? shuffled.map((o) => ({ ...o, timestamp: base.find((b) => b.sessionId === ids[4])!.timestamp }))
      : shuffled;
  });
  for (const [s, sessionId] of ids.entries()) {
    if (!(s < 10 || s % 4 === 0)) continue;
    const any = observations.find((o) => o.sessionId === sessionId)!;
    for (const [m, member] of syntheticModels.entries()) {
      observations.push({
        ...any,
        reviewer: member,
        candidate: member,
        position: 4,
        responseLengthChars: 300 + 50 * m,
        score: 5 + ((s + m) % 5),
        rankPosition: 4,
      });
    }
  }
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
  const v1 = ['c\uE000', 'c\u{1F600}', oddName].flatMap((reviewer, r) =>
    ['c\uE000', 'c\u{1F600}', oddName].map((candidate, c) =>
      JSON.stringify({
        schema_version: 1,
        session_id: 'v1-session',
        timestamp: '2026-03-01T09:00:00+01:00',
        reviewer_id: reviewer,
        model_id: candidate,
        position: (c + r) % 3,
        response_length_chars: 100 * (c + 1),
        score_value: 3 + ((r * 2 + c) % 4) / 10,
      }),
    ),
  );
  const repeat = { ...(JSON.parse(lines[3]!) as Record<string, unknown>), consent_level: 2 };
  const conflict = { ...(JSON.parse(lines[7]!) as Record<string, unknown>), score_value: 1 };
  const future = line({ ...observations[0]!, sessionId: 'future-session', timestamp: '2031-01-01T00:00:00Z' });
  const bad = [
    'not json',
    '{"schema_version":"2.0.0","session_id":"x"}',
    JSON.stringify({ ...conflict, position: -1 }),
    JSON.stringify({ ...conflict, session_id: 7 }),
  ];
  const cut = Math.floor(lines.length * 0.6);
  const first = [...lines.slice(0, cut), bad[0]!, ...v1, JSON.stringify(repeat), bad[1]!, ...simulated];
  const second = [JSON.stringify(conflict), ...lines.slice(cut), bad[2]!, future, bad[3]!];
  const plain = join(dir, 'alice.jsonl');
  const gzip = join(dir, 'bob.jsonl.gz');
  writeFileSync(plain, `${first.join('\n')}\n`);
  writeFileSync(gzip, gzipSync(`${second.join('\n')}\n`));
  return [plain, gzip];
}

/** Loads `inputs` into a new table of the test server (the loader C1 wrote: ord is the read order). */
async function load(inputs: string[], table: string): Promise<void> {
  await createClickhouseBiasTable({ url: server.url, table });
  await exportBiasRecordsToClickhouse({ inputs, url: server.url, table });
}

/** The names `ids` index, in JS's string order (UTF-16 code units): what the engine's name lists must be. */
function usedNames(names: readonly string[], ...ids: Uint16Array[]): string[] {
  const used = new Set<string>();
  for (const column of ids) for (const id of column) used.add(names[id]!);
  return [...used].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The engine's columns against the reader's columns of the same records: every record with its names resolved, the
 * sessions (ids, earliest times, where each starts), names sorted as JS sorts them and only those used, each array as
 * long as the records; and the JS map of both the same to the bit.
 */
function expectSameColumns(actual: BiasRecordColumns, expected: BiasRecordColumns): BiasSessionSummaries {
  expect(resolvedRecords(actual)).toEqual(resolvedRecords(expected));
  expect(actual.length).toBe(expected.length);
  expect(actual.sessionIds).toEqual(expected.sessionIds);
  expect(actual.sessionTime).toEqual(expected.sessionTime);
  expect(actual.sessionStart).toEqual(expected.sessionStart);
  const configs = Uint16Array.from(
    expected.configVersion.filter((c) => c > 0),
    (c) => c - 1,
  );
  const categories = Uint16Array.from(
    expected.queryCategory.filter((c) => c > 0),
    (c) => c - 1,
  );
  expect(actual.models).toEqual(usedNames(expected.models, expected.reviewer, expected.candidate));
  expect(actual.configVersions).toEqual(usedNames(expected.configVersions, configs));
  expect(actual.queryCategories).toEqual(usedNames(expected.queryCategories, categories));
  for (const name of [
    'session',
    'reviewer',
    'candidate',
    'position',
    'responseLengthChars',
    'score',
    'rankPosition',
    'time',
    'configVersion',
    'queryCategory',
    'positionIsDisplayOrder',
  ] as const) {
    expect(actual[name].length, name).toBe(actual.length);
  }
  const summaries = summarizeBiasSessions(expected);
  expectSameSummaries(summarizeBiasSessions(actual), summaries);
  return summaries;
}

/** The engine against the reader over the same records: the same columns, the same counts, the same report. */
async function expectSameAsReader(spec: {
  inputs: string[];
  table: string;
  window: BiasWindowOptions;
}): Promise<{ expected: BiasSessionSummaries; read: ReadBiasRecordsResult }> {
  const read = await readBiasRecords({ parquet: biasParquet, inputs: spec.inputs, window: spec.window });
  // 37 sessions a query: a window cut to 37 sessions or fewer is read by name; 2: ranges of ids that leave out the
  // sessions before the window's oldest.
  const [actual, inPairs] = [
    await clickhouseBiasRead({
      url: server.url,
      table: spec.table,
      window: spec.window,
      sessionsPerQuery: 37,
    }),
    await clickhouseBiasRead({
      url: server.url,
      table: spec.table,
      window: spec.window,
      sessionsPerQuery: 2,
    }),
  ];
  const expected = expectSameColumns(actual.columns, read.columns);
  expectSameColumns(inPairs.columns, read.columns);
  expect({ ...inPairs, columns: null }).toEqual({ ...actual, columns: null });
  expect({ ...actual, columns: null }).toEqual({
    ...read,
    columns: null,
    // What the table cannot know: its files (the load read them), the lines the load skipped, zone-less times.
    files: [],
    lines: read.records,
    skipped: 0,
    reasons: Object.fromEntries(Object.keys(read.reasons).map((k) => [k, 0])),
    firstBadLines: [],
    foreignMajors: [],
  });
  const options = {
    window: {
      now: spec.window.now!,
      sessions: spec.window.sessions ?? Number.POSITIVE_INFINITY,
      days: spec.window.days ?? Number.POSITIVE_INFINITY,
    },
    seed: 1,
    resamples: 200,
  };
  expect(JSON.stringify(aggregateBiasAudit(actual.columns, options))).toBe(
    JSON.stringify(aggregateBiasAudit(read.columns, options)),
  );
  return { expected, read };
}

describe("the window's records read by ClickHouse", () => {
  it("are the reader's columns, with its counts and the same report (40 sessions)", async () => {
    const inputs = writeStore(tempDir(), { sessions: 40, seed: 18 });
    await load(inputs, 't40');
    const { expected, read } = await expectSameAsReader({ inputs, table: 't40', window: all });
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
  }, 120_000);

  it.each([
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
  ] as { name: string; window: BiasWindowOptions; leaves: (keyof BiasWindowExclusions)[] }[])(
    'apply the window as the reader does: $name',
    async ({ window, leaves }) => {
      const inputs = writeStore(tempDir(), { sessions: 40, seed: 18 });
      const table = `w${Math.random().toString(36).slice(2, 10)}`;
      await load(inputs, table);
      const { read } = await expectSameAsReader({ inputs, table, window });
      // The window left out what the case means it to (and the engine counted the same, above).
      for (const reason of leaves) expect(read.excluded[reason], reason).toBeGreaterThan(0);
    },
    120_000,
  );

  it("are the reader's columns over a few hundred sessions, read in several queries", async () => {
    const inputs = writeStore(tempDir(), { sessions: 300, seed: 7 });
    await load(inputs, 't300');
    const { expected } = await expectSameAsReader({ inputs, table: 't300', window: all });
    expect(expected.sessions).toHaveLength(302);
  }, 120_000);

  it('count a record loaded twice once (the reader of both copies counts the second as a duplicate)', async () => {
    const dir = tempDir();
    const [plain, gzip] = writeStore(dir, { sessions: 20, seed: 3 });
    const copy = join(dir, 'copy.jsonl');
    const firstLine = (await import('node:fs')).readFileSync(plain!, 'utf8').split('\n')[0]!;
    writeFileSync(copy, `${firstLine}\n`);
    await load([plain!, gzip!, copy], 'copies');
    // Loading again changes nothing: the same records, the same keys and ords.
    await exportBiasRecordsToClickhouse({ inputs: [plain!, gzip!, copy], url: server.url, table: 'copies' });
    const read = await readBiasRecords({ parquet: biasParquet, inputs: [plain!, gzip!, copy], window: all });
    const actual = await clickhouseBiasRead({ url: server.url, table: 'copies', window: all });
    expectSameColumns(actual.columns, read.columns);
    expect(read.repeated.duplicates).toBe(2);
    expect(actual.repeated).toEqual({ ...read.repeated, duplicates: 1 });
    expect(actual.records).toBe(read.records - 1);
  }, 120_000);

  it('read one session a query when ids order differently in UTF-8 (ClickHouse) and UTF-16 (JS)', async () => {
    const dir = tempDir();
    const base = syntheticObservations({ sessions: 4, seed: 9 });
    const first = [...new Set(base.map((o) => o.sessionId))];
    // U+1F600 is before U+E000 and U+FFFF in UTF-16, after them in UTF-8; ranges of ids are cut in UTF-8 order.
    const ids = ['s\uE000', 's\u{1F600}', 's\uFFFF', 'sa'];
    const input = join(dir, 'ids.jsonl');
    writeFileSync(
      input,
      `${base.map((o) => line({ ...o, sessionId: ids[first.indexOf(o.sessionId)]! })).join('\n')}\n`,
    );
    await load([input], 'ids');
    const read = await readBiasRecords({ parquet: biasParquet, inputs: [input], window: all });
    const actual = await clickhouseBiasRead({ url: server.url, table: 'ids', window: all, sessionsPerQuery: 1 });
    expectSameColumns(actual.columns, read.columns);
    expect([...actual.columns.sessionIds].sort()).toEqual(['sa', 's\u{1F600}', 's\uE000', 's\uFFFF']);
  }, 120_000);

  it('read a table in another database', async () => {
    const inputs = writeStore(tempDir(), { sessions: 12, seed: 5 });
    await createClickhouseBiasTable({ url: server.url, database: 'analytics' });
    await exportBiasRecordsToClickhouse({ inputs, url: server.url, database: 'analytics' });
    const read = await readBiasRecords({ parquet: biasParquet, inputs, window: all });
    const actual = await clickhouseBiasRead({ url: server.url, database: 'analytics', window: all });
    expectSameColumns(actual.columns, read.columns);
    expect(actual.columns.sessionIds).toHaveLength(14);
  }, 120_000);

  it('say clearly what is wrong with an option, a table or a server', async () => {
    const bad = (options: Partial<Parameters<typeof clickhouseBiasRead>[0]>): Promise<unknown> =>
      clickhouseBiasRead({ url: server.url, ...options });
    await expect(bad({ window: { sessions: 0 } })).rejects.toThrow(
      'clickhouseBiasRead: sessions must be a positive integer (or Infinity), got 0.',
    );
    await expect(bad({ window: { days: Number.NaN } })).rejects.toThrow('days must be a positive number');
    await expect(bad({ window: { now: new Date(Number.NaN) } })).rejects.toThrow('now is an invalid Date');
    await expect(bad({ table: 'no such; table' })).rejects.toThrow(
      /table name "no such; table" is not a plain identifier/,
    );
    await expect(bad({ table: 'missing_table' })).rejects.toThrow(
      /refused to run a query: Table default.missing_table doesn't exist.*create the table first/,
    );
    await expect(clickhouseBiasRead({ url: 'http://127.0.0.1:9/' })).rejects.toThrow(
      /Cannot reach ClickHouse at http:\/\/127.0.0.1:9/,
    );
  }, 60_000);
});
