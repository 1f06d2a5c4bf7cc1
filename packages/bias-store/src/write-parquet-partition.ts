import { statSync } from 'node:fs';
import { ParquetWriter } from 'hyparquet-writer';
import type { BiasMetricRecord } from './bias-metric-record.js';
import { decodeBiasMetricRecordFast } from './bias-metric-record.js';
import { biasParquetColumns, biasParquetLayoutKey, biasParquetLayoutVersion, biasParquetSchema } from './bias-parquet-schema.js';
import type { BiasParquetColumnName } from './bias-parquet-schema.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { ParquetFileWriter } from './parquet-file-writer.js';
import { scanJsonlLines } from './scan-jsonl-lines.js';

type ColumnArrays = Record<BiasParquetColumnName, unknown[]>;

function emptyColumns(): ColumnArrays {
  return Object.fromEntries(biasParquetColumns.map((c) => [c.name, []])) as unknown as ColumnArrays;
}

function pushRecord(columns: ColumnArrays, record: BiasMetricRecord, ms: number): void {
  const meta = record.queryMetadata;
  columns.schema_version.push(record.schemaVersion);
  columns.session_id.push(record.sessionId);
  columns.timestamp.push(ms);
  columns.consent_level.push(record.consentLevel);
  columns.query_category.push(meta?.category ?? null);
  columns.query_token_count_bucket.push(meta?.tokenCountBucket ?? null);
  columns.query_language.push(meta?.language ?? null);
  columns.reviewer_id.push(record.reviewerId);
  columns.model_id.push(record.modelId);
  columns.position.push(record.position);
  columns.response_length_chars.push(record.responseLengthChars);
  columns.score_value.push(record.scoreValue);
  columns.score_scale.push(record.scoreScale);
  columns.council_config_version.push(record.councilConfigVersion);
  columns.query_hash.push(record.queryHash);
  columns.rank_position.push(record.rankPosition);
  columns.position_is_display_order.push(record.positionIsDisplayOrder);
}

/** Writes one day's staged lines as a Parquet file at `temp`, one row group at a time. */
export async function writeParquetPartition(options: { spillFile: string; temp: string; rowGroupRows: number }): Promise<void> {
  const out = new ParquetFileWriter(options.temp);
  try {
    const writer = new ParquetWriter({ writer: out, schema: biasParquetSchema(), kvMetadata: [{ key: biasParquetLayoutKey, value: biasParquetLayoutVersion }], createdBy: 'council store export (hyparquet-writer)' });
    let columns = emptyColumns();
    let rows = 0;
    const writeGroup = (): void => {
      if (rows === 0) return;
      void writer.write({ columnData: biasParquetColumns.map((c) => ({ name: c.name, data: columns[c.name] })), rowGroupSize: rows });
      columns = emptyColumns();
      rows = 0;
    };
    const info = statSync(options.spillFile);
    await scanJsonlLines({
      storePath: options.spillFile,
      file: { path: options.spillFile, segment: 1, compressed: false, active: true, bytes: info.size, identity: `${info.dev}:${info.ino}` },
      maxLineBytes: Number.MAX_SAFE_INTEGER,
      visitor: {
        line: (line) => {
          // The export's own canonical lines: always the fast decoder's.
          const record = decodeBiasMetricRecordFast(JSON.parse(line.buf.toString('utf8', line.start, line.end)) as Record<string, unknown>)!;
          pushRecord(columns, record, parseIsoTimestamp(record.timestamp)!.ms);
          if (++rows >= options.rowGroupRows) writeGroup();
        },
        tooLong: () => undefined,
        corrupt: () => undefined,
      },
    });
    writeGroup();
    void writer.finish();
  } catch (error) {
    out.close();
    throw error;
  }
}
