import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { startClickhouseTestServer } from '../__fixtures__/clickhouse-test-server.js';
import { openClickhouse } from './client.js';
import { createClickhouseBiasTable } from './create-table.js';

let server: ClickhouseTestServer;
beforeAll(async () => {
  server = await startClickhouseTestServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function query<Row>(sql: string): Promise<Row[]> {
  const ch = await openClickhouse({ url: server.url });
  try {
    return await ch.query<Row>(sql);
  } finally {
    await ch.close();
  }
}

// The columns and types engine-context / README "Team scale" document, in this order (written out by hand).
const documented = [
  ['record_key', 'String'],
  ['ord', 'UInt64'],
  ['schema_version', 'String'],
  ['session_id', 'String'],
  ['timestamp_ms', 'Int64'],
  ['consent_level', 'Nullable(Int32)'],
  ['query_category', 'Nullable(String)'],
  ['query_token_count_bucket', 'Nullable(String)'],
  ['query_language', 'Nullable(String)'],
  ['reviewer_id', 'String'],
  ['model_id', 'String'],
  ['position', 'UInt32'],
  ['response_length_chars', 'UInt32'],
  ['score_value', 'Nullable(Float64)'],
  ['score_scale', 'Nullable(String)'],
  ['council_config_version', 'Nullable(String)'],
  ['query_hash', 'Nullable(String)'],
  ['rank_position', 'Nullable(UInt32)'],
  ['position_is_display_order', 'UInt8'],
];

describe('createClickhouseBiasTable', () => {
  it('creates council_bias_records with the documented columns, engine and sorting key, and is safe to run again', async () => {
    expect(await createClickhouseBiasTable({ url: server.url })).toEqual({
      url: server.url,
      table: 'council_bias_records',
      created: true,
    });
    const columns = await query<{ name: string; type: string }>('DESCRIBE TABLE council_bias_records');
    expect(columns.map((c) => [c.name, c.type])).toEqual(documented);
    const [table] = await query<{ engine: string; sorting_key: string }>(
      "SELECT engine, sorting_key FROM system.tables WHERE database = 'default' AND name = 'council_bias_records'",
    );
    expect(table).toEqual({
      engine: 'ReplacingMergeTree',
      sorting_key: 'session_id, reviewer_id, model_id, record_key',
    });
    expect(await createClickhouseBiasTable({ url: server.url })).toEqual({
      url: server.url,
      table: 'council_bias_records',
      created: false,
    });
  });

  it('creates the database it is given, and a table of another name in it', async () => {
    expect(await createClickhouseBiasTable({ url: server.url, database: 'team_a', table: 'bias_2026' })).toEqual({
      url: server.url,
      table: 'team_a.bias_2026',
      created: true,
    });
    expect(await query('EXISTS TABLE team_a.bias_2026')).toEqual([{ result: 1 }]);
  });

  it('refuses names that are not plain identifiers, before sending anything', async () => {
    await expect(createClickhouseBiasTable({ url: server.url, table: 'bias; DROP TABLE x' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'The ClickHouse table name "bias; DROP TABLE x" is not a plain identifier: use letters, digits and underscores, not starting with a digit (e.g. council_bias_records).',
    });
    await expect(createClickhouseBiasTable({ url: server.url, database: '1db' })).rejects.toThrow(
      'The ClickHouse database name "1db" is not a plain identifier',
    );
  });

  it('says so when a table of that name exists but is not the bias-records table', async () => {
    const ch = await openClickhouse({ url: server.url });
    await ch.command('CREATE TABLE other_table (record_key String, ord UInt32) ENGINE = MergeTree ORDER BY record_key');
    await ch.close();
    await expect(createClickhouseBiasTable({ url: server.url, table: 'other_table' })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: `The ClickHouse table other_table at ${server.url} is not a table of Council bias records: its column 2 is ord UInt32, not ord UInt64. Give another table name (council store clickhouse-init creates one), or drop this one if it is an old copy.`,
    });
  });

  it('names the server, without credentials, when it cannot be reached', async () => {
    await expect(createClickhouseBiasTable({ url: 'http://admin:hunter2@127.0.0.1:1' })).rejects.toMatchObject({
      code: 'IO_ERROR',
      message: expect.stringMatching(
        /^Cannot reach ClickHouse at http:\/\/127\.0\.0\.1:1 to run a query: the connection was refused/,
      ) as unknown,
    });
  });
});
