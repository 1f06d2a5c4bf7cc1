import { isUtf8 } from 'node:buffer';
import type * as z from 'zod';
import { describeZodError } from './describe-zod-error.js';
import type { JsonlLine } from './jsonl-line-splitter.js';
import { majorOf } from './major-version.js';
import type { SkipReason } from './skip-report.js';

/** What a blank (or white-space) line decodes to: nothing, and no skip either. */
export const blankLine: unique symbol = Symbol('blank line');

/** Why a line could not be decoded (a class, so a decoded item is told apart without a wrapper object). */
export class LineProblem {
  constructor(
    readonly reason: SkipReason,
    readonly detail: string,
  ) {}
}

/** An unterminated last line that does not decode: a crash mid-write, or a write in flight. */
export const tornLine: LineProblem = new LineProblem(
  'torn_line',
  'the last line has no newline and does not parse (a write was interrupted)',
);

export type DecodedLine<T> = T | LineProblem | typeof blankLine;

/** How a store turns a line's JSON into an item (see `JsonlStoreOptions`). */
export interface LineDecoding<T> {
  schema: z.ZodType<T>;
  version?: { field: string; major: number } | undefined;
  fastDecode?: ((raw: Record<string, unknown>) => T | undefined) | undefined;
}

/** Returns a decoder of one line: its item, why it is skipped, or `blankLine`. */
export function lineDecoder<T>(decoding: LineDecoding<T>): (line: JsonlLine) => DecodedLine<T> {
  return (line) => {
    const text = line.buf.toString('utf8', line.start, line.end);
    if (!line.utf8 && text.includes('\uFFFD') && !isUtf8(line.buf.subarray(line.start, line.end)))
      return new LineProblem('invalid_utf8', 'the line is not valid UTF-8');
    const first = text.charCodeAt(0);
    if ((Number.isNaN(first) || first <= 0x20) && text.trim() === '') return blankLine;
    const raw = parseObject(text);
    if (raw instanceof LineProblem) return raw;
    return versionProblem(raw, decoding.version) ?? decodeObject(raw, decoding);
  };
}

function parseObject(text: string): Record<string, unknown> | LineProblem {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the input, so it is not repeated here.
    return new LineProblem('invalid_json', 'the line is not valid JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return new LineProblem('invalid_record', 'the line is not a JSON object');
  return raw as Record<string, unknown>;
}

/** Another major version than the store reads, or undefined (no version rule, or a version it reads). */
function versionProblem(
  raw: Record<string, unknown>,
  version: LineDecoding<unknown>['version'],
): LineProblem | undefined {
  if (version === undefined) return undefined;
  const value = raw[version.field];
  const major = majorOf(value);
  if (major === null || major === version.major) return undefined;
  const shown = JSON.stringify(typeof value === 'string' && value.length > 20 ? `${value.slice(0, 20)}…` : value);
  return new LineProblem(
    'unsupported_version',
    `${version.field} ${shown} has major version ${major}; this reader understands major ${version.major}`,
  );
}

function decodeObject<T>(raw: Record<string, unknown>, decoding: LineDecoding<T>): T | LineProblem {
  if (decoding.fastDecode !== undefined) {
    const fast = decoding.fastDecode(raw);
    if (fast !== undefined) return fast;
  }
  const result = decoding.schema.safeDecode(raw);
  if (!result.success) return new LineProblem('invalid_record', describeZodError(result.error));
  return result.data;
}
