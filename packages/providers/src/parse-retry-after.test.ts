import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

const now = Date.UTC(2026, 10, 22, 0, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('reads an HTTP-date as the time left until it, and a past date as 0', () => {
    // 2026-11-22 00:00:30 GMT is 30 s after `now`.
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 23:00:00 GMT', now)).toBe(0);
  });

  it('reads the two obsolete HTTP-date formats that RFC 9110 §5.6.7 says recipients must accept', () => {
    // rfc850-date, two-digit year: 26 is 2026 (not more than 50 years ahead); asctime-date is GMT without saying so.
    expect(parseRetryAfter('Sunday, 22-Nov-26 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun Nov 22 00:00:45 2026', now)).toBe(45_000);
    expect(parseRetryAfter('Tue Dec  1 00:00:00 2026', now)).toBe(9 * 86_400_000);
  });

  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });

  it('is not a general date parser: ISO 8601 and impossible dates are not HTTP-dates', () => {
    expect(parseRetryAfter('2026-11-22T00:00:30Z', now)).toBeUndefined();
    expect(parseRetryAfter('2026-11-22', now)).toBeUndefined();
    expect(parseRetryAfter('Mon, 30 Feb 2026 00:00:00 GMT', now)).toBeUndefined();
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:30 PST', now)).toBeUndefined();
  });
});
