import { noRank } from './bias-record-columns.js';
import { biasField, biasLineKeys, biasMetadataKeys, biasRecordFields } from './bias-record-fields.js';
import { equalBytes, knownBytes } from './equal-bytes.js';
import type { KnownBytes } from './equal-bytes.js';
import { parseIsoTimestamp } from './iso-timestamp.js';

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// Bit of each top-level key, in the order this package writes them (bias-record-fields.ts): the cases 0–13 of
// `parseBiasLineFast`'s switch, by index (parse-bias-line.test.ts holds the table's first fourteen keys to this order).
// A key the switch does not know — a field added to the table after these — sends its line to the slow path.
const keys = biasLineKeys.map((name) => Buffer.from(name, 'latin1'));
// Each key as this package writes it, quotes and colon included: `"<key>":`.
const keyLiterals = keys.map((key) => knownBytes(Buffer.from(`"${key.toString('latin1')}":`, 'latin1')));
const metaKeys = biasMetadataKeys.map((name) => Buffer.from(name, 'latin1'));
const metaKeyLiterals = metaKeys.map((key) => knownBytes(Buffer.from(`"${key.toString('latin1')}":`, 'latin1')));
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

// eslint-disable-next-line max-params -- runs for every key of every line: an options object per call would allocate millions of them
function sameBytes(buf: Buffer, start: number, end: number, key: Buffer): boolean {
  const n = key.length;
  if (end - start !== n) return false;
  for (let i = 0; i < n; i++) if (buf[start + i] !== key[i]) return false;
  return true;
}

// eslint-disable-next-line max-params -- runs for every key of every line: an options object per call would allocate millions of them
function keyIndex(table: readonly Buffer[], buf: Buffer, start: number, end: number, expected: number): number {
  if (expected >= 0 && expected < table.length && sameBytes(buf, start, end, table[expected]!)) return expected;
  for (let k = 0; k < table.length; k++) if (sameBytes(buf, start, end, table[k]!)) return k;
  return -1;
}

// Scratch results of the readers below (module state rather than closures: this runs two million times a second).
let strStart = 0;
let strEnd = 0;
let intValue = 0;
let numberValue = 0;
let categoryStart = -1;
let categoryEnd = -1;

function ws(buf: Buffer, at: number, end: number): number {
  let c = buf[at];
  while (at < end && (c === 0x20 || c === 0x09 || c === 0x0d)) c = buf[++at];
  return at;
}

/** A string with no escape or control byte (those go to JSON.parse); its content is [strStart, strEnd). Returns -1 otherwise. */
function str(buf: Buffer, at: number, end: number): number {
  if (buf[at] !== QUOTE) return -1;
  let j = at + 1;
  for (; j < end; j++) {
    const c = buf[j]!;
    if (c === QUOTE) break;
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  if (j >= end) return -1;
  strStart = at + 1;
  strEnd = j;
  return j + 1;
}

/** Whether `literal` (a key with its quotes and colon) stands at `at`: the usual line, read in one compare a byte. */
function literalAt(buf: Buffer, at: number, literal: KnownBytes): boolean {
  return equalBytes(buf, at, literal);
}

/** A non-negative integer written as plain digits, at most 15 of them (always a safe integer), into intValue. */
function int(buf: Buffer, at: number, end: number): number {
  let j = at;
  let value = 0;
  while (j < end) {
    const c = buf[j]!;
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + (c - 0x30);
    j++;
  }
  const digits = j - at;
  if (digits === 0 || digits > 15 || (digits > 1 && buf[at] === 0x30)) return -1;
  const next = buf[j];
  if (next === 0x2e || next === 0x65 || next === 0x45) return -1; // 2.0 or 2e0: let JSON.parse decide
  intValue = value;
  return j;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

const powersOfTen = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** Any JSON number, checked against JSON's grammar and converted as JSON.parse converts it, into numberValue. */
function num(buf: Buffer, at: number, end: number): number {
  let j = at;
  const negative = buf[j] === 0x2d;
  if (negative) j++;
  const intFrom = j;
  let mantissa = 0;
  while (j < end && isDigit(buf[j])) mantissa = mantissa * 10 + (buf[j++]! - 0x30);
  if (j === intFrom || (j - intFrom > 1 && buf[intFrom] === 0x30)) return -1;
  let digits = j - intFrom;
  let fraction = 0;
  if (buf[j] === 0x2e) {
    const from = ++j;
    while (j < end && isDigit(buf[j])) mantissa = mantissa * 10 + (buf[j++]! - 0x30);
    fraction = j - from;
    if (fraction === 0) return -1;
    digits += fraction;
  }
  if (buf[j] === 0x65 || buf[j] === 0x45) {
    j++;
    if (buf[j] === 0x2b || buf[j] === 0x2d) j++;
    const from = j;
    while (j < end && isDigit(buf[j])) j++;
    if (j === from) return -1;
    digits = 99; // an exponent: let Number convert the text
  }
  if (digits <= 15) {
    // Clinger's fast path: an integer below 2^53 divided by an exact power of ten rounds once, exactly as parsing does.
    const value = fraction === 0 ? mantissa : mantissa / powersOfTen[fraction]!;
    numberValue = negative ? -value : value;
    return j;
  }
  numberValue = Number(buf.toString('latin1', at, j));
  return Number.isFinite(numberValue) ? j : -1;
}

function isNull(buf: Buffer, at: number): boolean {
  return buf[at] === 0x6e && buf[at + 1] === 0x75 && buf[at + 2] === 0x6c && buf[at + 3] === 0x6c;
}

/** A single digit 0–4 standing alone (`consentLevel`), or the integer 1 when `max` is 1 (`schemaVersion`). */
function smallDigit(buf: Buffer, at: number, max: number): boolean {
  const c = buf[at];
  const next = buf[at + 1];
  return (
    c !== undefined &&
    c >= 0x30 &&
    c <= 0x30 + max &&
    (max !== 1 || c === 0x31) &&
    !isDigit(next) &&
    next !== 0x2e &&
    next !== 0x65 &&
    next !== 0x45
  );
}

function queryMetadata(buf: Buffer, at: number, end: number): number {
  if (isNull(buf, at)) return at + 4;
  if (buf[at] !== 0x7b) return -1;
  let j = ws(buf, at + 1, end);
  let metaSeen = 0;
  if (buf[j] === 0x7d) return j + 1;
  for (let expected = 0; ; expected++) {
    let k: number;
    const literal = expected < metaKeyOrder.length ? metaKeyLiterals[metaKeyOrder[expected]!]! : null;
    if (literal !== null && j + literal.length <= end && literalAt(buf, j, literal)) {
      k = metaKeyOrder[expected]!;
      j += literal.length;
    } else {
      j = str(buf, j, end);
      if (j < 0) return -1;
      k = keyIndex(metaKeys, buf, strStart, strEnd, -1);
      if (k < 0) return -1;
      j = ws(buf, j, end);
      if (buf[j] !== 0x3a) return -1;
      j++;
    }
    if ((metaSeen & (1 << k)) !== 0) return -1;
    metaSeen |= 1 << k;
    j = ws(buf, j, end);
    if (isNull(buf, j)) {
      j += 4;
    } else {
      j = str(buf, j, end);
      if (j < 0) return -1;
      if (k === categoryKey) {
        categoryStart = strStart;
        categoryEnd = strEnd;
      }
    }
    j = ws(buf, j, end);
    if (buf[j] === 0x7d) return j + 1;
    if (buf[j] !== 0x2c) return -1;
    j = ws(buf, j + 1, end);
  }
}

/**
 * A hand-written reader of one bias record line for the common case, and only that: a JSON object whose
 * keys are ADR-018's (any order, any JSON whitespace), whose strings have no escapes or control characters, whose integers are
 * plain digits, and whose values all satisfy `biasMetricRecordSchema`. It fills `out` and returns true, or
 * returns false for anything else — an unknown or repeated key, an escape, `1e3`, a bad value — so that
 * the caller decides by `JSON.parse` and the schema. It never accepts a line the schema rejects, and what
 * it accepts decodes as the schema decodes it (a property test holds it to both). The caller has checked
 * that the bytes are valid UTF-8.
 */
// eslint-disable-next-line max-params -- runs for every line: an options object per call would allocate millions of them
export function parseBiasLineFast(buf: Buffer, start: number, end: number, out: BiasLineFields): boolean {
  if (end > start && buf[end - 1] === 0x0d) end--; // a CR before the newline is whitespace
  let i = start;
  let seen = 0;
  let rankSeen = false;
  let minor = 0;
  categoryStart = categoryEnd = -1;
  out.configStart = out.configEnd = -1;
  out.score = Number.NaN;
  out.rankPosition = noRank;

  i = ws(buf, i, end);
  if (buf[i] !== 0x7b) return false;
  i = ws(buf, i + 1, end);
  for (let expected = 0; ; expected++) {
    let k: number;
    const literal = expected < keyLiterals.length ? keyLiterals[expected]! : null;
    if (literal !== null && i + literal.length <= end && literalAt(buf, i, literal)) {
      k = expected;
      i += literal.length;
    } else {
      i = str(buf, i, end);
      if (i < 0) return false;
      k = keyIndex(keys, buf, strStart, strEnd, -1);
      if (k < 0) return false;
      i = ws(buf, i, end);
      if (buf[i] !== 0x3a) return false;
      i++;
    }
    if ((seen & (1 << k)) !== 0) return false;
    seen |= 1 << k;
    i = ws(buf, i, end);
    switch (k) {
      case 0: {
        // schemaVersion: the integer 1 or "1", "1.x", "1.x.y".
        if (smallDigit(buf, i, 1)) {
          i++;
          break;
        }
        i = str(buf, i, end);
        if (i < 0 || buf[strStart] !== 0x31) return false;
        let j = strStart + 1;
        let parts = 0;
        while (j < strEnd) {
          if (buf[j] !== 0x2e || ++parts > 2) return false;
          const from = ++j;
          let value = 0;
          while (j < strEnd && buf[j]! >= 0x30 && buf[j]! <= 0x39) value = value * 10 + (buf[j++]! - 0x30);
          if (j === from || j - from > 9) return false;
          if (parts === 1) minor = value;
        }
        break;
      }
      case 1: // sessionId
        i = str(buf, i, end);
        if (i < 0 || strEnd === strStart) return false;
        out.sessionStart = strStart;
        out.sessionEnd = strEnd;
        break;
      case 2: // timestamp
        i = str(buf, i, end);
        if (i < 0) return false;
        out.timeStart = strStart;
        out.timeEnd = strEnd;
        break;
      case 3: // consentLevel
        if (isNull(buf, i)) i += 4;
        else if (smallDigit(buf, i, 4)) i++;
        else return false;
        break;
      case 4: // queryMetadata
        i = queryMetadata(buf, i, end);
        if (i < 0) return false;
        break;
      case 5: // reviewerId, modelId
      case 6:
        i = str(buf, i, end);
        if (i < 0 || strEnd === strStart) return false;
        if (k === 5) {
          out.reviewerStart = strStart;
          out.reviewerEnd = strEnd;
        } else {
          out.modelStart = strStart;
          out.modelEnd = strEnd;
        }
        break;
      case 7: // position, responseLengthChars
      case 8:
        i = int(buf, i, end);
        if (i < 0 || intValue >= noRank) return false;
        if (k === 7) out.position = intValue;
        else out.responseLengthChars = intValue;
        break;
      case 9: // scoreValue
        if (isNull(buf, i)) {
          i += 4;
        } else {
          i = num(buf, i, end);
          if (i < 0) return false;
          out.score = numberValue;
        }
        break;
      case 10: // scoreScale, councilConfigVersion
      case 11:
        if (isNull(buf, i)) {
          i += 4;
        } else {
          i = str(buf, i, end);
          if (i < 0) return false;
          if (k === 11) {
            out.configStart = strStart;
            out.configEnd = strEnd;
          }
        }
        break;
      case 12: // queryHash
        if (isNull(buf, i)) {
          i += 4;
        } else {
          i = str(buf, i, end);
          if (i < 0 || strEnd - strStart !== 16) return false;
          for (let j = strStart; j < strEnd; j++) {
            const c = buf[j]!;
            if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
          }
        }
        break;
      case 13: // rankPosition
        rankSeen = true;
        if (isNull(buf, i)) {
          i += 4;
        } else {
          i = int(buf, i, end);
          if (i < 0 || intValue >= noRank) return false;
          out.rankPosition = intValue;
        }
        break;
      default:
        // positionIsDisplayOrder, wherever the table puts it (derived: the value is checked, not kept); any other key
        // (a field added to the table and not to this switch) leaves the line to the slow path.
        if (k !== displayOrderKey) return false;
        if (buf[i] === 0x74 && buf[i + 1] === 0x72 && buf[i + 2] === 0x75 && buf[i + 3] === 0x65) i += 4;
        else if (
          buf[i] === 0x66 &&
          buf[i + 1] === 0x61 &&
          buf[i + 2] === 0x6c &&
          buf[i + 3] === 0x73 &&
          buf[i + 4] === 0x65
        )
          i += 5;
        else return false;
    }
    i = ws(buf, i, end);
    if (buf[i] === 0x7d) {
      i = ws(buf, i + 1, end);
      break;
    }
    if (buf[i] !== 0x2c) return false;
    i = ws(buf, i + 1, end);
  }
  if (i !== end || (seen & requiredKeys) !== requiredKeys) return false;

  const parsed = parseTimestampBytes(buf, out.timeStart, out.timeEnd);
  if (parsed === null) return false;
  out.time = parsed.ms;
  out.hasZone = parsed.hasZone;
  out.positionIsDisplayOrder = rankSeen || minor >= 2;
  out.categoryStart = categoryStart;
  out.categoryEnd = categoryEnd;
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
