import { isUtf8 } from 'node:buffer';

/** Where a line lies in its file, in uncompressed bytes. */
export interface JsonlLinePlace {
  /** 1-based line number in the file. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte offset just past the line and its newline: where the next line begins. */
  nextOffset: number;
  /** False only for a last line without its newline (torn when it does not parse). */
  terminated: boolean;
}

/** The line a visitor is handed; one object reused for every line, so copy what you keep. */
export interface JsonlLine extends JsonlLinePlace {
  buf: Buffer;
  start: number;
  end: number;
  /** True when the bytes are known to be valid UTF-8; otherwise check before decoding. */
  utf8: boolean;
  /**
   * Which bytes `buf` holds: the same number for the lines of one chunk, a new one (never used before, in any scan)
   * whenever the bytes behind `buf` may have changed. A reader may keep a copy of `buf` made for one line and read
   * the next lines of the same `chunk` from that copy (the fast parser copies a chunk into its memory once).
   */
  chunk: number;
}

export interface JsonlLineVisitor {
  line(line: JsonlLine): void;
  /** A line longer than the limit: reported by its length, never buffered whole. */
  tooLong(place: JsonlLinePlace, bytes: number): void;
  /** A compressed file that cannot be decompressed past about `line`; the lines before it (up to `offset`) were read. */
  corrupt(at: { line: number; offset: number }): void;
}

const newline = 0x0a;
// The last chunk number handed out, by every splitter (see `JsonlLine.chunk`).
let chunks = 0;
const carriageReturn = 0x0d;

/**
 * Cuts a file's bytes, chunk by chunk, into lines for a visitor, synchronously within each chunk: no per-line string
 * or promise. A line split across chunks is copied out of them; one longer than `maxLineBytes` stops being buffered
 * and is reported by its length when it ends.
 */
export class JsonlLineSplitter {
  private readonly current: JsonlLine;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false; // inside a line longer than maxLineBytes
  private chunkUtf8 = false; // the whole lines of the chunk being cut are valid UTF-8

  constructor(
    private readonly visitor: JsonlLineVisitor,
    private readonly maxLineBytes: number,
    from: { offset: number; line: number },
  ) {
    this.current = {
      buf: Buffer.alloc(0),
      start: 0,
      end: 0,
      line: from.line,
      offset: from.offset,
      nextOffset: from.offset,
      terminated: true,
      utf8: false,
      chunk: 0,
    };
  }

  /** Lines seen so far, counting those before where the scan began. */
  get lines(): number {
    return this.current.line;
  }

  /** Where the next line begins. */
  get offset(): number {
    return this.current.nextOffset;
  }

  /** Visits the lines that end in `chunk`, and keeps (a copy of) the start of the line it leaves open. */
  push(chunk: Buffer): void {
    this.chunkUtf8 = this.wholeLinesAreUtf8(chunk);
    this.current.chunk = ++chunks;
    let position = 0;
    for (let nl = chunk.indexOf(newline); nl !== -1; nl = chunk.indexOf(newline, position)) {
      this.endLine(chunk, position, nl);
      position = nl + 1;
    }
    if (position < chunk.length) this.carry(chunk.subarray(position));
  }

  /** Visits a last line left without its newline. */
  end(): void {
    if (this.pendingBytes === 0 && !this.discarding) return;
    this.place(this.pendingBytes, false);
    this.current.utf8 = false;
    if (this.discarding) this.visitor.tooLong(this.current, this.pendingBytes);
    else this.emitCopy(Buffer.concat(this.pending, this.pendingBytes), this.pendingBytes);
    this.current.terminated = true;
  }

  /** One native UTF-8 check for the whole lines of a chunk instead of one per line. */
  private wholeLinesAreUtf8(chunk: Buffer): boolean {
    const from = this.pendingBytes === 0 && !this.discarding ? 0 : chunk.indexOf(newline) + 1;
    const to = chunk.lastIndexOf(newline);
    return to >= from && isUtf8(chunk.subarray(from, to));
  }

  private endLine(chunk: Buffer, position: number, nl: number): void {
    const lineBytes = this.pendingBytes + (nl - position);
    this.place(lineBytes, true);
    // A CR before the newline is not part of the line's length limit.
    const last = nl > position ? chunk[nl - 1] : this.pending.at(-1)?.at(-1);
    const counted = lineBytes > 0 && last === carriageReturn ? lineBytes - 1 : lineBytes;
    if (this.discarding || counted > this.maxLineBytes) {
      this.visitor.tooLong(this.current, lineBytes);
    } else if (this.pendingBytes === 0) {
      this.current.utf8 = this.chunkUtf8;
      this.emit(chunk, position, nl);
    } else {
      this.pending.push(chunk.subarray(position, nl));
      this.current.utf8 = false;
      this.emitCopy(Buffer.concat(this.pending, lineBytes), lineBytes);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = false;
  }

  private carry(rest: Buffer): void {
    this.pendingBytes += rest.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.discarding = true;
      this.pending = [];
    } else {
      this.pending.push(Buffer.from(rest)); // a copy: the chunk is not kept alive
    }
  }

  private place(lineBytes: number, terminated: boolean): void {
    const current = this.current;
    current.line++;
    current.offset = current.nextOffset;
    current.nextOffset = current.offset + lineBytes + (terminated ? 1 : 0);
    current.terminated = terminated;
  }

  /** A line copied out of its chunks: a buffer of its own, a number of its own, and a new one for the lines after it. */
  private emitCopy(buf: Buffer, end: number): void {
    this.current.chunk = ++chunks;
    this.emit(buf, 0, end);
    this.current.chunk = ++chunks;
  }

  private emit(buf: Buffer, start: number, end: number): void {
    this.current.buf = buf;
    this.current.start = start;
    this.current.end = end;
    this.visitor.line(this.current);
  }
}
