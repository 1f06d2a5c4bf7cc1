import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RowBinaryCursor } from './row-binary-stream.js';
import { readRowBinary, RowBinaryLeftover } from './row-binary-stream.js';

/** A LEB128 length, as RowBinary writes one. */
function varUInt(value: number): number[] {
  const bytes: number[] = [];
  for (let v = value; ; v = Math.floor(v / 128)) {
    if (v < 128) return [...bytes, v];
    bytes.push((v % 128) | 0x80);
  }
}

type Row = [string, number, number, number[]];

/** A row (String, Float64, UInt32, Array(UInt16)) encoded by hand from RowBinary's definition. */
function row([text, double, count, list]: Row): Buffer {
  const utf8 = Buffer.from(text, 'utf8');
  const fixed = Buffer.alloc(12);
  fixed.writeDoubleLE(double, 0);
  fixed.writeUInt32LE(count, 8);
  const values = Buffer.alloc(2 * list.length);
  list.forEach((v, i) => values.writeUInt16LE(v, 2 * i));
  return Buffer.concat([Buffer.from(varUInt(utf8.length)), utf8, fixed, Buffer.from(varUInt(list.length)), values]);
}

const readRow =
  (into: unknown[][]) =>
  (cursor: RowBinaryCursor): void => {
    const text = cursor.string();
    const double = cursor.float64();
    const count = cursor.uint32();
    const at = cursor.fixedArray(2);
    const list = Array.from({ length: cursor.count }, (_, i) => cursor.buf.readUInt16LE(at + 2 * i));
    into.push([text, double, count, list]);
  };

/** `bytes` as a stream of chunks of `sizes` bytes (repeated), as a response arrives. */
function chunksOf(bytes: Buffer, sizes: number[]): Readable {
  const chunks: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; at += sizes[i++ % sizes.length]!)
    chunks.push(new Uint8Array(bytes.subarray(at, at + sizes[i % sizes.length]!)));
  return Readable.from(chunks);
}

describe('readRowBinary', () => {
  const rows: Row[] = [
    ['session-1', 1767225600000, 3, [0, 1, 65535]],
    ['é\u{1F600}', -0, 0, []],
    ['x'.repeat(200), Number.NaN, 4294967295, Array.from({ length: 300 }, (_, i) => i)],
  ];
  const bytes = Buffer.concat(rows.map(row));

  it('reads the same rows however the answer is cut into chunks', async () => {
    for (const sizes of [[bytes.length], [1], [2, 3], [7], [64], [bytes.length - 1]]) {
      const read: unknown[][] = [];
      await readRowBinary(chunksOf(bytes, sizes), readRow(read));
      expect(read, `chunks of ${sizes.join(', ')}`).toEqual(rows);
    }
    // A long string's length takes two bytes (200 = 0xc8 0x01).
    expect(bytes.indexOf(Buffer.from([0xc8, 0x01]))).toBeGreaterThan(0);
  });

  it('says where an answer ends in the middle of a row', async () => {
    const read: unknown[][] = [];
    const cut = readRowBinary(chunksOf(bytes.subarray(0, bytes.length - 5), [10]), readRow(read));
    await expect(cut).rejects.toThrow(new RowBinaryLeftover(null, row(rows[2]!).length - 5));
    expect(read).toHaveLength(2);
  });

  it('returns the error a server wrote after it began answering', async () => {
    const error =
      'Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded: would use 9.31 GiB, e.what() = DB::Exception\n';
    const answer = Buffer.concat([row(rows[0]!), Buffer.from(error)]);
    const read: unknown[][] = [];
    const failure = await readRowBinary(chunksOf(answer, [16]), readRow(read)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RowBinaryLeftover);
    expect((failure as RowBinaryLeftover).serverText).toBe(error.trim());
    expect(read).toEqual([rows[0]]);
  });
});
