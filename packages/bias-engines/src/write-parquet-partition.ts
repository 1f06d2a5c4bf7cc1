import { statSync } from 'node:fs';
import { ParquetWriter } from 'hyparquet-writer';
import {
  biasParquetColumns,
  biasParquetLayoutKey,
  biasParquetLayoutVersion,
  biasParquetSchema,
} from './bias-parquet-schema.js';
import { ParquetFileWriter } from './parquet-file-writer.js';
import { scanJsonlLines } from '@council/bias-store/internal';

/** Writes one day's staged rows (`biasParquetRow` arrays, one JSON line each) as a Parquet file at `temp`, one row group at a time. */
export async function writeParquetPartition(options: {
  spillFile: string;
  temp: string;
  rowGroupRows: number;
}): Promise<void> {
  const out = new ParquetFileWriter(options.temp);
  try {
    const writer = new ParquetWriter({
      writer: out,
      schema: biasParquetSchema(),
      kvMetadata: [{ key: biasParquetLayoutKey, value: biasParquetLayoutVersion }],
      createdBy: 'council store export (hyparquet-writer)',
    });
    const width = biasParquetColumns.length;
    let columns = biasParquetColumns.map((): unknown[] => []);
    let rows = 0;
    const writeGroup = (): void => {
      if (rows === 0) return;
      void writer.write({
        columnData: biasParquetColumns.map((c, i) => ({ name: c.name, data: columns[i]! })),
        rowGroupSize: rows,
      });
      columns = biasParquetColumns.map((): unknown[] => []);
      rows = 0;
    };
    const info = statSync(options.spillFile);
    await scanJsonlLines({
      storePath: options.spillFile,
      file: {
        path: options.spillFile,
        segment: 1,
        compressed: false,
        active: true,
        bytes: info.size,
        identity: `${info.dev}:${info.ino}`,
      },
      maxLineBytes: Number.MAX_SAFE_INTEGER,
      visitor: {
        line: (line) => {
          // The export's own staged rows: `biasParquetRow`'s arrays.
          const values = JSON.parse(line.buf.toString('utf8', line.start, line.end)) as unknown[];
          for (let i = 0; i < width; i++) columns[i]!.push(values[i]);
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
