import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBiasRecords } from '@council/bias-store';
import { syntheticObservations } from '@council/bias-store/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { engineStoreLine, writeEngineStore } from '../__fixtures__/engine-store.js';
import { expectSameAsReader } from '../__fixtures__/expect-clickhouse-read.js';
import { expectSameColumns } from '../__fixtures__/expect-same-columns.js';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { biasParquet } from '../bias-parquet.js';
import { clickhouseBiasRead } from './bias-read.js';
import { createClickhouseBiasTable } from './create-table.js';
import { exportBiasRecordsToClickhouse } from './export-to-clickhouse.js';

// The window against the reader over the rich store (every window, all sessions) is in ../engine-conformance.test.ts,
// with every other engine; here, what is ClickHouse's own: many queries, loading twice, id order, databases, errors.
const tempDir = useTempDirs();
const now = new Date('2030-01-01T00:00:00Z');
const all = { now, sessions: Number.POSITIVE_INFINITY, days: Number.POSITIVE_INFINITY };
let server: ClickhouseTestServer;

beforeAll(async () => {
  server = await startClickhouseTestServer();
}, 60_000);
afterAll(async () => await server?.stop());

/** Loads `inputs` into a new table of the test server (the loader C1 wrote: ord is the read order). */
async function load(inputs: string[], table: string): Promise<void> {
  await createClickhouseBiasTable({ url: server.url, table });
  await exportBiasRecordsToClickhouse({ inputs, url: server.url, table });
}

describe("the window's records read by ClickHouse", () => {
  it("are the reader's columns over a few hundred sessions, read in several queries", async () => {
    const inputs = writeEngineStore(tempDir(), { sessions: 300, seed: 7 });
    await load(inputs, 't300');
    const { expected } = await expectSameAsReader({ url: server.url, inputs, table: 't300', window: all });
    expect(expected.sessions).toHaveLength(302);
  }, 120_000);

  it('count a record loaded twice once (the reader of both copies counts the second as a duplicate)', async () => {
    const dir = tempDir();
    const [plain, gzip] = writeEngineStore(dir, { sessions: 20, seed: 3 });
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
      `${base.map((o) => engineStoreLine({ ...o, sessionId: ids[first.indexOf(o.sessionId)]! })).join('\n')}\n`,
    );
    await load([input], 'ids');
    const read = await readBiasRecords({ parquet: biasParquet, inputs: [input], window: all });
    const actual = await clickhouseBiasRead({ url: server.url, table: 'ids', window: all, sessionsPerQuery: 1 });
    expectSameColumns(actual.columns, read.columns);
    expect([...actual.columns.sessionIds].sort()).toEqual(['sa', 's\u{1F600}', 's\uE000', 's\uFFFF']);
  }, 120_000);

  it('read a table in another database', async () => {
    const inputs = writeEngineStore(tempDir(), { sessions: 12, seed: 5 });
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
