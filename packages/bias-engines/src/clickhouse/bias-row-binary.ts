import type { BiasMetricRecord } from '@council/bias-store';

const twoTo32 = 2 ** 32;

/**
 * Rows encoded in ClickHouse's RowBinary format for the bias-records table: little-endian numbers, strings as a LEB128
 * length and their UTF-8 bytes, a Nullable value as a 0/1 null flag before it. Binary, so a score arrives bit for bit
 * (18.16 parses some decimal doubles to a neighbouring value). Grows as needed; `take()` hands the rows over.
 */
export class BiasRowBinaryWriter {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  rows = 0;

  get bytes(): number {
    return this.at;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }

  private varint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.at++] = v;
  }

  private string(value: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit; the length's varint at most 5 bytes.
    this.room(value.length * 3 + 5);
    const length = Buffer.byteLength(value, 'utf8');
    this.varint(length);
    this.at += this.buffer.write(value, this.at, length, 'utf8');
  }

  private nullFlag(isNull: boolean): boolean {
    this.room(1);
    this.buffer[this.at++] = isNull ? 1 : 0;
    return !isNull;
  }

  private nullableString(value: string | null): void {
    if (this.nullFlag(value === null)) this.string(value!);
  }

  /** A whole number in [-2^63, 2^64) that is a safe JS integer, as 8 little-endian bytes (two's complement). */
  private int64(value: number): void {
    this.room(8);
    const high = Math.floor(value / twoTo32);
    this.buffer.writeUInt32LE(value - high * twoTo32, this.at);
    this.buffer.writeInt32LE(high, this.at + 4);
    this.at += 8;
  }

  private uint32(value: number): void {
    this.room(4);
    this.at = this.buffer.writeUInt32LE(value, this.at);
  }

  /**
   * One record as a row, in `clickhouseBiasColumns`' order: `key` (its `record_key`), `ord`, then the record's fields
   * (`ms`: its instant). Written out field by field, not by a loop over the table: this runs for every record a load
   * sends, and bias-row-binary.test.ts decodes a row by the table's types to hold this to it.
   */
  // eslint-disable-next-line max-params -- runs for every record of a load: an options object per call would allocate millions of them
  add(key: string, ord: number, record: BiasMetricRecord, ms: number): void {
    this.string(key);
    this.int64(ord);
    this.string(record.schemaVersion);
    this.string(record.sessionId);
    this.int64(ms);
    if (this.nullFlag(record.consentLevel === null)) {
      this.room(4);
      this.at = this.buffer.writeInt32LE(record.consentLevel!, this.at);
    }
    const meta = record.queryMetadata;
    this.nullableString(meta?.category ?? null);
    this.nullableString(meta?.tokenCountBucket ?? null);
    this.nullableString(meta?.language ?? null);
    this.string(record.reviewerId);
    this.string(record.modelId);
    this.uint32(record.position);
    this.uint32(record.responseLengthChars);
    if (this.nullFlag(record.scoreValue === null)) {
      this.room(8);
      this.at = this.buffer.writeDoubleLE(record.scoreValue!, this.at);
    }
    this.nullableString(record.scoreScale);
    this.nullableString(record.councilConfigVersion);
    this.nullableString(record.queryHash);
    if (this.nullFlag(record.rankPosition === null)) this.uint32(record.rankPosition!);
    this.room(1);
    this.buffer[this.at++] = record.positionIsDisplayOrder ? 1 : 0;
    this.rows++;
  }

  /** The rows written so far (a copy), and a fresh start. */
  take(): Buffer {
    const rows = Buffer.from(this.buffer.subarray(0, this.at));
    this.at = 0;
    this.rows = 0;
    return rows;
  }
}
