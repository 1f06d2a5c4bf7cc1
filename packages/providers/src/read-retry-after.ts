import { parseRetryAfter } from './parse-retry-after.js';

/**
 * The wait an HTTP error response asks for, in milliseconds: OpenAI's `retry-after-ms` when it is a
 * number, else the standard `Retry-After` (`parseRetryAfter`). Undefined when neither is readable.
 */
export function readRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  return parseRetryAfter(headers.get('retry-after'), nowMs);
}
