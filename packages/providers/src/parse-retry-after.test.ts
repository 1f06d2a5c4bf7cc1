import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

const now = Date.UTC(2026, 10, 22, 0, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
  });

  it('reads an HTTP-date as the time left until it', () => {
    // 2026-11-22 00:00:30 GMT is 30 s after `now`.
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sat, 21 Nov 2026 23:59:00 GMT' }), now)).toBe(0);
  });

  it('prefers retry-after-ms and ignores what it cannot read', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-3' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});
