import { describe, expect, it } from 'vitest';
import { readRetryAfter } from './read-retry-after.js';

const now = Date.UTC(2026, 10, 22, 0, 0, 0);

describe('readRetryAfter', () => {
  it('reads Retry-After from response headers', () => {
    expect(readRetryAfter(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(readRetryAfter(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 00:00:30 GMT' }), now)).toBe(30_000);
  });

  it('prefers retry-after-ms and ignores what it cannot read', () => {
    expect(readRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(readRetryAfter(new Headers({ 'retry-after-ms': 'later', 'retry-after': '9' }), now)).toBe(9000);
    expect(readRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(readRetryAfter(new Headers({ 'retry-after': '-3' }), now)).toBeUndefined();
    expect(readRetryAfter(new Headers(), now)).toBeUndefined();
  });
});
