import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForChildren } from '../__fixtures__/child-bundle.js';
import type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { biasParquetColumns, biasParquetSchema } from '../bias-parquet-schema.js';
import { exportBiasRecords } from '@council/bias-store';
import { openClickhouse } from './client.js';
import { createClickhouseBiasTable } from './create-table.js';
import { exportBiasRecordsToClickhouse } from './export-to-clickhouse.js';
import { biasParquet } from '../bias-parquet.js';

const tempDir = useTempDirs();
let server: ClickhouseTestServer;
beforeAll(async () => {
  server = await startClickhouseTestServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function query<Row = Record<string, unknown>>(sql: string): Promise<Row[]> {
  const ch = await openClickhouse({ url: server.url });
  try {
    return await ch.query<Row>(sql);
  } finally {
    await ch.close();
  }
}

async function command(sql: string): Promise<void> {
  const ch = await openClickhouse({ url: server.url });
  try {
    await ch.command(sql);
  } finally {
    await ch.close();
  }
}

let tables = 0;
/** A fresh bias-records table for one test. */
async function freshTable(): Promise<string> {
  const table = `bias_${++tables}`;
  await createClickhouseBiasTable({ url: server.url, table });
  return table;
}

/** One record as ADR-018 v1.1 writes it, any field overridable (undefined drops the key). */
function raw(fields: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {
    schema_version: '1.1.0',
    session_id: 's1',
    timestamp: '2026-11-01T10:00:00.000Z',
    consent_level: 1,
    query_metadata: { category: 'coding', token_count_bucket: '0-100', language: 'en' },
    reviewer_id: 'r/a',
    model_id: 'm/b',
    position: 0,
    response_length_chars: 120,
    score_value: 7,
    score_scale: '1-10',
    council_config_version: '1.0.0',
    query_hash: null,
    rank_position: 0,
    ...fields,
  };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
}

/** A record of the fixture: its line's fields, and its instant worked out by hand. */
interface Fixture {
  fields: Record<string, unknown>;
  ms: number;
}

const a: Fixture = { fields: raw({ score_value: 7, rank_position: 1 }), ms: Date.UTC(2026, 10, 1, 10) };
/**
 * The store, in file order: a conflict (same session, reviewer and member as `a`, another score), an ADR-018 v1
 * record, a +02:00 time, a zone-less time, null query metadata and consent, a length of 4,000,000,000, an exact
 * repeat of `a` after the conflict, a score that is not a short decimal, non-ASCII ids, metadata with null fields.
 */
const storeRecords: (Fixture | string)[] = [
  a,
  { fields: raw({ model_id: 'm/c', position: 1, score_value: null, rank_position: 0 }), ms: Date.UTC(2026, 10, 1, 10) },
  { fields: raw({ score_value: 8, rank_position: 1 }), ms: Date.UTC(2026, 10, 1, 10) },
  'not json',
  {
    fields: raw({
      schema_version: 1,
      session_id: 's2',
      timestamp: '2026-11-01T23:30:00Z',
      consent_level: undefined,
      query_metadata: undefined,
      rank_position: undefined,
      score_value: 4.5,
    }),
    ms: Date.UTC(2026, 10, 1, 23, 30),
  },
  // 00:10 at +02:00 is 22:10 UTC the day before.
  {
    fields: raw({ session_id: 's3', timestamp: '2026-11-02T00:10:00+02:00', score_value: 9 }),
    ms: Date.UTC(2026, 10, 1, 22, 10),
  },
  {
    fields: raw({
      session_id: 's4',
      timestamp: '2026-11-02T08:00:00',
      reviewer_id: 'r/c',
      position: 2,
      score_value: 3,
      query_metadata: null,
      consent_level: null,
    }),
    ms: Date.UTC(2026, 10, 2, 8),
  },
  {
    fields: raw({
      session_id: 's4',
      timestamp: '2026-11-02T08:00:00.000Z',
      reviewer_id: 'r/d',
      position: 3,
      response_length_chars: 4_000_000_000,
      consent_level: 4,
      query_hash: '0123456789abcdef',
    }),
    ms: Date.UTC(2026, 10, 2, 8),
  },
  a,
  {
    fields: raw({
      session_id: 'sé/ß🙂',
      timestamp: '2026-11-03T12:00:00.250Z',
      reviewer_id: 'r/é',
      score_value: 0.1 + 0.2,
      score_scale: null,
      council_config_version: null,
    }),
    ms: Date.UTC(2026, 10, 3, 12, 0, 0, 250),
  },
  {
    fields: raw({
      session_id: 's5',
      timestamp: '2026-11-03T12:00:00.250Z',
      query_metadata: { category: null, token_count_bucket: '0-100', language: null },
      score_value: 1e-300,
    }),
    ms: Date.UTC(2026, 10, 3, 12, 0, 0, 250),
  },
];
const tornLine = '{"schema_version":"1.1.0","sess';
const gzRecords: Fixture[] = [
  {
    fields: raw({ session_id: 's6', timestamp: '2026-11-04T09:00:00.000Z', reviewer_id: 'r/x' }),
    ms: Date.UTC(2026, 10, 4, 9),
  },
  {
    fields: raw({ session_id: 's6', timestamp: '2026-11-04T09:00:00.000Z', reviewer_id: 'r/y', score_value: 2 }),
    ms: Date.UTC(2026, 10, 4, 9),
  },
];

function writeFixture(dir: string): string[] {
  const store = join(dir, 'bias_metrics.jsonl');
  const lines = storeRecords.map((r) => (typeof r === 'string' ? r : JSON.stringify(r.fields)));
  writeFileSync(store, `${lines.join('\n')}\n${tornLine}`);
  const gz = join(dir, 'older.jsonl.gz');
  writeFileSync(gz, gzipSync(`${gzRecords.map((r) => JSON.stringify(r.fields)).join('\n')}\n`));
  return [store, gz];
}

/** The canonical compact line, key order and absent rank_position of an old record as the design documents fix them. */
function canonicalLine(f: Record<string, unknown>): string {
  const meta = f.query_metadata as Record<string, unknown> | null | undefined;
  const line: Record<string, unknown> = {
    schema_version: f.schema_version,
    session_id: f.session_id,
    timestamp: f.timestamp,
    consent_level: f.consent_level ?? null,
    query_metadata:
      meta === null || meta === undefined
        ? null
        : {
            category: meta.category ?? null,
            token_count_bucket: meta.token_count_bucket ?? null,
            language: meta.language ?? null,
          },
    reviewer_id: f.reviewer_id,
    model_id: f.model_id,
    position: f.position,
    response_length_chars: f.response_length_chars,
    score_value: f.score_value ?? null,
    score_scale: f.score_scale ?? null,
    council_config_version: f.council_config_version ?? null,
    query_hash: f.query_hash ?? null,
  };
  if ('rank_position' in f) line.rank_position = f.rank_position;
  return JSON.stringify(line);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The row a record should become, as JSONEachRow reads it back (64-bit integers as strings). */
function expectedRow(record: Fixture, ord: number): Record<string, unknown> {
  const f = record.fields;
  const meta = f.query_metadata as Record<string, unknown> | null | undefined;
  return {
    record_key: sha256(canonicalLine(f)),
    ord: String(ord),
    schema_version: String(f.schema_version),
    session_id: f.session_id,
    timestamp_ms: String(record.ms),
    consent_level: f.consent_level ?? null,
    query_category: meta?.category ?? null,
    query_token_count_bucket: meta?.token_count_bucket ?? null,
    query_language: meta?.language ?? null,
    reviewer_id: f.reviewer_id,
    model_id: f.model_id,
    position: f.position,
    response_length_chars: f.response_length_chars,
    score_value: f.score_value ?? null,
    score_scale: f.score_scale ?? null,
    council_config_version: f.council_config_version ?? null,
    query_hash: f.query_hash ?? null,
    rank_position: f.rank_position ?? null,
    position_is_display_order: 'rank_position' in f ? 1 : 0,
  };
}

/** Valid records in read order (store, then the gzip file) with their ord; the repeat of `a` (ord 7) is not a row. */
function expectedRows(): Record<string, unknown>[] {
  const valid = [...storeRecords.filter((r): r is Fixture => typeof r !== 'string'), ...gzRecords];
  return valid.map((r, ord) => expectedRow(r, ord)).filter((_, ord) => ord !== 7);
}

const rowsOf = async (table: string): Promise<Record<string, unknown>[]> =>
  await query(`SELECT * FROM ${table} FINAL ORDER BY ord`);

describe('exportBiasRecordsToClickhouse', () => {
  it('loads every valid record, each column as the record has it, and reports the lines it skipped', async () => {
    const dir = tempDir();
    const inputs = writeFixture(dir);
    const table = await freshTable();
    const result = await exportBiasRecordsToClickhouse({ inputs, url: server.url, table });
    expect(result).toMatchObject({
      url: server.url,
      table,
      records: 12,
      inserted: 11,
      duplicates: 1,
      batches: 1,
      timestampsWithoutZone: 1,
      skipped: 2,
    });
    expect(result.files).toEqual([
      { path: inputs[0], lines: 12 },
      { path: inputs[1], lines: 2 },
    ]);
    expect(result.firstBadLines.map((b) => [b.file, b.line, b.reason])).toEqual([
      [inputs[0], 4, 'invalid_json'],
      [inputs[0], 12, 'torn_line'],
    ]);
    const rows = await rowsOf(table);
    expect(rows).toEqual(expectedRows());
    // Hand-checked values: the +02:00 time, the 4,000,000,000 length, the double, the repeat of a kept with a's ord.
    expect(rows.find((r) => r.session_id === 's3')!.timestamp_ms).toBe('1793571000000');
    expect(rows.find((r) => r.reviewer_id === 'r/d')!.response_length_chars).toBe(4_000_000_000);
    expect(rows.find((r) => r.session_id === 'sé/ß🙂')!.score_value).toBe(0.30000000000000004);
    // The conflicting pair is two rows; the repeat of a collapses into a's row with a's ord (0), not its own (7).
    expect(
      rows
        .filter((r) => r.session_id === 's1' && r.reviewer_id === 'r/a' && r.model_id === 'm/b')
        .map((r) => [r.ord, r.score_value]),
    ).toEqual([
      ['0', 7],
      ['2', 8],
    ]);
  });

  it('keys each record by the SHA-256 of the line council store export --format jsonl writes for it', async () => {
    const dir = tempDir();
    const inputs = writeFixture(dir);
    const table = await freshTable();
    await exportBiasRecordsToClickhouse({ inputs, url: server.url, table });
    const out = join(dir, 'jsonl-export');
    await exportBiasRecords({ parquet: biasParquet, inputs, output: out, format: 'jsonl' });
    const exported = readdirSync(out)
      .filter((d) => d.startsWith('day='))
      .flatMap((d) =>
        readFileSync(join(out, d, 'part-0.jsonl'), 'utf8')
          .trimEnd()
          .split('\n'),
      );
    const keys = await query<{ record_key: string }>(`SELECT record_key FROM ${table} FINAL`);
    expect(new Set(keys.map((k) => k.record_key))).toEqual(new Set(exported.map(sha256)));
  });

  it('leaves the same rows when the same records are loaded again, and when loaded in small batches', async () => {
    const dir = tempDir();
    const inputs = writeFixture(dir);
    const table = await freshTable();
    await exportBiasRecordsToClickhouse({ inputs, url: server.url, table });
    const again = await exportBiasRecordsToClickhouse({ inputs, url: server.url, table, batchRows: 2 });
    // 11 rows sent in batches of 2: 6 INSERTs.
    expect(again).toMatchObject({ records: 12, inserted: 11, batches: 6 });
    expect(await rowsOf(table)).toEqual(expectedRows());
    await command(`OPTIMIZE TABLE ${table} FINAL`);
    expect(await query(`SELECT count() AS n FROM ${table}`)).toEqual([{ n: '11' }]);

    const batched = await freshTable();
    expect(
      await exportBiasRecordsToClickhouse({ inputs, url: server.url, table: batched, batchRows: 3 }),
    ).toMatchObject({ inserted: 11, batches: 4 });
    expect(await rowsOf(batched)).toEqual(expectedRows());
  });

  it('loads a Parquet export as the records it holds (the instant as UTC, so a +02:00 or zone-less record gets another key)', async () => {
    const dir = tempDir();
    const inputs = writeFixture(dir);
    const out = join(dir, 'parquet-export');
    await exportBiasRecords({ parquet: biasParquet, inputs, output: out, format: 'parquet' });
    const table = await freshTable();
    const result = await exportBiasRecordsToClickhouse({ inputs: [out], url: server.url, table });
    expect(result).toMatchObject({ records: 12, inserted: 11, duplicates: 1, skipped: 0 });
    const utc: Record<string, string> = {
      s3: '2026-11-01T22:10:00.000Z',
      s2: '2026-11-01T23:30:00.000Z',
      s4: '2026-11-02T08:00:00.000Z',
    };
    const expected = expectedRows().map((row) => {
      const source = [...storeRecords, ...gzRecords].find(
        (r): r is Fixture => typeof r !== 'string' && sha256(canonicalLine(r.fields)) === row.record_key,
      )!;
      const timestamp = utc[row.session_id as string] ?? (source.fields.timestamp as string);
      return { ...row, ord: 'any', record_key: sha256(canonicalLine({ ...source.fields, timestamp })) };
    });
    const rows = (await rowsOf(table)).map((r) => ({ ...r, ord: 'any' }));
    const byKey = (x: Record<string, unknown>, y: Record<string, unknown>): number =>
      String(x.record_key).localeCompare(String(y.record_key));
    expect(rows.sort(byKey)).toEqual(expected.sort(byKey));
  });

  it("skips a Parquet file's rows that are no bias records, with their row numbers, and refuses a Parquet file of other columns", async () => {
    const dir = tempDir();
    const file = join(dir, 'rows.parquet');
    const rows = [
      ['1.1.0', 's1', 1_700_000_000_000, 'r', 'm', 0, 10, 5, 0, true],
      ['2.0.0', 's2', 1_700_000_000_000, 'r', 'm', 0, 10, 5, 0, true],
      ['1.1.0', '', 1_700_000_000_000, 'r', 'm', 0, 10, 5, 0, true],
      ['1.1.0', 's3', 1_700_000_000_000, 'r', 'm', 4_294_967_295, 10, 5, 0, true],
      ['1.1.0', 's4', 1_700_000_000_000, 'r', 'm', 1, 10, Number.NaN, 0, true],
    ];
    const pick = [
      'schema_version',
      'session_id',
      'timestamp',
      'reviewer_id',
      'model_id',
      'position',
      'response_length_chars',
      'score_value',
      'rank_position',
      'position_is_display_order',
    ];
    const columnData = biasParquetColumns.map((c) => ({
      name: c.name,
      data: rows.map((r) => (pick.includes(c.name) ? r[pick.indexOf(c.name)] : null)),
    }));
    parquetWriteFile({ filename: file, columnData, schema: biasParquetSchema() });
    const table = await freshTable();
    const result = await exportBiasRecordsToClickhouse({ inputs: [file], url: server.url, table });
    expect(result).toMatchObject({ records: 1, inserted: 1, skipped: 4, files: [{ path: file, lines: 5 }] });
    expect(result.reasons).toMatchObject({ unsupported_version: 1, invalid_record: 3 });
    expect(result.firstBadLines.map((b) => [b.file, b.line])).toEqual([2, 3, 4, 5].map((line) => [file, line]));
    // 1,700,000,000,000 ms is 2023-11-14T22:13:20.000Z; no query fields, so no query metadata.
    const line =
      '{"schema_version":"1.1.0","session_id":"s1","timestamp":"2023-11-14T22:13:20.000Z","consent_level":null,"query_metadata":null,"reviewer_id":"r","model_id":"m","position":0,"response_length_chars":10,"score_value":5,"score_scale":null,"council_config_version":null,"query_hash":null,"rank_position":0}';
    expect(await query(`SELECT record_key, timestamp_ms, position_is_display_order FROM ${table} FINAL`)).toEqual([
      { record_key: sha256(line), timestamp_ms: '1700000000000', position_is_display_order: 1 },
    ]);

    const other = join(dir, 'other.parquet');
    parquetWriteFile({ filename: other, columnData: [{ name: 'session_id', data: ['a'], type: 'STRING' }] });
    await expect(exportBiasRecordsToClickhouse({ inputs: [other], url: server.url, table })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: `${other} is a Parquet file but not an export of bias records: it has no column schema_version. Give the Parquet files council store export writes (or their directory).`,
    });
  });

  it('after a load killed midway holds whole batches only, and a second run completes it without duplicates', async () => {
    const dir = tempDir();
    const store = join(dir, 'big.jsonl');
    const lines: string[] = [];
    for (let s = 0; s < 6000; s++)
      for (let r = 0; r < 5; r++)
        lines.push(
          JSON.stringify(
            raw({
              session_id: `s${s}`,
              reviewer_id: `r${r}`,
              model_id: `m${(r + 1) % 5}`,
              score_value: (s * 7 + r) % 10,
            }),
          ),
        );
    writeFileSync(store, `${lines.join('\n')}\n`);
    const table = await freshTable();
    // The loader's module alone, not the package's index (which would bundle the DuckDB engine too).
    const childDir = await bundleForChildren(
      {
        // @clickhouse/client is CommonJS: an ES bundle of it calls require (for node:zlib…), which the apps' bundles also define.
        'load.mjs': [
          "import { createRequire } from 'node:module';",
          'globalThis.require = createRequire(import.meta.url);',
          "const { exportBiasRecordsToClickhouse } = await import('./bias-store.mjs');",
          'await exportBiasRecordsToClickhouse({ inputs: [process.argv[2]], url: process.argv[3], table: process.argv[4], batchRows: 500 });',
        ].join('\n'),
      },
      { entry: fileURLToPath(new URL('./export-to-clickhouse.ts', import.meta.url)) },
    );
    const child = spawn(process.execPath, [join(childDir, 'load.mjs'), store, server.url, table], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const count = async (): Promise<number> =>
      Number((await query<{ n: string }>(`SELECT count() AS n FROM ${table}`))[0]!.n);
    const deadline = Date.now() + 60_000;
    while ((await count()) < 2000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGKILL');
    await exited;
    const left = await count();
    expect(left).toBeGreaterThanOrEqual(2000);
    expect(left).toBeLessThan(30_000);
    expect(left % 500).toBe(0);

    const rerun = await exportBiasRecordsToClickhouse({ inputs: [store], url: server.url, table, batchRows: 500 });
    expect(rerun).toMatchObject({ records: 30_000, inserted: 30_000, batches: 60 });
    const clean = await freshTable();
    await exportBiasRecordsToClickhouse({ inputs: [store], url: server.url, table: clean });
    const keysOf = async (t: string): Promise<unknown> =>
      await query(
        `SELECT count() AS n, uniqExact(record_key) AS keys, sum(ord) AS ords, sum(cityHash64(record_key, ord, session_id, reviewer_id, model_id, score_value)) AS h FROM ${t} FINAL`,
      );
    expect(await keysOf(table)).toEqual(await keysOf(clean));
    // 30,000 rows, one per key, ords 0…29,999 (sum 449,985,000).
    expect(
      await query(`SELECT count() AS n, uniqExact(record_key) AS keys, sum(ord) AS ords FROM ${table} FINAL`),
    ).toEqual([{ n: '30000', keys: '30000', ords: '449985000' }]);
  }, 120_000);

  it('says what to do when the table is missing, and when the server cannot be reached (naming it without credentials)', async () => {
    const dir = tempDir();
    const inputs = writeFixture(dir);
    await expect(
      exportBiasRecordsToClickhouse({ inputs, url: server.url, table: 'no_such_table' }),
    ).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: `ClickHouse at ${server.url} refused to run a query: Table default.no_such_table doesn't exist. (ClickHouse error 60); create the table first (council store clickhouse-init --url URL).`,
    });
    const unreachable = exportBiasRecordsToClickhouse({ inputs, url: 'http://loader:pa55@127.0.0.1:1' });
    await expect(unreachable).rejects.toMatchObject({
      code: 'IO_ERROR',
      message:
        'Cannot reach ClickHouse at http://127.0.0.1:1 to run a query: the connection was refused (nothing listens on that port). Check that the server runs and that the URL is its HTTP interface (e.g. http://127.0.0.1:8123), then retry.',
    });
    await expect(exportBiasRecordsToClickhouse({ inputs, url: server.url, table: 'x-y' })).rejects.toThrow(
      'The ClickHouse table name "x-y" is not a plain identifier',
    );
    await expect(exportBiasRecordsToClickhouse({ inputs, url: server.url, batchRows: 0 })).rejects.toThrow(
      'batchRows must be a whole number from 1 to 1,000,000',
    );
    await expect(exportBiasRecordsToClickhouse({ inputs, url: server.url, batchRows: 2_000_000 })).rejects.toThrow(
      /max_insert_block_size, 1,048,576 rows by default\), got 2000000\.$/,
    );
  });
});
