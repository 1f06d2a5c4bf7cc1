import type { BiasMetricRecord } from '@council/bias-store';
import { biasRecordFields } from '@council/bias-store/internal';
import { describe, expect, it } from 'vitest';
import { BiasRowBinaryWriter } from './bias-row-binary.js';
import { RowBinaryCursor } from './row-binary-stream.js';
import { clickhouseBiasColumns } from './table-sql.js';

/** One value of a column, read by its ClickHouse type as RowBinary writes it (the types the table uses). */
function readValue(cursor: RowBinaryCursor, type: string): unknown {
  const nullable = /^Nullable\((.*)\)$/.exec(type);
  if (nullable !== null) return cursor.buf[cursor.at++] === 1 ? null : readValue(cursor, nullable[1]!);
  const at = cursor.at;
  switch (type) {
    case 'String':
      return cursor.string();
    case 'UInt8':
      cursor.at += 1;
      return cursor.buf.readUInt8(at);
    case 'Int32':
      cursor.at += 4;
      return cursor.buf.readInt32LE(at);
    case 'UInt32':
      return cursor.uint32();
    case 'Int64':
    case 'UInt64':
      cursor.at += 8;
      return Number(type === 'Int64' ? cursor.buf.readBigInt64LE(at) : cursor.buf.readBigUInt64LE(at));
    case 'Float64':
      return cursor.float64();
    default:
      throw new Error(`no reader for ${type}`);
  }
}

const record: BiasMetricRecord = {
  schemaVersion: '1.1.0',
  sessionId: 'session-é',
  timestamp: '2025-12-17T10:30:00.250Z',
  consentLevel: 3,
  queryMetadata: { category: 'coding', tokenCountBucket: '100-500', language: 'en' },
  reviewerId: 'google/gemini-3-pro-preview',
  modelId: 'anthropic/claude-opus-4.6',
  position: 2,
  responseLengthChars: 1200,
  scoreValue: 8.5,
  scoreScale: '1-10',
  councilConfigVersion: '0.3.0',
  queryHash: '0123456789abcdef',
  rankPosition: 0,
  positionIsDisplayOrder: true,
};
const ms = Date.UTC(2025, 11, 17, 10, 30, 0, 250);

/** The row a record should give, column by column: the key, the ord, then each field of the table by its API name. */
function expectedRow(r: BiasMetricRecord): unknown[] {
  return [
    'k'.repeat(64),
    7,
    ...biasRecordFields.map((f) => {
      if (f.kind === 'timestamp') return ms;
      if (f.kind === 'flag') return (r as unknown as Record<string, unknown>)[f.api] === true ? 1 : 0;
      const holder = (f.inMetadata ? r.queryMetadata : r) as Record<string, unknown> | null;
      return holder?.[f.api] ?? null;
    }),
  ];
}

function decodedRow(r: BiasMetricRecord): unknown[] {
  const writer = new BiasRowBinaryWriter();
  writer.add('k'.repeat(64), 7, r, ms);
  const cursor = new RowBinaryCursor();
  cursor.reset(writer.take());
  const row = clickhouseBiasColumns.map((c) => readValue(cursor, c.type));
  expect(cursor.at).toBe(cursor.buf.length);
  return row;
}

describe('BiasRowBinaryWriter and the record table', () => {
  it('writes every column of the table, in its order and type (a field added to the table alone fails here)', () => {
    expect(decodedRow(record)).toEqual(expectedRow(record));
  });

  it('writes the nullable columns as null, and an unranked, unscored record without metadata', () => {
    const bare: BiasMetricRecord = {
      ...record,
      consentLevel: null,
      queryMetadata: null,
      scoreValue: null,
      scoreScale: null,
      councilConfigVersion: null,
      queryHash: null,
      rankPosition: null,
      positionIsDisplayOrder: false,
    };
    const row = decodedRow(bare);
    expect(row).toEqual(expectedRow(bare));
    // Written out by hand for the columns after record_key, ord, schema_version, session_id and timestamp_ms.
    expect(row.slice(5)).toEqual([
      null,
      null,
      null,
      null,
      'google/gemini-3-pro-preview',
      'anthropic/claude-opus-4.6',
      2,
      1200,
      null,
      null,
      null,
      null,
      null,
      0,
    ]);
  });
});
