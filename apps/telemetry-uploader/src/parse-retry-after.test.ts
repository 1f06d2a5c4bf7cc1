import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

const now = Date.parse('2026-11-22T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('reads an HTTP-date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
