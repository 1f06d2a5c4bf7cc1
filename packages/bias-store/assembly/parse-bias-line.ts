// The bias record line's fast parser, in AssemblyScript (compiled to WebAssembly by `pnpm build:wasm`; the bytes are
// inlined into src/internal/parse-bias-line-wasm.ts). A cold report reads 25,000 lines once each: as JavaScript the
// reader ran in V8's interpreter for most of them; as WebAssembly it runs compiled from the first line.
//
// The field names are not written here (they live in src/bias-record-fields.ts): src/parse-bias-line.ts writes the
// key literals into this module's memory at instantiation and hands their addresses to `setTables`. The line is
// copied into memory by the caller, followed by at least 8 zero bytes (the readers below look up to 5 bytes past a
// value before the line's end is checked, as the JavaScript did on its chunk's next bytes; a zero byte is never a
// JSON token, so such a look decides nothing). `parse` writes what it found into the fields area (see `FIELD_…`).
// A number of more than 15 digits or with an exponent is not converted here (that is Number()'s work, left to the
// caller on its text): the rest, Clinger's fast path, gives the same double as JavaScript.

const QUOTE: u32 = 0x22;
const BACKSLASH: u32 = 0x5c;

// ---- The fields area: i32 byte offsets (relative to the line's copy) at `fields + 4 × FIELD_…`, then f64 values at
// `fields + 64 + 8 × VALUE_…` (src/parse-bias-line.ts reads them in this order).
const FIELD_SESSION_START = 0;
const FIELD_SESSION_END = 1;
const FIELD_TIME_START = 2;
const FIELD_TIME_END = 3;
const FIELD_REVIEWER_START = 4;
const FIELD_REVIEWER_END = 5;
const FIELD_MODEL_START = 6;
const FIELD_MODEL_END = 7;
const FIELD_CONFIG_START = 8;
const FIELD_CONFIG_END = 9;
const FIELD_LABEL_START = 10;
const FIELD_LABEL_END = 11;
const FIELD_DISPLAY_ORDER = 12;
const FIELD_SCORE_TEXT_START = 13; // -1 unless the score is left to the caller's Number() (see `num`)
const FIELD_SCORE_TEXT_END = 14;
const VALUE_POSITION = 0;
const VALUE_LENGTH = 1;
const VALUE_SCORE = 2;
const VALUE_RANK = 3;

// ---- The tables (set once by `setTables`): each key table is `count` pairs of u32 (address, length) of the key
// literals `"<key>":`, in the order of bias-record-fields.ts; `metaOrder` is the order this package writes the
// metadata keys in (indices into the metadata table).
let keyTable: usize = 0;
let keyCount: i32 = 0;
let metaTable: usize = 0;
let metaCount: i32 = 0;
let metaOrder: usize = 0;
let metaOrderCount: i32 = 0;
let displayOrderKey: i32 = -1;
let labelKey: i32 = -1;
let requiredKeys: i32 = 0;
let noRank: f64 = 0;
let fields: usize = 0;

// Scratch results of the readers below.
let strStart: usize = 0;
let strEnd: usize = 0;
let intValue: f64 = 0;
let numberValue: f64 = 0;
let numberIsText = false;
let labelStart: usize = 0; // 0: none (a line's copy never starts at address 0)
let labelEnd: usize = 0;

export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

export function setTables(
  keys: usize,
  keysN: i32,
  metaKeys: usize,
  metaN: i32,
  order: usize,
  orderN: i32,
  displayOrder: i32,
  label: i32,
  required: i32,
  none: f64,
  fieldsArea: usize,
): void {
  keyTable = keys;
  keyCount = keysN;
  metaTable = metaKeys;
  metaCount = metaN;
  metaOrder = order;
  metaOrderCount = orderN;
  displayOrderKey = displayOrder;
  labelKey = label;
  requiredKeys = required;
  noRank = none;
  fields = fieldsArea;
}

function at(p: usize): u32 {
  return <u32>load<u8>(p);
}

function literalAddress(table: usize, k: i32): usize {
  return <usize>load<u32>(table + ((<usize>k) << 3));
}

function literalLength(table: usize, k: i32): usize {
  return <usize>load<u32>(table + ((<usize>k) << 3) + 4);
}

function ws(p: usize, end: usize): usize {
  let c = at(p);
  while (p < end && (c == 0x20 || c == 0x09 || c == 0x0d)) c = at(++p);
  return p;
}

// Eight bytes at a time (SWAR): the high bit of a byte of `(x - ONES) & ~x & HIGHS` is set for the lowest zero byte
// of x, if any (higher ones may be flagged wrongly, never missed: a borrow only comes from a byte below that is zero).
const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

/** Whether any of the 8 bytes of `v` is a quote, a backslash or below 0x20 (a control byte); may say yes wrongly. */
function anySpecial(v: u64): bool {
  const q = v ^ 0x2222222222222222;
  const b = v ^ 0x5c5c5c5c5c5c5c5c;
  return ((((q - ONES) & ~q) | ((b - ONES) & ~b) | ((v - 0x2020202020202020) & ~v)) & HIGHS) != 0;
}

/** A string with no escape or control byte; its content is [strStart, strEnd). Returns 0 otherwise (never a line's address). */
function str(p: usize, end: usize): usize {
  if (at(p) != QUOTE) return 0;
  let j = p + 1;
  // Past the bytes that cannot end the string, eight at a time; the loop below finds which one stopped this.
  while (j + 8 <= end && !anySpecial(load<u64>(j))) j += 8;
  for (; j < end; j++) {
    const c = at(j);
    if (c == QUOTE) break;
    if (c == BACKSLASH || c < 0x20) return 0;
  }
  if (j >= end) return 0;
  strStart = p + 1;
  strEnd = j;
  return j + 1;
}

/** Whether the `n` bytes at `a` and at `b` are the same: eight at a time, then one at a time. */
function sameBytes(a: usize, b: usize, n: usize): bool {
  let k: usize = 0;
  for (; k + 8 <= n; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < n; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/** Whether the literal `k` of `table` stands at `p`, wholly before `end`. */
function literalAt(table: usize, k: i32, p: usize, end: usize): bool {
  const n = literalLength(table, k);
  if (p + n > end) return false;
  return sameBytes(p, literalAddress(table, k), n);
}

/** The key of `table` whose name (its literal without quotes and colon) is [from, to), or -1. */
function keyIndex(table: usize, count: i32, from: usize, to: usize): i32 {
  for (let k = 0; k < count; k++) {
    const n = literalLength(table, k) - 3;
    if (to - from == n && sameBytes(from, literalAddress(table, k) + 1, n)) return k;
  }
  return -1;
}

/** A non-negative integer written as plain digits, at most 15 of them, into intValue. Returns 0 otherwise. */
function int(p: usize, end: usize): usize {
  let j = p;
  let value: f64 = 0;
  while (j < end) {
    const c = at(j);
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + <f64>(c - 0x30);
    j++;
  }
  const digits = j - p;
  if (digits == 0 || digits > 15 || (digits > 1 && at(p) == 0x30)) return 0;
  const next = at(j);
  if (next == 0x2e || next == 0x65 || next == 0x45) return 0; // 2.0 or 2e0: let JSON.parse decide
  intValue = value;
  return j;
}

function isDigit(c: u32): bool {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Any JSON number, checked against JSON's grammar. One of at most 15 digits and no exponent is converted as JSON.parse
 * converts it, into numberValue; any other (an exponent, or more digits) is not converted here: numberIsText says so,
 * and the caller converts its text with Number(), as JSON.parse would. Returns 0 for what is not a JSON number.
 */
function num(p: usize, end: usize): usize {
  let j = p;
  const negative = at(j) == 0x2d;
  if (negative) j++;
  const intFrom = j;
  let mantissa: f64 = 0;
  while (j < end && isDigit(at(j))) mantissa = mantissa * 10 + <f64>(at(j++) - 0x30);
  if (j == intFrom || (j - intFrom > 1 && at(intFrom) == 0x30)) return 0;
  let digits = <i32>(j - intFrom);
  let fraction: i32 = 0;
  if (at(j) == 0x2e) {
    const from = ++j;
    while (j < end && isDigit(at(j))) mantissa = mantissa * 10 + <f64>(at(j++) - 0x30);
    fraction = <i32>(j - from);
    if (fraction == 0) return 0;
    digits += fraction;
  }
  if (at(j) == 0x65 || at(j) == 0x45) {
    j++;
    if (at(j) == 0x2b || at(j) == 0x2d) j++;
    const from = j;
    while (j < end && isDigit(at(j))) j++;
    if (j == from) return 0;
    digits = 99; // an exponent: the caller converts the text
  }
  numberIsText = digits > 15;
  if (numberIsText) return j;
  // Clinger's fast path: an integer below 2^53 divided by an exact power of ten rounds once, exactly as parsing does.
  let power: f64 = 1;
  for (let f = 0; f < fraction; f++) power *= 10; // exact: every 10^f for f ≤ 15 is an integer below 2^53
  const value = fraction == 0 ? mantissa : mantissa / power;
  numberValue = negative ? -value : value;
  return j;
}

function isNull(p: usize): bool {
  return at(p) == 0x6e && at(p + 1) == 0x75 && at(p + 2) == 0x6c && at(p + 3) == 0x6c;
}

/** A single digit 0–`max` standing alone, or the integer 1 when `max` is 1. */
function smallDigit(p: usize, max: u32): bool {
  const c = at(p);
  const next = at(p + 1);
  return (
    c >= 0x30 &&
    c <= 0x30 + max &&
    (max != 1 || c == 0x31) &&
    !isDigit(next) &&
    next != 0x2e &&
    next != 0x65 &&
    next != 0x45
  );
}

/** The metadata object (or null), from `p`; returns the byte after it, or 0. */
function metadata(p: usize, end: usize): usize {
  if (isNull(p)) return p + 4;
  if (at(p) != 0x7b) return 0;
  let j = ws(p + 1, end);
  let metaSeen: i32 = 0;
  if (at(j) == 0x7d) return j + 1;
  for (let expected = 0; ; expected++) {
    let k: i32;
    const usual = expected < metaOrderCount ? load<i32>(metaOrder + ((<usize>expected) << 2)) : -1;
    if (usual >= 0 && literalAt(metaTable, usual, j, end)) {
      k = usual;
      j += literalLength(metaTable, usual);
    } else {
      j = str(j, end);
      if (j == 0) return 0;
      k = keyIndex(metaTable, metaCount, strStart, strEnd);
      if (k < 0) return 0;
      j = ws(j, end);
      if (at(j) != 0x3a) return 0;
      j++;
    }
    if ((metaSeen & (1 << k)) != 0) return 0;
    metaSeen |= 1 << k;
    j = ws(j, end);
    if (isNull(j)) {
      j += 4;
    } else {
      j = str(j, end);
      if (j == 0) return 0;
      if (k == labelKey) {
        labelStart = strStart;
        labelEnd = strEnd;
      }
    }
    j = ws(j, end);
    if (at(j) == 0x7d) return j + 1;
    if (at(j) != 0x2c) return 0;
    j = ws(j + 1, end);
  }
  return 0; // not reached: the loop returns
}

function setField(field: i32, value: i32): void {
  store<i32>(fields + ((<usize>field) << 2), value);
}

function setValue(value: i32, x: f64): void {
  store<f64>(fields + 64 + ((<usize>value) << 3), x);
}

/**
 * Reads the line [start, end) (its copy in memory, at a non-zero address) as src/parse-bias-line.ts describes
 * `parseBiasLineFast`: 1 with the fields area filled (offsets relative to `start`), or 0 for anything else. The
 * cases 0–13 are the first fourteen keys of bias-record-fields.ts's table, by index. The time's text is left
 * to the caller.
 */
export function parse(start: usize, end: usize): i32 {
  if (end > start && at(end - 1) == 0x0d) end--; // a CR before the newline is whitespace
  let i = start;
  let seen: i32 = 0;
  let rankSeen = false;
  let minor: i64 = 0;
  let configStart: i32 = -1;
  let configEnd: i32 = -1;
  let rank: f64 = noRank;
  let score: f64 = NaN;
  let scoreText: usize = 0;
  let scoreTextEnd: usize = 0;
  labelStart = labelEnd = 0;

  i = ws(i, end);
  if (at(i) != 0x7b) return 0;
  i = ws(i + 1, end);
  for (let expected = 0; ; expected++) {
    let k: i32;
    if (expected < keyCount && literalAt(keyTable, expected, i, end)) {
      k = expected;
      i += literalLength(keyTable, expected);
    } else {
      i = str(i, end);
      if (i == 0) return 0;
      k = keyIndex(keyTable, keyCount, strStart, strEnd);
      if (k < 0) return 0;
      i = ws(i, end);
      if (at(i) != 0x3a) return 0;
      i++;
    }
    if ((seen & (1 << k)) != 0) return 0;
    seen |= 1 << k;
    i = ws(i, end);
    switch (k) {
      case 0: {
        // The schema's version: the integer 1 or "1", "1.x", "1.x.y".
        if (smallDigit(i, 1)) {
          i++;
          break;
        }
        i = str(i, end);
        if (i == 0 || at(strStart) != 0x31) return 0;
        let j = strStart + 1;
        let parts = 0;
        while (j < strEnd) {
          if (at(j) != 0x2e || ++parts > 2) return 0;
          const from = ++j;
          let value: i64 = 0;
          while (j < strEnd && isDigit(at(j))) value = value * 10 + <i64>(at(j++) - 0x30);
          if (j == from || j - from > 9) return 0;
          if (parts == 1) minor = value;
        }
        break;
      }
      case 1: // the session: a non-empty string
        i = str(i, end);
        if (i == 0 || strEnd == strStart) return 0;
        setField(FIELD_SESSION_START, <i32>(strStart - start));
        setField(FIELD_SESSION_END, <i32>(strEnd - start));
        break;
      case 2: // the time: a string (its text is parsed by the caller)
        i = str(i, end);
        if (i == 0) return 0;
        setField(FIELD_TIME_START, <i32>(strStart - start));
        setField(FIELD_TIME_END, <i32>(strEnd - start));
        break;
      case 3: // the consent level: null or a digit 0–4
        if (isNull(i)) i += 4;
        else if (smallDigit(i, 4)) i++;
        else return 0;
        break;
      case 4: // the metadata object
        i = metadata(i, end);
        if (i == 0) return 0;
        break;
      case 5: // the reviewer and the model judged: non-empty strings
      case 6:
        i = str(i, end);
        if (i == 0 || strEnd == strStart) return 0;
        setField(k == 5 ? FIELD_REVIEWER_START : FIELD_MODEL_START, <i32>(strStart - start));
        setField(k == 5 ? FIELD_REVIEWER_END : FIELD_MODEL_END, <i32>(strEnd - start));
        break;
      case 7: // the place the answer was shown at and its length: integers below noRank
      case 8:
        i = int(i, end);
        if (i == 0 || intValue >= noRank) return 0;
        setValue(k == 7 ? VALUE_POSITION : VALUE_LENGTH, intValue);
        break;
      case 9: // the score: null or a number
        if (isNull(i)) {
          i += 4;
        } else {
          const from = i;
          i = num(i, end);
          if (i == 0) return 0;
          score = numberValue;
          if (numberIsText) {
            scoreText = from;
            scoreTextEnd = i;
          }
        }
        break;
      case 10: // the scale and the council's configuration version: null or a string
      case 11:
        if (isNull(i)) {
          i += 4;
        } else {
          i = str(i, end);
          if (i == 0) return 0;
          if (k == 11) {
            configStart = <i32>(strStart - start);
            configEnd = <i32>(strEnd - start);
          }
        }
        break;
      case 12: // the query's hash: null or 16 lowercase hex digits
        if (isNull(i)) {
          i += 4;
        } else {
          i = str(i, end);
          if (i == 0 || strEnd - strStart != 16) return 0;
          for (let j = strStart; j < strEnd; j++) {
            const c = at(j);
            if (!(isDigit(c) || (c >= 0x61 && c <= 0x66))) return 0;
          }
        }
        break;
      case 13: // the rank: null or an integer below noRank
        rankSeen = true;
        if (isNull(i)) {
          i += 4;
        } else {
          i = int(i, end);
          if (i == 0 || intValue >= noRank) return 0;
          rank = intValue;
        }
        break;
      default:
        // The derived display-order flag, wherever the table puts it (the value is checked, not kept); any other key
        // (a field added to the table and not to this switch) leaves the line to the slow path.
        if (k != displayOrderKey) return 0;
        if (at(i) == 0x74 && at(i + 1) == 0x72 && at(i + 2) == 0x75 && at(i + 3) == 0x65) i += 4;
        else if (at(i) == 0x66 && at(i + 1) == 0x61 && at(i + 2) == 0x6c && at(i + 3) == 0x73 && at(i + 4) == 0x65)
          i += 5;
        else return 0;
    }
    i = ws(i, end);
    if (at(i) == 0x7d) {
      i = ws(i + 1, end);
      break;
    }
    if (at(i) != 0x2c) return 0;
    i = ws(i + 1, end);
  }
  if (i != end || (seen & requiredKeys) != requiredKeys) return 0;

  setField(FIELD_CONFIG_START, configStart);
  setField(FIELD_CONFIG_END, configEnd);
  setField(FIELD_LABEL_START, labelStart == 0 ? -1 : <i32>(labelStart - start));
  setField(FIELD_LABEL_END, labelStart == 0 ? -1 : <i32>(labelEnd - start));
  setField(FIELD_DISPLAY_ORDER, rankSeen || minor >= 2 ? 1 : 0);
  setField(FIELD_SCORE_TEXT_START, scoreText == 0 ? -1 : <i32>(scoreText - start));
  setField(FIELD_SCORE_TEXT_END, scoreText == 0 ? -1 : <i32>(scoreTextEnd - start));
  setValue(VALUE_SCORE, score);
  setValue(VALUE_RANK, rank);
  return 1;
}
