import { open } from 'node:fs/promises';
import type { BiasInputFile } from './resolve-bias-inputs.js';

/** The shortest bias record line is about 150 bytes: an upper bound of the records that the files can hold. */
const minimumLineBytes = 128;

/**
 * How many records to make room for: what the files can hold (a gzipped file's own trailer says how large it
 * is uncompressed), or — with a session window — what a few times the sessions the reader holds at once need.
 */
export async function recordsUpperBound(inputs: readonly BiasInputFile[], sessionLimit: number): Promise<number> {
  let bytes = 0;
  for (const { file, parquet } of inputs)
    bytes +=
      parquet === true
        ? file.bytes * parquetExpansion
        : file.compressed
          ? await gzipSize(file.path, file.bytes)
          : file.bytes;
  const fromFiles = bytes / minimumLineBytes;
  // Beyond this the columns grow as records come (a reservation of gigabytes can fail where memory is capped).
  const reserveAtMost = 1 << 24;
  return Math.min(
    reserveAtMost,
    sessionLimit === Number.POSITIVE_INFINITY ? fromFiles : Math.min(fromFiles, Math.max(4 * sessionLimit, 4096) * 64),
  );
}

/** How many times larger than its Parquet export a store's lines are, at least (≈ 440-byte lines, ≈ 5 bytes a row in Parquet): a generous bound on the rows. */
const parquetExpansion = 32;

/** The uncompressed size a gzip file records in its last four bytes (modulo 4 GiB), or a generous guess. */
async function gzipSize(path: string, compressedBytes: number): Promise<number> {
  const guess = compressedBytes * 40;
  try {
    const handle = await open(path, 'r');
    try {
      const trailer = Buffer.alloc(4);
      const { bytesRead } = await handle.read(trailer, 0, 4, Math.max(0, compressedBytes - 4));
      const size = bytesRead === 4 ? trailer.readUInt32LE(0) : 0;
      // Deflate cannot shrink data more than about 1,032 to 1: a larger claim is a damaged or foreign trailer.
      return size >= compressedBytes && size <= compressedBytes * 1032 ? size : guess;
    } finally {
      await handle.close();
    }
  } catch {
    return guess; // read errors are reported when the file itself is read
  }
}
