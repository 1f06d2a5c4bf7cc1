import { BiasStoreError } from './bias-store-error.js';
import { equalBytes, knownBytes } from './equal-bytes.js';
import type { KnownBytes } from './equal-bytes.js';

/** An id → index table. Ids from the fast path arrive as bytes, found by a hash of the bytes: no string per record. */
export class IdInterner {
  readonly names: string[] = [];
  /** Names that are not ASCII (rare), by name; ASCII names are found through `byHash`. */
  private readonly index = new Map<string, number>();
  /** Hash of an ASCII name's bytes → its index, or the indices sharing that hash. */
  private readonly byHash = new Map<number, number | number[]>();
  constructor(
    private readonly limit: number,
    private readonly what: string,
  ) {}

  of(name: string): number {
    const ascii = Buffer.byteLength(name) === name.length;
    let i = ascii ? this.asciiIndex(name) : this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      if (i >= this.limit) {
        throw new BiasStoreError({
          code: 'INVALID_OPTION',
          message: `The inputs hold more than ${this.limit} distinct ${this.what}; a report over them cannot be built. Read fewer stores at once.`,
        });
      }
      this.names.push(name);
      this.index.set(name, i);
      // Only ASCII names are found by their bytes (a char code is then a byte); others by decoding.
      const ascii = Buffer.byteLength(name) === name.length;
      if (this.names.length <= 16) this.known.push(ascii ? knownBytes(Buffer.from(name, 'latin1')) : null);
      if (ascii) {
        const hash = hashString(name);
        const known = this.byHash.get(hash);
        this.byHash.set(hash, known === undefined ? i : typeof known === 'number' ? [known, i] : [...known, i]);
      }
    }
    return i;
  }

  private asciiIndex(name: string): number | undefined {
    const known = this.byHash.get(hashString(name));
    if (known === undefined) return undefined;
    if (typeof known === 'number') return this.names[known] === name ? known : undefined;
    return known.find((i) => this.names[i] === name);
  }

  ofBytes(buf: Buffer, start: number, end: number): number {
    // The same id as one of the last two records' (a session over its lines; a reviewer over its four, whose author
    // took the other place — one interner serves both columns): one or two compares.
    const n = end - start;
    const last = this.last < 0 ? null : (this.known[this.last] ?? this.lastBytes);
    if (last !== null && n === last.length && equalBytes(buf, start, last)) return this.last;
    const previous = this.previous < 0 ? null : (this.known[this.previous] ?? this.previousBytes);
    if (previous !== null && n === previous.length && equalBytes(buf, start, previous)) {
      this.swap();
      return this.last;
    }
    const i = this.find(buf, start, end);
    this.swap();
    this.last = i;
    if (this.known[i] === undefined || this.known[i] === null) {
      const copy = this.lastBytes;
      if (n <= copy.bytes.length) {
        for (let j = 0; j < n; j++) copy.bytes[j] = buf[start + j]!;
        copy.length = n;
      } else {
        this.last = -1;
      }
    }
    return i;
  }

  /** The last id becomes the previous one and the previous the last, each with its copy of the bytes. */
  private swap(): void {
    const id = this.last;
    this.last = this.previous;
    this.previous = id;
    const bytes = this.lastBytes;
    this.lastBytes = this.previousBytes;
    this.previousBytes = bytes;
  }

  private last = -1;
  private previous = -1;
  private lastBytes = knownBytes(new Uint8Array(256), 0);
  private previousBytes = knownBytes(new Uint8Array(256), 0);
  /** The bytes of each ASCII name, for the few-names case. */
  private readonly known: (KnownBytes | null)[] = [];

  private find(buf: Buffer, start: number, end: number): number {
    // A council has a handful of members: comparing with each (lengths differ at once) beats hashing.
    if (this.names.length <= 16) {
      const n = end - start;
      for (let i = 0; i < this.names.length; i++) {
        const known = this.known[i];
        if (known !== null && known !== undefined && known.length === n && equalBytes(buf, start, known)) return i;
      }
      return this.of(buf.toString('utf8', start, end));
    }
    const known = this.byHash.get(hashBytes(buf, start, end));
    if (known !== undefined) {
      for (const i of typeof known === 'number' ? [known] : known)
        if (sameText(this.names[i]!, buf, start, end)) return i;
    }
    return this.of(buf.toString('utf8', start, end));
  }
}

// eslint-disable-next-line max-params -- runs for every id of every line: an options object per call would allocate millions
function sameText(name: string, buf: Buffer, start: number, end: number): boolean {
  if (name.length !== end - start) return false;
  for (let j = 0; j < name.length; j++) if (name.charCodeAt(j) !== buf[start + j]) return false;
  return true;
}

function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let j = 0; j < text.length; j++) h = Math.imul(h ^ text.charCodeAt(j), 0x01000193);
  return h;
}

function hashBytes(buf: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let j = start; j < end; j++) h = Math.imul(h ^ buf[j]!, 0x01000193);
  return h;
}
