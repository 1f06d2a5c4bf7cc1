/** Thrown by a cursor read that runs past the bytes received so far: the row is read again once more have come. */
const incomplete = new Error('a row continues past the bytes received so far');

/**
 * A place in ClickHouse's RowBinary answer (little-endian values, LEB128 lengths). Every read throws `incomplete`
 * past the end of the bytes so far, so a row function reads the whole row before it changes anything.
 */
export class RowBinaryCursor {
  buf: Buffer = Buffer.alloc(0);
  /** `buf` as a DataView: a row function reads an array's values with it (`getFloat64(at, true)`…). */
  view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  at = 0;
  /** The element count of the last `fixedArray`. */
  count = 0;

  /** Reads `buf` from its start. */
  reset(buf: Buffer): void {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.at = 0;
  }

  varUInt(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.buf.length) throw incomplete;
      const byte = this.buf[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }

  uint32(): number {
    if (this.at + 4 > this.buf.length) throw incomplete;
    const value = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return value;
  }

  float64(): number {
    if (this.at + 8 > this.buf.length) throw incomplete;
    const value = this.buf.readDoubleLE(this.at);
    this.at += 8;
    return value;
  }

  string(): string {
    const length = this.varUInt();
    const end = this.at + length;
    if (end > this.buf.length) throw incomplete;
    const text = this.buf.toString('utf8', this.at, end);
    this.at = end;
    return text;
  }

  strings(): string[] {
    const n = this.varUInt();
    const list = new Array<string>(n);
    for (let i = 0; i < n; i++) list[i] = this.string();
    return list;
  }

  /** Passes over an array of `size`-byte values: returns where its values start (their number in `count`). */
  fixedArray(size: number): number {
    this.count = this.varUInt();
    const start = this.at;
    const end = start + this.count * size;
    if (end > this.buf.length) throw incomplete;
    this.at = end;
    return start;
  }
}

/** Where a RowBinary answer has bytes left over that are not a row: the server's error text, when it wrote one. */
export class RowBinaryLeftover extends Error {
  constructor(
    readonly serverText: string | null,
    readonly bytes: number,
  ) {
    super(serverText ?? `${bytes} bytes at the end of the answer are not a whole row`);
  }
}

/**
 * Reads a RowBinary answer as its chunks arrive, one row at a time: `row` reads one row from the cursor (every read
 * first, then what it does with them — a read past the bytes so far stops it, and it is called again on the same row
 * once more bytes have come). A row larger than a chunk is tried again only when the bytes held have doubled.
 * A server that fails after it began answering writes its error as text: bytes left over that are not a row are
 * `RowBinaryLeftover`, with the error's text when there is one.
 */
export async function readRowBinary(
  chunks: AsyncIterable<Uint8Array>,
  row: (cursor: RowBinaryCursor) => void,
): Promise<void> {
  const cursor = new RowBinaryCursor();
  let held: Buffer[] = [];
  let heldBytes = 0;
  let tryAt = 0;
  let untried = false;
  const readHeld = (): void => {
    const buf = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
    cursor.reset(buf);
    let start = 0;
    while (start < buf.length) {
      cursor.at = start;
      try {
        row(cursor);
      } catch (error) {
        if (error !== incomplete) throw leftoverError(buf.subarray(start)) ?? error;
        break;
      }
      start = cursor.at;
    }
    const rest = buf.subarray(start);
    held = rest.length === 0 ? [] : [rest];
    heldBytes = rest.length;
    tryAt = 2 * rest.length;
    untried = false;
  };
  for await (const chunk of chunks) {
    held.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    heldBytes += chunk.byteLength;
    untried = true;
    if (heldBytes >= tryAt) readHeld();
  }
  if (untried) readHeld();
  if (heldBytes > 0) throw leftoverError(Buffer.concat(held, heldBytes)) ?? new RowBinaryLeftover(null, heldBytes);
}

/** The server's error text in `bytes` (18.16: `Code: 241, e.displayText() = …`; later: `Code: 241. DB::Exception: …`). */
function leftoverError(bytes: Buffer): RowBinaryLeftover | null {
  const text = bytes.toString('latin1');
  const at = text.search(/Code: \d+[.,] (?:e\.displayText\(\) = )?DB::Exception/);
  return at === -1
    ? null
    : new RowBinaryLeftover(Buffer.from(text.slice(at), 'latin1').toString('utf8').trim(), bytes.length);
}
