import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, defaultRetryPolicy, retryableStatuses } from './retry-policy.js';

describe('backoffDelayMs (full jitter)', () => {
  const policy = { ...defaultRetryPolicy, initialDelayMs: 100, maxDelayMs: 1000 };

  it('spans [0, initial · 2^retry) and stops growing at maxDelayMs', () => {
    expect(backoffDelayMs({ retry: 0, policy, random: () => 0 })).toBe(0);
    expect(backoffDelayMs({ retry: 0, policy, random: () => 0.999 })).toBe(99);
    expect(backoffDelayMs({ retry: 2, policy, random: () => 0.5 })).toBe(200);
    expect(backoffDelayMs({ retry: 3, policy, random: () => 0.5 })).toBe(400);
    expect(backoffDelayMs({ retry: 10, policy, random: () => 0.5 })).toBe(500);
  });

  it('never exceeds its ceiling for any draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, u) => {
          const d = backoffDelayMs({ retry, policy, random: () => u });
          return d >= 0 && d < Math.min(1000, 100 * 2 ** retry);
        },
      ),
    );
  }, 30_000);
});

describe('retryableStatuses', () => {
  it('are exactly the transient ones', () => {
    for (const s of [408, 409, 429, 500, 502, 503, 504, 529]) expect(retryableStatuses.has(s), String(s)).toBe(true);
    for (const s of [400, 401, 402, 403, 404, 422]) expect(retryableStatuses.has(s), String(s)).toBe(false);
  });
});
