const isoPattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A parsed ISO 8601 date-time: epoch milliseconds and whether the text carried a zone. */
export interface ParsedTimestamp {
  ms: number;
  hasZone: boolean;
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month === 2 && ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0)) return 29;
  return monthDays[month - 1]!;
}

/**
 * Parses an ISO 8601 date-time (`2025-12-17T10:30:00Z`, `…00.123456+00:00`, `…00+0100`, or with no zone).
 * Text without a zone is read as UTC and reported through `hasZone: false`. Returns null for anything
 * else, including impossible dates such as 30 February (which `Date.parse` would roll over).
 */
export function parseIsoTimestamp(text: string): ParsedTimestamp | null {
  // The records of one session share a timestamp, so a one-entry cache saves most of the work on read.
  if (text === lastText) return lastResult;
  const result = parseUncached(text);
  lastText = text;
  lastResult = result;
  return result;
}

let lastText: string | undefined;
let lastResult: ParsedTimestamp | null = null;

function parseUncached(text: string): ParsedTimestamp | null {
  const m = isoPattern.exec(text);
  if (m === null) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
    return null;
  const fraction = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    ms -= sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return { ms, hasZone: zone !== undefined };
}
