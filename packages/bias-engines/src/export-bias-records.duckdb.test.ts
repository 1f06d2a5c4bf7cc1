import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './__fixtures__/temp-dir.js';
import { exportBiasRecords, readBiasRecords } from '@council/bias-store';
import { biasParquet } from './bias-parquet.js';

const tempDir = useTempDirs();

/** The types the README's "Team scale" table documents, as DuckDB 1.5 names them. */
const documentedTypes = {
  schema_version: 'VARCHAR',
  session_id: 'VARCHAR',
  timestamp: 'TIMESTAMP WITH TIME ZONE',
  consent_level: 'INTEGER',
  query_category: 'VARCHAR',
  query_token_count_bucket: 'VARCHAR',
  query_language: 'VARCHAR',
  reviewer_id: 'VARCHAR',
  model_id: 'VARCHAR',
  position: 'UINTEGER',
  response_length_chars: 'UINTEGER',
  score_value: 'DOUBLE',
  score_scale: 'VARCHAR',
  council_config_version: 'VARCHAR',
  query_hash: 'VARCHAR',
  rank_position: 'UINTEGER',
  position_is_display_order: 'BOOLEAN',
  day: 'DATE',
};

const lines = [
  {
    schema_version: '1.1.0',
    session_id: 'a',
    timestamp: '2026-11-01T10:00:00.125Z',
    consent_level: 1,
    query_metadata: { category: 'math', token_count_bucket: '100-500', language: 'de' },
    reviewer_id: 'r/x',
    model_id: 'm/y',
    position: 2,
    response_length_chars: 1234,
    score_value: 8.5,
    score_scale: '1-10',
    council_config_version: '0.4.0',
    query_hash: null,
    rank_position: 1,
  },
  {
    schema_version: '1.1.0',
    session_id: 'a',
    timestamp: '2026-11-01T10:00:00.125Z',
    consent_level: 4,
    query_metadata: null,
    reviewer_id: 'r/y',
    model_id: 'm/x',
    position: 0,
    response_length_chars: 4_000_000_000,
    score_value: null,
    score_scale: '1-10',
    council_config_version: null,
    query_hash: 'fedcba9876543210',
    rank_position: null,
  },
  {
    schema_version: 1,
    session_id: 'b',
    timestamp: '2026-11-03T01:00:00+02:00',
    reviewer_id: 'r/x',
    model_id: 'm/z',
    position: 1,
    response_length_chars: 5,
    score_value: 3,
    score_scale: '1-10',
  },
];

describe('DuckDB reads a Parquet export', () => {
  it('with the documented types, every row, and the values of the store', async () => {
    const dir = tempDir();
    const store = join(dir, 'bias_metrics.jsonl');
    writeFileSync(store, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });

    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      const source = `read_parquet('${join(out, '*', '*.parquet')}', hive_partitioning = true)`;
      const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJS();
      expect(Object.fromEntries(described.map((row) => [row['column_name'], row['column_type']]))).toEqual(
        documentedTypes,
      );

      const rows = (
        await connection.runAndReadAll(
          `SELECT day::VARCHAR AS day, schema_version, session_id, epoch_ms(timestamp) AS ms, consent_level, query_category, query_token_count_bucket, query_language,
                  reviewer_id, model_id, position, response_length_chars, score_value, score_scale, council_config_version, query_hash, rank_position, position_is_display_order
           FROM ${source} ORDER BY session_id, reviewer_id`,
        )
      ).getRowObjectsJS();
      expect(rows).toEqual([
        {
          day: '2026-11-01',
          schema_version: '1.1.0',
          session_id: 'a',
          ms: BigInt(Date.parse('2026-11-01T10:00:00.125Z')),
          consent_level: 1,
          query_category: 'math',
          query_token_count_bucket: '100-500',
          query_language: 'de',
          reviewer_id: 'r/x',
          model_id: 'm/y',
          position: 2,
          response_length_chars: 1234,
          score_value: 8.5,
          score_scale: '1-10',
          council_config_version: '0.4.0',
          query_hash: null,
          rank_position: 1,
          position_is_display_order: true,
        },
        {
          day: '2026-11-01',
          schema_version: '1.1.0',
          session_id: 'a',
          ms: BigInt(Date.parse('2026-11-01T10:00:00.125Z')),
          consent_level: 4,
          query_category: null,
          query_token_count_bucket: null,
          query_language: null,
          reviewer_id: 'r/y',
          model_id: 'm/x',
          position: 0,
          response_length_chars: 4_000_000_000,
          score_value: null,
          score_scale: '1-10',
          council_config_version: null,
          query_hash: 'fedcba9876543210',
          rank_position: null,
          position_is_display_order: true,
        },
        // 01:00+02:00 on the 3rd is 23:00Z on the 2nd: that day's partition.
        {
          day: '2026-11-02',
          schema_version: '1',
          session_id: 'b',
          ms: BigInt(Date.parse('2026-11-02T23:00:00Z')),
          consent_level: null,
          query_category: null,
          query_token_count_bucket: null,
          query_language: null,
          reviewer_id: 'r/x',
          model_id: 'm/z',
          position: 1,
          response_length_chars: 5,
          score_value: 3,
          score_scale: '1-10',
          council_config_version: null,
          query_hash: null,
          rank_position: null,
          position_is_display_order: false,
        },
      ]);
    } finally {
      connection.closeSync();
      db.closeSync();
    }
  });

  it('and what DuckDB writes back (microsecond timestamps, its own encodings) reads as the same records', async () => {
    const dir = tempDir();
    const store = join(dir, 'bias_metrics.jsonl');
    writeFileSync(store, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const out = join(dir, 'export');
    await exportBiasRecords({ parquet: biasParquet, inputs: [store], output: out, format: 'parquet' });
    const copy = join(dir, 'from-duckdb.parquet');
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      await connection.run(
        `COPY (SELECT * EXCLUDE (day) FROM read_parquet('${join(out, '*', '*.parquet')}', hive_partitioning = true) ORDER BY session_id, reviewer_id) TO '${copy}' (FORMAT parquet)`,
      );
    } finally {
      connection.closeSync();
      db.closeSync();
    }
    const now = new Date('2026-12-01T00:00:00Z');
    const fromStore = await readBiasRecords({ parquet: biasParquet, inputs: [store], window: { now } });
    const fromDuckDb = await readBiasRecords({ parquet: biasParquet, inputs: [copy], window: { now } });
    expect(fromDuckDb.records).toBe(3);
    expect(fromDuckDb.skipped).toBe(0);
    for (const key of [
      'sessionIds',
      'models',
      'reviewer',
      'candidate',
      'position',
      'responseLengthChars',
      'score',
      'rankPosition',
      'time',
      'positionIsDisplayOrder',
      'configVersions',
    ] as const) {
      expect(Array.from(fromDuckDb.columns[key] as ArrayLike<unknown>), key).toEqual(
        Array.from(fromStore.columns[key] as ArrayLike<unknown>),
      );
    }
  });
});
