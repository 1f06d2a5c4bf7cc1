import { noRank } from './bias-record-columns.js';
import { biasField, biasLineKeys, biasMetadataKeys, biasRecordFields } from './bias-record-fields.js';
import { equalBytes, knownBytes } from './equal-bytes.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { parseBiasLineWasm } from './internal/parse-bias-line-wasm.js';
import type { JsonlLine } from './jsonl-line-splitter.js';

/**
 * The fields of one bias record line that the reader keeps, as the fast path leaves them: strings as byte
 * ranges of the line's buffer (so a session id repeated on twenty lines is never copied twenty times).
 * A range with `start === -1` is null.
 */
export class BiasLineFields {
  sessionStart = 0;
  sessionEnd = 0;
  timeStart = 0;
  timeEnd = 0;
  reviewerStart = 0;
  reviewerEnd = 0;
  modelStart = 0;
  modelEnd = 0;
  configStart = -1;
  configEnd = -1;
  categoryStart = -1;
  categoryEnd = -1;
  position = 0;
  responseLengthChars = 0;
  score = Number.NaN;
  rankPosition = noRank;
  positionIsDisplayOrder = false;
  time = 0;
  hasZone = true;
}

// The key tables of the parser (assembly/parse-bias-line.ts), which has no field name of its own: they are written
// into its memory when it is instantiated. The bit of each top-level key, in the order this package writes them
// (bias-record-fields.ts), is the case of the parser's switch by index: cases 0–13 (parse-bias-line.test.ts holds the
// table's first fourteen keys to this order). A key the switch does not know — a field added to the table after
// these — sends its line to the slow path.
// Each key as this package writes it, quotes and colon included: `"<key>":`.
const keyLiterals = biasLineKeys.map((key) => Buffer.from(`"${key}":`, 'latin1'));
const metaKeyLiterals = biasMetadataKeys.map((key) => Buffer.from(`"${key}":`, 'latin1'));
const metaFields = biasRecordFields.filter((f) => f.inMetadata);
// The order this package writes them (no alias): category, token count bucket, language.
const metaKeyOrder = metaFields.map((f) => biasMetadataKeys.indexOf(f.key));
// The derived key other writers put on a line, read wherever the table has it.
const displayOrderKey = biasLineKeys.indexOf(biasField('positionIsDisplayOrder').key);
// The one label a report reads.
const categoryKey = biasMetadataKeys.indexOf(biasField('category').key);
// The keys a line must hold: the fields that are present even when null.
const requiredKeys = biasLineKeys.reduce((bits, key, k) => {
  const field = biasRecordFields.find((f) => !f.inMetadata && f.key === key);
  return field !== undefined && (field.presence === 'required' || field.presence === 'nullable')
    ? bits | (1 << k)
    : bits;
}, 0);

/** A WebAssembly memory: its bytes (a new buffer after each growth), grown by whole 64 KiB pages. */
interface Memory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The functions of assembly/parse-bias-line.ts (addresses are byte offsets in `memory`; see that file). */
interface ParserExports {
  memory: Memory;
  heapBase(): number;
  setTables(
    keys: number,
    keyCount: number,
    metaKeys: number,
    metaCount: number,
    metaOrder: number,
    metaOrderCount: number,
    displayOrderKey: number,
    categoryKey: number,
    requiredKeys: number,
    noRank: number,
    fields: number,
  ): void;
  parse(start: number, end: number): number;
}

// What the parser needs of the runtime, which Node provides (the package's lib is ES2023 alone).
const { WebAssembly } = globalThis as unknown as {
  WebAssembly: {
    Module: new (bytes: Uint8Array) => object;
    Instance: new (module: object, imports: object) => { exports: object };
  };
};

const PAGE = 65_536;
// The parser reads up to 5 bytes past a value before it checks the line's end: the copy is followed by zeros.
const PADDING = 8;
// The fields area (assembly/parse-bias-line.ts's FIELD_… and VALUE_…): 15 i32 offsets, then 4 f64 values at +64.
const FIELDS_BYTES = 96;
const VALUES = 8; // the f64 values' first index in the Float64Array view

/**
 * The parser's instance, its tables written, and views of its memory (made afresh after each growth). The memory
 * holds the tables, the fields area, then the bytes being read: one line's, or a whole chunk of the scanner's (read
 * line by line from there, copied once).
 */
class LineParser {
  readonly exports: ParserExports;
  /** The fields area and, after it, where each line is copied. */
  readonly fields: number;
  readonly line: number;
  bytes!: Uint8Array;
  /** The chunk whose bytes are at `line` (-1: one line's), and where its byte 0 is relative to `line`. */
  chunk = -1;
  shift = 0;
  i32!: Int32Array;
  f64!: Float64Array;

  constructor() {
    // Node started with --jitless has no WebAssembly at all: say so rather than fail on `WebAssembly.Instance`.
    if (typeof WebAssembly === 'undefined')
      throw new Error(
        "This Node.js runs without WebAssembly (started with --jitless, or with WebAssembly turned off), and Council's bias-record reader runs in it: start node without --jitless.",
      );
    this.exports = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(parseBiasLineWasm, 'base64')), {})
      .exports as ParserExports;
    const base = this.exports.heapBase();
    const keyTable = base;
    const metaTable = keyTable + 8 * keyLiterals.length;
    const metaOrder = metaTable + 8 * metaKeyLiterals.length;
    let at = metaOrder + 4 * metaKeyOrder.length;
    const literalsFrom = at;
    for (const literal of [...keyLiterals, ...metaKeyLiterals]) at += literal.length;
    this.fields = (at + 15) & ~15;
    this.line = this.fields + FIELDS_BYTES;
    this.reserve(this.line + 4096);
    const words = new Uint32Array(this.exports.memory.buffer);
    at = literalsFrom;
    const place = (table: number, literals: readonly Buffer[]): void => {
      literals.forEach((literal, k) => {
        words[(table >> 2) + 2 * k] = at;
        words[(table >> 2) + 2 * k + 1] = literal.length;
        this.bytes.set(literal, at);
        at += literal.length;
      });
    };
    place(keyTable, keyLiterals);
    place(metaTable, metaKeyLiterals);
    metaKeyOrder.forEach((k, n) => (words[(metaOrder >> 2) + n] = k));
    this.exports.setTables(
      keyTable,
      keyLiterals.length,
      metaTable,
      metaKeyLiterals.length,
      metaOrder,
      metaKeyOrder.length,
      displayOrderKey,
      categoryKey,
      requiredKeys,
      noRank,
      this.fields,
    );
  }

  /**
   * Copies `bytes` to `line`, followed by `PADDING` zeros: the bytes of the scanner's `chunk` (or of one line, its
   * chunk -1, copied for each line), whose byte `i` is then at `line + shift + i`.
   */
  place(bytes: Buffer, chunk: number, shift: number): void {
    const n = bytes.length;
    if (this.line + n + PADDING > this.bytes.length) this.reserve(this.line + n + PADDING);
    this.bytes.set(bytes, this.line);
    this.bytes.fill(0, this.line + n, this.line + n + PADDING);
    this.chunk = chunk;
    this.shift = shift;
  }

  /** Grows the memory to at least `bytes`, and makes the views afresh. */
  reserve(bytes: number): void {
    const { memory } = this.exports;
    const have = memory.buffer.byteLength;
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
    this.bytes = new Uint8Array(memory.buffer);
    this.i32 = new Int32Array(memory.buffer, this.fields, FIELDS_BYTES >> 2);
    this.f64 = new Float64Array(memory.buffer, this.fields, FIELDS_BYTES >> 3);
  }
}

let parser: LineParser | undefined;

/**
 * A reader of one bias record line for the common case, and only that: a JSON object whose keys are ADR-018's (any
 * order, any JSON whitespace), whose strings have no escapes or control characters, whose integers are plain digits,
 * and whose values all satisfy `biasMetricRecordSchema`. It fills
 * `out` and returns true, or returns false for anything else — an unknown or repeated key, an escape, `1e3`, a bad
 * value — so that the caller decides by `JSON.parse` and the schema. It never accepts a line the schema rejects, and
 * what it accepts decodes as the schema decodes it (a property test holds it to both). The caller has checked that
 * the bytes are valid UTF-8.
 *
 * The line is read by assembly/parse-bias-line.ts (WebAssembly: a cold report's 25,000 lines run compiled from the
 * first, where this reader in JavaScript ran in V8's interpreter): the line is copied into its memory, and the
 * offsets and values come back through its fields area. The timestamp's text is parsed here, and a score written
 * with an exponent or more than 15 digits is converted here by Number() (the module converts the others, as
 * Clinger's fast path: an integer below 2^53 divided by an exact power of ten, correctly rounded in f64).
 */
// eslint-disable-next-line max-params -- runs for every line: an options object per call would allocate millions of them
export function parseBiasLineFast(buf: Buffer, start: number, end: number, out: BiasLineFields): boolean {
  const p = (parser ??= new LineParser());
  p.place(buf.subarray(start, end), -1, -start);
  return readLine(p, buf, start, end, out);
}

/**
 * `parseBiasLineFast` for a line of the scanner: its chunk (`line.buf`, the same for every line of it, as
 * `line.chunk` says) is copied into the parser's memory once, for its first line, and each line is read from there.
 */
export function parseBiasLine(line: JsonlLine, out: BiasLineFields): boolean {
  const p = (parser ??= new LineParser());
  const { buf, start, end } = line;
  if (line.chunk !== p.chunk) p.place(buf, line.chunk, 0);
  return readLine(p, buf, start, end, out);
}

/** Reads the line [start, end) of `buf`, whose copy in the parser's memory starts at `p.line + p.shift + start`. */
// eslint-disable-next-line max-params -- runs for every line: an options object per call would allocate millions of them
function readLine(p: LineParser, buf: Buffer, start: number, end: number, out: BiasLineFields): boolean {
  const from = p.line + p.shift + start;
  if (p.exports.parse(from, from + (end - start)) === 0) {
    out.configStart = out.configEnd = -1;
    out.score = Number.NaN;
    out.rankPosition = noRank;
    return false;
  }
  const { i32, f64 } = p;
  out.sessionStart = start + i32[0]!;
  out.sessionEnd = start + i32[1]!;
  out.timeStart = start + i32[2]!;
  out.timeEnd = start + i32[3]!;
  out.reviewerStart = start + i32[4]!;
  out.reviewerEnd = start + i32[5]!;
  out.modelStart = start + i32[6]!;
  out.modelEnd = start + i32[7]!;
  const configStart = i32[8]!;
  out.configStart = configStart === -1 ? -1 : start + configStart;
  out.configEnd = configStart === -1 ? -1 : start + i32[9]!;
  out.position = f64[VALUES]!;
  out.responseLengthChars = f64[VALUES + 1]!;
  const scoreText = i32[13]!;
  if (scoreText === -1) {
    out.score = f64[VALUES + 2]!;
  } else {
    // An exponent or more than 15 digits: the module checked the grammar; Number() converts it as JSON.parse does.
    out.score = Number(buf.toString('latin1', start + scoreText, start + i32[14]!));
    if (!Number.isFinite(out.score)) return false;
  }
  out.rankPosition = f64[VALUES + 3]!;

  const parsed = parseTimestampBytes(buf, out.timeStart, out.timeEnd);
  if (parsed === null) return false;
  out.time = parsed.ms;
  out.hasZone = parsed.hasZone;
  out.positionIsDisplayOrder = i32[12] === 1;
  const categoryStart = i32[10]!;
  out.categoryStart = categoryStart === -1 ? -1 : start + categoryStart;
  out.categoryEnd = categoryStart === -1 ? -1 : start + i32[11]!;
  return true;
}

// The records of a session share one timestamp: remember the last one's bytes and its parse.
let lastTimestamp = knownBytes(Buffer.alloc(64), -1);
let lastParsed: ReturnType<typeof parseIsoTimestamp> = null;

function parseTimestampBytes(buf: Buffer, start: number, end: number): ReturnType<typeof parseIsoTimestamp> {
  const n = end - start;
  if (n === lastTimestamp.length && equalBytes(buf, start, lastTimestamp)) return lastParsed;
  lastParsed = parseIsoTimestamp(buf.toString('utf8', start, end));
  const bytes = n > lastTimestamp.bytes.length ? Buffer.alloc(n) : lastTimestamp.bytes;
  bytes.set(buf.subarray(start, end));
  lastTimestamp = knownBytes(bytes, n);
  return lastParsed;
}
