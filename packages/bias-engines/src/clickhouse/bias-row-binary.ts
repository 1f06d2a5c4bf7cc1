/** One bias record as a row of the ClickHouse table, in `clickhouseBiasColumns`' order (snake_case: the table's names). */
export interface ClickhouseBiasRow {
  record_key: string;
  ord: number;
  schema_version: string;
  session_id: string;
  timestamp_ms: number;
  consent_level: number | null;
  query_category: string | null;
  query_token_count_bucket: string | null;
  query_language: string | null;
  reviewer_id: string;
  model_id: string;
  position: number;
  response_length_chars: number;
  score_value: number | null;
  score_scale: string | null;
  council_config_version: string | null;
  query_hash: string | null;
  rank_position: number | null;
  position_is_display_order: boolean;
}

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

  add(row: ClickhouseBiasRow): void {
    this.string(row.record_key);
    this.int64(row.ord);
    this.string(row.schema_version);
    this.string(row.session_id);
    this.int64(row.timestamp_ms);
    if (this.nullFlag(row.consent_level === null)) {
      this.room(4);
      this.at = this.buffer.writeInt32LE(row.consent_level!, this.at);
    }
    this.nullableString(row.query_category);
    this.nullableString(row.query_token_count_bucket);
    this.nullableString(row.query_language);
    this.string(row.reviewer_id);
    this.string(row.model_id);
    this.uint32(row.position);
    this.uint32(row.response_length_chars);
    if (this.nullFlag(row.score_value === null)) {
      this.room(8);
      this.at = this.buffer.writeDoubleLE(row.score_value!, this.at);
    }
    this.nullableString(row.score_scale);
    this.nullableString(row.council_config_version);
    this.nullableString(row.query_hash);
    if (this.nullFlag(row.rank_position === null)) this.uint32(row.rank_position!);
    this.room(1);
    this.buffer[this.at++] = row.position_is_display_order ? 1 : 0;
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
