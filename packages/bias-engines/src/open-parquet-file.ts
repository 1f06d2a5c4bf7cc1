import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { parquetMetadataAsync } from 'hyparquet';
import type { AsyncBuffer, FileMetaData, ParquetReadOptions } from 'hyparquet';
import type { SkipReason } from '@council/bias-store';
import { ioError } from '@council/bias-store/internal';

/**
 * How the two Parquet readers (`scanBiasParquet`, ClickHouse's `scanParquetRecords`) open a file, read its metadata
 * and its row groups (times in whole milliseconds), and report a damaged file, so that both skip a damaged file with the same words.
 */

/** Where a reader reports a row that is no bias record, or a damaged file (`corrupt_segment`, at the first row not read). */
export type BadParquetRow = (rowNumber: number, reason: SkipReason, detail: string) => void;

/** A Parquet file open for reading: hyparquet's buffer over the handle, and the file's metadata. Close `handle` when done. */
export interface OpenParquetFile {
  handle: FileHandle;
  file: AsyncBuffer;
  metadata: FileMetaData;
}

/** hyparquet's parsers for a TIMESTAMP column: the instant in whole milliseconds (rounded down), whatever its unit. */
const timestampParsers = {
  timestampFromMilliseconds: (v: bigint): number => Number(v),
  timestampFromMicroseconds: (v: bigint): number => Math.floor(Number(v) / 1000),
  timestampFromNanoseconds: (v: bigint): number => Math.floor(Number(v / 1000n) / 1000),
};

function fileBuffer(handle: FileHandle, size: number): AsyncBuffer {
  return {
    byteLength: size,
    async slice(start: number, end = size): Promise<ArrayBuffer> {
      const bytes = new Uint8Array(end - start);
      let read = 0;
      while (read < bytes.length) {
        const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return bytes.buffer;
    },
  };
}

/**
 * Opens `path` and reads its Parquet metadata. A file that cannot be opened is an I/O error; one whose metadata cannot
 * be read is reported through `bad` as `corrupt_segment` at row 1 (none of its rows read), closed, and undefined.
 */
export async function openParquetFile(path: string, bad: BadParquetRow): Promise<OpenParquetFile | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw ioError({ action: 'read', path, cause: error });
  }
  let opened: OpenParquetFile | undefined;
  try {
    const file = fileBuffer(handle, (await handle.stat()).size);
    try {
      opened = { handle, file, metadata: await parquetMetadataAsync(file) };
    } catch (error) {
      bad(
        1,
        'corrupt_segment',
        `the Parquet file cannot be read (${(error as Error).message}); none of its rows were read`,
      );
    }
  } finally {
    if (opened === undefined) await handle.close();
  }
  return opened;
}

/** hyparquet's options to read `columns` of the row group of `rows` rows from `groupStart`, times in milliseconds. */
export function rowGroupRead(
  opened: OpenParquetFile,
  group: { columns: string[]; groupStart: number; rows: number },
): Pick<ParquetReadOptions, 'file' | 'metadata' | 'columns' | 'rowStart' | 'rowEnd' | 'parsers'> {
  const { columns, groupStart, rows } = group;
  const { file, metadata } = opened;
  return { file, metadata, columns, rowStart: groupStart, rowEnd: groupStart + rows, parsers: timestampParsers };
}

/** Reports a row group that cannot be read as `corrupt_segment` from its first row; returns the rows read before it. */
export function damagedFromRow(options: { groupStart: number; error: unknown; bad: BadParquetRow }): number {
  const { groupStart, error, bad } = options;
  bad(
    groupStart + 1,
    'corrupt_segment',
    `the Parquet file is damaged from about row ${groupStart + 1} (${(error as Error).message}); the rows before it were read`,
  );
  return groupStart;
}
