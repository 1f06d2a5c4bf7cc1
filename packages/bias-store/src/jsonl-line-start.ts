import type { JsonlLine } from './jsonl-line-splitter.js';

/**
 * Where a bias record's line starts, as `readBiasRecords` and the DuckDB engine's copy of its rules
 * (`classifyBiasLine`) both judge it: a byte-order mark some Windows editors put before a file's first line is not
 * part of the record, and a line of nothing but spaces, tabs and carriage returns is blank (passed over, not counted).
 */

/** Moves `line.start` past a UTF-8 byte-order mark on a file's first line. */
export function skipByteOrderMark(line: JsonlLine): void {
  if (
    line.line === 1 &&
    line.buf[line.start] === 0xef &&
    line.buf[line.start + 1] === 0xbb &&
    line.buf[line.start + 2] === 0xbf
  )
    line.start += 3;
}

/** True when the line holds nothing but spaces, tabs and carriage returns. */
export function isBlankLine(line: JsonlLine): boolean {
  const { buf, start, end } = line;
  let first = start;
  while (first < end && (buf[first] === 0x20 || buf[first] === 0x09 || buf[first] === 0x0d)) first++;
  return first === end;
}
