/**
 * The wait a response asks for, in milliseconds: `retry-after-ms` (OpenAI), then `Retry-After` as
 * delay-seconds or an HTTP-date (RFC 9110 §10.2.3). Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.max(0, Number(trimmed) * 1000);
  // An HTTP-date names its weekday and month; anything else (a negative number) is unreadable.
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
