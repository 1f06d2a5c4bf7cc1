import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import type { BiasMetricRecord } from '@council/bias-store';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../__fixtures__/temp-dir.js';
import { biasParquetColumns, biasParquetSchema } from '../bias-parquet-schema.js';
import { scanParquetRecords } from './scan-parquet-records.js';

const tempDir = useTempDirs();

// One valid row, column by column, and rows each breaking rules (the first rule broken names the skip).
const valid: Record<string, unknown> = {
  schema_version: '1.1.0',
  session_id: 's1',
  timestamp: 1_700_000_000_000,
  consent_level: 2,
  query_category: 'coding',
  query_token_count_bucket: '100-500',
  query_language: 'en',
  reviewer_id: 'r',
  model_id: 'm',
  position: 1,
  response_length_chars: 10,
  score_value: 5.5,
  score_scale: '1-10',
  council_config_version: '0.3.0',
  query_hash: '0123456789abcdef',
  rank_position: 0,
  position_is_display_order: true,
};
const rows: Record<string, unknown>[] = [
  valid,
  { ...valid, schema_version: '2.0.0' },
  // An empty id and a count out of range: the ids are judged first.
  { ...valid, session_id: '', position: 4_294_967_295 },
  // A count out of range and a consent level of 7: the range first.
  { ...valid, position: 4_294_967_295, consent_level: 7 },
  { ...valid, consent_level: 7, query_hash: 'not hex' },
  { ...valid, query_hash: 'not hex' },
  // Nulls where a column may be null: the record keeps them, and has no query metadata.
  {
    ...valid,
    consent_level: null,
    query_category: null,
    query_token_count_bucket: null,
    query_language: null,
    score_value: null,
    score_scale: null,
    council_config_version: null,
    query_hash: null,
    rank_position: null,
    position_is_display_order: false,
  },
];

describe('scanParquetRecords', () => {
  it('rebuilds each valid row into its record and skips the others with the reader’s details', async () => {
    const file = join(tempDir(), 'rows.parquet');
    const columnData = biasParquetColumns.map((c) => ({ name: c.name, data: rows.map((row) => row[c.name]) }));
    parquetWriteFile({ filename: file, columnData, schema: biasParquetSchema() });
    const records: [BiasMetricRecord, number, number][] = [];
    const bad: [number, string, string][] = [];
    const scan = scanParquetRecords({
      path: file,
      record: (record, ms, row) => records.push([record, ms, row]),
      bad: (row, reason, detail) => bad.push([row, reason, detail]),
    });
    let next = await scan.next();
    while (next.done !== true) next = await scan.next();
    expect(next.value).toBe(7);

    // 1,700,000,000,000 ms is 2023-11-14T22:13:20.000Z.
    const full: BiasMetricRecord = {
      schemaVersion: '1.1.0',
      sessionId: 's1',
      timestamp: '2023-11-14T22:13:20.000Z',
      consentLevel: 2,
      queryMetadata: { category: 'coding', tokenCountBucket: '100-500', language: 'en' },
      reviewerId: 'r',
      modelId: 'm',
      position: 1,
      responseLengthChars: 10,
      scoreValue: 5.5,
      scoreScale: '1-10',
      councilConfigVersion: '0.3.0',
      queryHash: '0123456789abcdef',
      rankPosition: 0,
      positionIsDisplayOrder: true,
    };
    expect(records).toEqual([
      [full, 1_700_000_000_000, 1],
      [
        {
          ...full,
          consentLevel: null,
          queryMetadata: null,
          scoreValue: null,
          scoreScale: null,
          councilConfigVersion: null,
          queryHash: null,
          rankPosition: null,
          positionIsDisplayOrder: false,
        },
        1_700_000_000_000,
        7,
      ],
    ]);
    expect(Object.keys(records[0]![0])).toEqual(Object.keys(full));
    expect(bad).toEqual([
      [
        2,
        'unsupported_version',
        'schema_version "2.0.0" has major version 2; this reader understands major 1 (a newer Council wrote it: upgrade to read it)',
      ],
      [3, 'invalid_record', 'session_id, reviewer_id and model_id must be non-empty strings'],
      [
        4,
        'invalid_record',
        'timestamp, position, response_length_chars, rank_position, score_value or position_is_display_order is missing or out of range',
      ],
      [5, 'invalid_record', 'consent_level must be 0, 1, 2, 3, 4 or null'],
      [6, 'invalid_record', 'query_hash: expected 16 lower-case hex characters'],
    ]);
  });
});
